import CoreMetrics
import Prometheus

/// OpScope's metrics in a Prometheus registry of their own, and the text a scrape reads.
///
/// `factory` is the swift-metrics factory that writes into the registry: hand it to
/// `OperationMetrics` (or to anything else that speaks swift-metrics). It is swift-prometheus's
/// registry, with each metric's `# HELP` line filled in from `OpScopeMetric` (swift-metrics
/// itself has no place for help text, and `promtool check metrics` asks for it).
public final class PrometheusExposition: Sendable {
    /// The registry the metrics are written into.
    public let registry: PrometheusCollectorRegistry
    /// The factory that writes into `registry`.
    public let factory: any MetricsFactory

    /// A registry of its own (not swift-prometheus's process-wide default), so that a program
    /// with metrics of its own keeps them apart unless it passes its registry here.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                configuration: MetricsConfiguration = MetricsConfiguration()) {
        self.registry = registry
        factory = HelpfulPrometheusFactory(registry: registry, buckets: configuration.histogramBuckets.map {
            Duration.nanoseconds(Int64(($0 * 1e9).rounded()))
        })
    }

    /// The registry in Prometheus's text format (version 0.0.4), as `/metrics` serves it.
    public func exposition() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }
}

/// swift-prometheus's factory with help text: the same registry calls, naming each metric's
/// help from `OpScopeMetric` (other names get none, as swift-prometheus's own factory gives).
struct HelpfulPrometheusFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    let buckets: [Duration]

    /// The metric's name as swift-prometheus's descriptor states it, with its help.
    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: OpScopeMetric(name: label)?.help ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        // OpScope records no aggregated values; a caller that does gets them as a gauge's latest.
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
