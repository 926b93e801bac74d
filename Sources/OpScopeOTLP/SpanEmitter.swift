#if OTLP
import OpScopeTelemetry
import OperationEvents
import Tracing

/// Hands `OperationSpan`s to a swift-distributed-tracing `Tracer` (swift-otel's), with their
/// recorded times: each a child of the session's root span, its dependencies as links to their
/// spans, its notes as span events, an unfinished one with an error status that says so.
///
/// The spans of one call are all started before any gets its links, so that operations handed
/// over together (the members of a cycle, exported unfinished at once) link to each other.
struct SpanEmitter {
    private let tracer: any Tracer
    private let session: TraceSession
    private let root: any Span
    /// The spans handed over so far, by operation, for the links of later ones.
    private var contexts: [OperationID: ServiceContext] = [:]
    /// Spans handed over.
    private(set) var emitted = 0
    /// Dependency links made.
    private(set) var linked = 0

    /// Starts the session's root span.
    init(tracer: any Tracer, session: TraceSession) {
        self.tracer = tracer
        self.session = session
        root = tracer.startSpan(session.rootName, context: .topLevel, ofKind: .internal, at: Self.instant(session, session.start))
    }

    /// Hands `spans` to the tracer.
    mutating func emit(_ spans: [OperationSpan]) {
        guard !spans.isEmpty else { return }
        var open: [(OperationSpan, any Span)] = []
        open.reserveCapacity(spans.count)
        for span in spans {
            let started = tracer.startSpan(span.name, context: root.context, ofKind: .internal, at: Self.instant(session, span.start))
            contexts[span.operation] = started.context
            open.append((span, started))
        }
        for (span, started) in open {
            var attributes = SpanAttributes()
            for attribute in span.attributes { attributes[attribute.field.rawValue] = Self.attribute(attribute.value) }
            started.attributes = attributes
            for dependency in span.links {
                guard let context = contexts[dependency] else { continue }
                started.addLink(SpanLink(context: context, attributes: [:]))
                linked += 1
            }
            for note in span.events {
                var noted = SpanAttributes()
                for attribute in note.attributes { noted[attribute.field.rawValue] = Self.attribute(attribute.value) }
                started.addEvent(SpanEvent(name: note.name.rawValue, at: Self.instant(session, note.time), attributes: noted))
            }
            if span.unfinished { started.setStatus(SpanStatus(code: .error, message: span.statusMessage)) }
            started.end(at: Self.instant(session, span.end))
            emitted += 1
        }
    }

    /// Forgets the spans of operations `keep` rejects (released by the program: no later
    /// operation can name them), so that a long run's table stays bounded.
    mutating func forget(keeping keep: (OperationID) -> Bool) {
        contexts = contexts.filter { keep($0.key) }
    }

    /// Ends the root span at `time`, saying how many events the spans could not see.
    func end(at time: UInt64, eventsLost: Int) {
        root.attributes[SessionField.eventsLost.rawValue] = Tracing.SpanAttribute.int64(Int64(eventsLost))
        root.attributes[SessionField.spans.rawValue] = Tracing.SpanAttribute.int64(Int64(emitted))
        root.end(at: Self.instant(session, max(time, session.start)))
    }

    private static func instant(_ session: TraceSession, _ time: UInt64) -> DefaultTracerClock.Timestamp {
        DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: session.epochNanoseconds(time))
    }

    private static func attribute(_ value: SpanValue) -> Tracing.SpanAttribute {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .int64(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .ints(let numbers): .int64Array(numbers)
        }
    }
}
#endif
