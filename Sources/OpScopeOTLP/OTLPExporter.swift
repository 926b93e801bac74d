import EventCoding
import Foundation
import OpScopeTelemetry
import OperationEvents

/// A source's operations sent to an OpenTelemetry collector over OTLP/HTTP: one span per
/// operation (see `OperationSpan`), and, unless `configuration.metrics` is off, the same metrics
/// the Prometheus endpoint serves, through swift-otel's OTLP metrics.
///
/// One more consumer of the source: subscriptions of its own (`traces`, `metrics`), each read on
/// a thread of its own; the program is never held up (what they could not keep up with is lost
/// and counted). Needs a build with the `OTLP` trait (`swift build --traits OTLP`); without it,
/// `init` throws `OTLPError.notBuilt`.
///
/// ```swift
/// let otlp = try OTLPExporter(source: monitor)   // OTEL_EXPORTER_OTLP_ENDPOINT, else 127.0.0.1:4318
/// // ... the program runs ...
/// otlp.stop()                                    // exports what is left, then flushes
/// ```
public final class OTLPExporter: Sendable {
    /// Whether this build can send OTLP.
    public static var isBuilt: Bool {
        #if OTLP
        true
        #else
        false
        #endif
    }

    #if OTLP
    private let backend: OTLPBackend
    private let traces: TraceExporter
    #endif
    /// The metrics' consumer, when metrics are sent.
    public let metrics: OperationMetrics?
    /// Where the traces go (the environment's variables applied).
    public let tracesEndpoint: String

    /// Starts sending `source`'s operations; `program` names the service when
    /// `OTEL_SERVICE_NAME` and `configuration.serviceName` do not (default: the source's).
    public init(source: any EventSource, program: String? = nil, configuration: OTLPConfiguration = OTLPConfiguration())
        throws(OTLPError) {
        if let endpoint = configuration.endpoint { try OTLPConfiguration.validate(endpoint) }
        tracesEndpoint = configuration.tracesEndpoint()
        #if OTLP
        let name = program ?? source.sourceInfo.program
        let header = StreamHeader(program: name, processID: Int(getpid()), host: ProcessInfo.processInfo.hostName,
                                  startedAt: WallClockTime.now(), startMonitorTime: source.now())
        let session = TraceSession(header: header, start: header.startMonitorTime, end: header.startMonitorTime)
        backend = try OTLPBackend(configuration: configuration, session: session.description,
                                  spanQueueCapacity: configuration.spanQueueCapacity)
        traces = TraceExporter(source: source, tracer: backend.tracer, session: session, configuration: configuration)
        metrics = backend.metricsFactory.map { OperationMetrics(source: source, factory: $0) }
        #else
        throw OTLPError.notBuilt
        #endif
    }

    /// What swift-otel reported going wrong so far (an unreachable collector, a refused batch).
    public var problems: [String] {
        #if OTLP
        backend.problems
        #else
        []
        #endif
    }

    /// Spans sent, counted after `stop()`.
    public var spansSent: Int {
        #if OTLP
        traces.spansEmitted
        #else
        0
        #endif
    }

    /// The trace exporter's CPU time so far (nanoseconds) and the events it folded: its cost
    /// per event (`opscope-bench bridge --otlp` prints it).
    public var traceCost: (cpuNanoseconds: UInt64, events: Int) {
        #if OTLP
        (traces.cpuNanoseconds, traces.eventsFolded)
        #else
        (0, 0)
        #endif
    }

    /// Brings the spans up to the present (what the subscriptions hold is folded and handed to
    /// swift-otel, which sends it within its batch delay).
    public func sync() {
        #if OTLP
        traces.sync()
        metrics?.sync()
        #endif
    }

    /// Stops following the source, exports what has not finished as unfinished spans, and sends
    /// everything buffered (waiting for the collector at most `timeout` seconds). Safe to call
    /// more than once.
    public func stop(timeout: Double = 15) {
        #if OTLP
        traces.stop()
        metrics?.stop()
        backend.shutdown(timeout: timeout)
        #endif
    }
}

extension TraceSession {
    /// The program's name and resource, as swift-otel's configuration takes them.
    var description: TraceSessionDescription {
        TraceSessionDescription(program: header.program, resourceAttributes: Dictionary(uniqueKeysWithValues: resource.compactMap { entry in
            guard entry.key != ResourceField.serviceName.rawValue else { return nil }
            switch entry.value {
            case .string(let text): return (entry.key, text)
            case .int(let number): return (entry.key, String(number))
            case .double, .bool, .ints: return nil
            }
        }))
    }
}

/// The name and resource of the program whose spans are sent.
struct TraceSessionDescription: Sendable {
    var program: String
    var resourceAttributes: [String: String]
}
