#if OTLP
import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing
import CoreMetrics

/// swift-otel's tracing (and metrics) backend running for OpScope: its services run on a task
/// of their own; `shutdown()` sends what is left and waits for it. What swift-otel reports
/// going wrong (an unreachable collector, a refused request) is kept for `problems`.
final class OTLPBackend: Sendable {
    let tracer: any Tracer
    let metricsFactory: (any MetricsFactory)?
    private let group: ServiceGroup
    private let finished = DispatchSemaphore(value: 0)
    private let diagnostics: DiagnosticsLog

    init(configuration: OTLPConfiguration, session: TraceSessionDescription, spanQueueCapacity: Int) throws(OTLPError) {
        let diagnostics = DiagnosticsLog()
        var otel = OTel.Configuration.default
        otel.serviceName = configuration.serviceName ?? session.program
        otel.resourceAttributes = session.resourceAttributes
        otel.diagnosticLogger = .custom(Logger(label: "opscope.otlp") { _ in DiagnosticsHandler(log: diagnostics) })
        otel.diagnosticLogLevel = .warning
        otel.logs.enabled = false
        otel.traces.sampler = .alwaysOn
        otel.traces.otlpExporter.protocol = .httpProtobuf
        otel.traces.batchSpanProcessor.maxQueueSize = max(512, spanQueueCapacity)
        otel.traces.batchSpanProcessor.maxExportBatchSize = 512
        otel.traces.batchSpanProcessor.scheduleDelay = .milliseconds(Int64(max(0.01, configuration.batchDelay) * 1_000))
        otel.metrics.enabled = configuration.metrics
        otel.metrics.otlpExporter.protocol = .httpProtobuf
        // Set as whole URLs (swift-otel adds no path to an endpoint set in code); the
        // environment's endpoint variables, read by swift-otel after this, still win.
        let base = configuration.baseEndpoint(environment: [:])
        otel.traces.otlpExporter.endpoint = base + "/v1/traces"
        otel.metrics.otlpExporter.endpoint = base + "/v1/metrics"
        var services: [any Service] = []
        do {
            let tracing = try OTel.makeTracingBackend(configuration: otel)
            tracer = tracing.factory
            services.append(tracing.service)
            if configuration.metrics {
                let metrics = try OTel.makeMetricsBackend(configuration: otel)
                metricsFactory = metrics.factory
                services.append(metrics.service)
            } else {
                metricsFactory = nil
            }
        } catch {
            throw OTLPError.configuration("OTLP export cannot start: \(error)")
        }
        group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: Logger(label: "opscope.otlp.services") { _ in
            SwiftLogNoOpLogHandler()
        }))
        self.diagnostics = diagnostics
        let group = group
        let finished = finished
        Task.detached {
            try? await group.run()
            finished.signal()
        }
    }

    /// What swift-otel reported going wrong so far (warnings and errors, oldest first).
    var problems: [String] { diagnostics.messages }

    /// Sends what is buffered, stops the services and waits for them (at most `timeout`
    /// seconds); safe to call once.
    func shutdown(timeout: Double = 15) {
        let group = group
        Task.detached { await group.triggerGracefulShutdown() }
        _ = finished.wait(timeout: .now() + timeout)
    }
}

/// What swift-otel logged at warning level or above.
final class DiagnosticsLog: @unchecked Sendable {
    // Safety: `entries` is guarded by `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    var messages: [String] { lock.withLock { entries } }

    func append(_ text: String) {
        lock.withLock {
            if entries.count < 100 { entries.append(text) }
        }
    }
}

/// A swift-log handler that keeps swift-otel's diagnostics instead of printing them (a
/// dashboard owns the terminal).
struct DiagnosticsHandler: LogHandler {
    let log: DiagnosticsLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        let details = (metadata ?? [:]).merging(self.metadata) { new, _ in new }
            .filter { $0.key != "component" }
            .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        log.append(details.isEmpty ? "\(message)" : "\(message) (\(details))")
    }
}
#endif
