import Foundation
import OperationEvents

/// Spans in OTLP's JSON form: one `ExportTraceServiceRequest` (the protobuf message an OTLP/HTTP
/// exporter posts to `/v1/traces`) in the protobuf JSON mapping OTLP specifies: ids as hex, times
/// and 64-bit integers as strings, enums as numbers. The collector's `otlpjsonfile` receiver and
/// the OpenTelemetry protobuf definitions' JSON parser read it; written on one line, it is also
/// a line of OTLP's JSON Lines file format.
///
/// Ids are derived from the session (`TraceSession.traceSeed`) and the operation: the same
/// recording exports the same ids, and a link can name a span written later in the file.
public enum OTLPJSONTrace {
    /// The JSON of `spans` under `session`'s root span, as one line.
    public static func encode(_ spans: [OperationSpan], session: TraceSession) throws -> [UInt8] {
        let ids = SpanIDs(session: session, spans: spans)
        let root = SpanJSON(
            traceId: ids.trace, spanId: ids.root, parentSpanId: nil, name: session.rootName, kind: 1,
            startTimeUnixNano: String(session.epochNanoseconds(session.start)),
            endTimeUnixNano: String(session.epochNanoseconds(max(session.end, session.start))),
            attributes: [KeyValue(key: SessionField.eventsLost.rawValue, value: AnyValue(.int(Int64(session.eventsLost)))),
                         KeyValue(key: SessionField.spans.rawValue, value: AnyValue(.int(Int64(spans.count))))],
            events: [], links: [], status: nil)
        var encoded = [root]
        for span in spans {
            encoded.append(SpanJSON(
                traceId: ids.trace, spanId: ids.span(span), parentSpanId: ids.root, name: span.name, kind: 1,
                startTimeUnixNano: String(session.epochNanoseconds(span.start)),
                endTimeUnixNano: String(session.epochNanoseconds(span.end)),
                attributes: span.attributes.map { KeyValue(key: $0.field.rawValue, value: AnyValue($0.value)) },
                events: span.events.map { note in
                    EventJSON(timeUnixNano: String(session.epochNanoseconds(note.time)), name: note.name.rawValue,
                              attributes: note.attributes.map { KeyValue(key: $0.field.rawValue, value: AnyValue($0.value)) })
                },
                links: span.links.compactMap { dependency in ids.finishedOrAny(dependency).map { LinkJSON(traceId: ids.trace, spanId: $0) } },
                status: span.unfinished ? StatusJSON(code: 2, message: span.statusMessage ?? "unfinished") : nil))
        }
        let request = RequestJSON(resourceSpans: [ResourceSpansJSON(
            resource: ResourceJSON(attributes: session.resource.map { KeyValue(key: $0.key, value: AnyValue($0.value)) }),
            scopeSpans: [ScopeSpansJSON(scope: ScopeJSON(name: TraceSession.scopeName, version: TraceSession.scopeVersion),
                                        spans: encoded)])])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(request)) + [0x0A]
    }

    /// The ids of one export: the trace's, the root's, and each span's.
    struct SpanIDs {
        let trace: String
        let root: String
        private let seed: UInt64
        private var finished: [OperationID: String] = [:]
        private var unfinished: [OperationID: String] = [:]

        init(session: TraceSession, spans: [OperationSpan]) {
            seed = session.traceSeed
            trace = Self.hex(Self.mix(seed), Self.mix(seed ^ 0x5bd1_e995_5bd1_e995))
            root = Self.hex(Self.mix(seed &+ 1))
            for span in spans {
                if span.unfinished { unfinished[span.operation] = id(span) } else { finished[span.operation] = id(span) }
            }
        }

        /// A span's id: its operation's, and whether it is the finished span (an operation
        /// exported unfinished and then finished has both).
        func span(_ span: OperationSpan) -> String { id(span) }

        /// The id a link to `operation` names: its finished span's, else its unfinished one's.
        func finishedOrAny(_ operation: OperationID) -> String? { finished[operation] ?? unfinished[operation] }

        private func id(_ span: OperationSpan) -> String {
            Self.hex(Self.mix(seed &+ 2 &+ ((UInt64(span.operation.rawValue) << 1) | (span.unfinished ? 1 : 0))))
        }

        /// A 64-bit mix (splitmix64's finaliser): distinct inputs, distinct nonzero-looking ids.
        static func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9e37_79b9_7f4a_7c15
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            let mixed = z ^ (z >> 31)
            return mixed == 0 ? 1 : mixed
        }

        static func hex(_ words: UInt64...) -> String {
            words.map { word in
                let digits = String(word, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }
    }

    // The OTLP JSON shapes (opentelemetry-proto's field names in lowerCamelCase).
    struct RequestJSON: Codable { var resourceSpans: [ResourceSpansJSON] }
    struct ResourceSpansJSON: Codable {
        var resource: ResourceJSON
        var scopeSpans: [ScopeSpansJSON]
    }
    struct ResourceJSON: Codable { var attributes: [KeyValue] }
    struct ScopeSpansJSON: Codable {
        var scope: ScopeJSON
        var spans: [SpanJSON]
    }
    struct ScopeJSON: Codable {
        var name: String
        var version: String
    }
    struct SpanJSON: Codable {
        var traceId: String
        var spanId: String
        var parentSpanId: String?
        var name: String
        var kind: Int
        var startTimeUnixNano: String
        var endTimeUnixNano: String
        var attributes: [KeyValue]
        var events: [EventJSON]
        var links: [LinkJSON]
        var status: StatusJSON?
    }
    struct EventJSON: Codable {
        var timeUnixNano: String
        var name: String
        var attributes: [KeyValue]
    }
    struct LinkJSON: Codable {
        var traceId: String
        var spanId: String
    }
    struct StatusJSON: Codable {
        var code: Int
        var message: String
    }
    struct KeyValue: Codable {
        var key: String
        var value: AnyValue
    }
    struct AnyValue: Codable {
        var stringValue: String?
        var intValue: String?
        var doubleValue: Double?
        var boolValue: Bool?
        var arrayValue: ArrayValue?

        init(_ value: SpanValue) {
            switch value {
            case .string(let text): stringValue = text
            case .int(let number): intValue = String(number)
            case .double(let number): doubleValue = number
            case .bool(let flag): boolValue = flag
            case .ints(let numbers): arrayValue = ArrayValue(values: numbers.map { AnyValue(.int($0)) })
            }
        }
    }
    struct ArrayValue: Codable { var values: [AnyValue] }
}
