import Foundation
import OpScopeTelemetry

/// Where and how OpScope sends traces and metrics over OTLP/HTTP.
///
/// Configured the OpenTelemetry way: swift-otel reads the standard `OTEL_*` variables
/// (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_SERVICE_NAME`,
/// `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_METRIC_EXPORT_INTERVAL`, ...)
/// and they win over what is set here, as in the OpenTelemetry SDKs.
public struct OTLPConfiguration: Sendable {
    /// The collector's base URL (`http://host:4318`; `/v1/traces` and `/v1/metrics` are added).
    /// Nil: `OTEL_EXPORTER_OTLP_ENDPOINT`, else `defaultEndpoint`.
    public var endpoint: String?
    /// The service's name when `OTEL_SERVICE_NAME` does not give one; nil: the program's.
    public var serviceName: String?
    /// Send the metrics too (`OperationMetrics` through swift-otel's OTLP metrics).
    public var metrics = true
    /// How the trace exporter reads its subscription.
    public var reading = FollowerConfiguration()
    /// How often the live exporter looks for stuck work to export unfinished, and for new
    /// warnings (seconds of the monitor's clock).
    public var sweepInterval = 1.0
    /// Spans the exporter may hold before sending them; more are dropped (swift-otel's batch
    /// processor). 2,048 is the OpenTelemetry specification's default for
    /// `OTEL_BSP_MAX_QUEUE_SIZE`, which overrides it: a queue kept full by a collector that
    /// cannot keep up held about 4 KB per span (16,384 of them grew the process by 60 MiB and
    /// more with every minute of load), and a larger queue only delays the drop.
    public var spanQueueCapacity = 2_048
    /// How long spans wait to be sent in a batch, at most (seconds).
    public var batchDelay = 1.0

    /// `http://127.0.0.1:4318`: a collector on this machine.
    public static let defaultEndpoint = "http://127.0.0.1:4318"

    /// The defaults.
    public init() {}

    /// The base URL in use: the configured one, else the environment's, else the default.
    public func baseEndpoint(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Self.base(of: endpoint ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultEndpoint)
    }

    /// Where traces go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else the base URL's `/v1/traces`.
    public func tracesEndpoint(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let exact = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], !exact.isEmpty { return exact }
        return baseEndpoint(environment: environment) + "/v1/traces"
    }

    /// Where metrics go: `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`, else the base URL's `/v1/metrics`.
    public func metricsEndpoint(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let exact = environment["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"], !exact.isEmpty { return exact }
        return baseEndpoint(environment: environment) + "/v1/metrics"
    }

    /// Checks a collector URL given by a person: `http://` or `https://`, a host.
    public static func validate(_ url: String) throws(OTLPError) {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty else {
            throw OTLPError.badEndpoint("\(url): not a collector URL (expected http://HOST:PORT, e.g. \(defaultEndpoint))")
        }
    }

    /// `url` without a trailing `/` or signal path (`/v1/traces` given by habit).
    static func base(of url: String) -> String {
        var base = url
        for suffix in ["/v1/traces", "/v1/metrics", "/v1/logs"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
        }
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}

/// Why OTLP export could not start or did not get through.
public enum OTLPError: Error, Equatable, CustomStringConvertible {
    /// This build has no OTLP exporter.
    case notBuilt
    /// The collector URL is not one.
    case badEndpoint(String)
    /// swift-otel refused the configuration (an `OTEL_*` variable it cannot use, say).
    case configuration(String)
    /// The collector did not take what was sent.
    case exportFailed(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .notBuilt:
            "this opscope was built without OTLP export: build it with `swift build --traits OTLP` "
                + "(a Prometheus endpoint, --metrics, and --format otlp-json need no trait)"
        case .badEndpoint(let text), .configuration(let text): text
        case .exportFailed(let text): "OTLP export failed: \(text)"
        }
    }
}
