import OpScopeRecording
import OpScopeTelemetry
import OperationEvents

/// A recording's spans sent to a collector (a post-mortem in Jaeger or Tempo): the same spans
/// `opscope export --format otlp-json` writes (`RecordingTraces`), with their recorded times.
public enum OTLPRecordingExport {
    /// What was sent.
    public struct Summary: Sendable, Equatable {
        /// Operation spans (the session's root span not counted).
        public var spans = 0
        /// Of them, unfinished at the recording's end.
        public var unfinished = 0
        /// Dependency links.
        public var links = 0
        /// Where they went.
        public var endpoint = ""
    }

    /// Sends `recording`'s spans and waits until they are sent (at most `timeout` seconds);
    /// throws with swift-otel's report when the collector did not take them.
    public static func send(_ recording: Recording, configuration: OTLPConfiguration = OTLPConfiguration(),
                            timeout: Double = 30) throws -> Summary {
        if let endpoint = configuration.endpoint { try OTLPConfiguration.validate(endpoint) }
        let (spans, session) = try RecordingTraces.spans(of: recording)
        var summary = Summary(spans: spans.count, unfinished: spans.filter(\.unfinished).count, endpoint: configuration.tracesEndpoint())
        #if OTLP
        var sending = configuration
        sending.metrics = false
        let backend = try OTLPBackend(configuration: sending, session: session.description, spanQueueCapacity: spans.count + 16)
        var emitter = SpanEmitter(tracer: backend.tracer, session: session)
        emitter.emit(spans)
        emitter.end(at: session.end, eventsLost: session.eventsLost)
        summary.links = emitter.linked
        backend.shutdown(timeout: timeout)
        if let problem = backend.problems.first { throw OTLPError.exportFailed("\(summary.endpoint): \(problem)") }
        return summary
        #else
        _ = (summary, session)
        throw OTLPError.notBuilt
        #endif
    }
}
