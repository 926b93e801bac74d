import Foundation
import OperationEvents

/// A source's metrics served for Prometheus: `OperationMetrics` writing into a
/// `PrometheusExposition`, and a `MetricsEndpoint` that brings them up to date and serves them
/// on each scrape of `/metrics`.
///
/// ```swift
/// let server = try MetricsServer(source: monitor, address: "127.0.0.1:9464")
/// // ... scrape http://127.0.0.1:9464/metrics ...
/// server.stop()
/// ```
public final class MetricsServer: Sendable {
    /// The consumer that follows the source.
    public let metrics: OperationMetrics
    /// The registry the metrics are in.
    public let exposition: PrometheusExposition
    /// The HTTP endpoint.
    public let endpoint: MetricsEndpoint

    /// Follows `source` and serves its metrics at `address` (`HOST:PORT`; port 0: the system
    /// chooses, `endpoint.port` says which).
    public init(source: any EventSource, address: String, configuration: MetricsConfiguration = MetricsConfiguration())
        throws(MetricsEndpointError) {
        let exposition = PrometheusExposition(configuration: configuration)
        let metrics = OperationMetrics(source: source, factory: exposition.factory, configuration: configuration)
        do {
            endpoint = try MetricsEndpoint(address: address) {
                // Each scrape reads the present: what the subscription holds is folded first,
                // waiting two seconds at most (Prometheus's scrape timeout is ten by default).
                metrics.sync(deadline: Date(timeIntervalSinceNow: 2))
                return exposition.exposition()
            }
        } catch {
            metrics.stop()
            throw error
        }
        self.metrics = metrics
        self.exposition = exposition
    }

    /// Stops serving and following; safe to call more than once.
    public func stop() {
        endpoint.stop()
        metrics.stop()
    }
}
