import EventCoding
import OperationEvents
import Testing

@Suite struct LineDecodingTests {
    private let started = StreamLine.event(MonitorEvent(sequence: 3, time: 40, origin: .exact, change: .started(operation: OperationID(7))))

    @Test func theLineIsWhatTheFormatDocumentSays() {
        #expect(started.encoded.text
            == #"{"kind":"event","sequence":3,"time":40,"origin":"exact","change":"started","operation":7}"#)
        #expect(StreamLine.header(Samples.header).encoded.text
            == #"{"kind":"header","format":"opscope-events","version":1,"program":"pipeline","processID":4242,"#
            + #""host":"build-7","startedAt":"2025-03-01T12:34:56.123456789Z","startMonitorTime":1000000}"#)
        #expect(StreamLine.dropped(DroppedMarker(count: 120, sequence: 5000)).encoded.text
            == #"{"kind":"dropped","count":120,"sequence":5000}"#)
    }

    @Test func fieldsInAnyOrderWithWhitespaceAndUnknownFields() throws {
        let variants = [
            #"{"operation":7,"change":"started","origin":"exact","time":40,"sequence":3,"kind":"event"}"#,
            " { \"kind\" : \"event\" ,\t\"sequence\":3 , \"time\" : 40,\"origin\":\"exact\",\"change\":\"started\",\"operation\":7 } ",
            #"{"kind":"event","sequence":3,"time":40,"origin":"exact","change":"started","operation":7,"#
                + #""note":{"nested":[1,2.5e3,{"a":null},true,"x\"y"]},"thread":"main"}"#,
            #"{"\u006bind":"event","sequence":3,"time":40,"origin":"\u0065xact","change":"started","operation":7}"#,
            #"{"kind":"event","sequence":3,"time":40,"origin":"exact","change":"started","operation":7,"queue":null}"#,
            #"{"kind":"event","sequence":3,"time":40,"origin":"exact","change":"started","operation":-0,"operation":7}"#,
        ]
        for text in variants {
            #expect(try StreamLine(decoding: text.bytes) == started, "\(text)")
        }
    }

    @Test func escapesAreUndone() throws {
        let text = #"{"kind":"event","sequence":0,"time":0,"origin":"exact","change":"queueRenamed","queue":1,"#
            + #""name":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\udc00"}"#
        let expected = "\"\\/\u{8}\u{C}\n\r\té😀\u{FFFD}x\u{FFFD}"
        #expect(try StreamLine(decoding: text.bytes)
            == .event(MonitorEvent(time: 0, change: .queueRenamed(queue: QueueID(1), name: expected))))
    }

    @Test func aLineOfAnUnknownKindIsSkippableWhateverItHolds() throws {
        #expect(try StreamLine(decoding: #"{"kind":"annotation","time":"noon","count":[1]}"#.bytes)
            == .unknown(kind: "annotation"))
    }

    /// Each broken line and the words its error must contain: what is wrong, and where.
    @Test(arguments: [
        ("", "a line must be one JSON object"),
        ("[1,2]", "a line must be one JSON object"),
        ("{", "expected a string"),
        (#"{"kind":"event""#, "',' or '}'"),
        (#"{"kind":"event"} x"#, "text after the object"),
        (#"{"kind":"eve"#, "ends inside a string"),
        ("{\"kind\":\"ev\tent\"}", "raw control character 0x9"),
        (#"{"kind":"\x"}"#, "unknown escape"),
        (#"{"kind":"\u12"}"#, "4 hex digits"),
        (#"{"time":01}"#, "cannot start with 0"),
        (#"{"time":-}"#, "needs digits"),
        (#"{"time":1.}"#, "expected a digit"),
        (#"{"time":tru}"#, "expected true"),
        (#"{"sequence":1}"#, "no \"kind\""),
        (#"{"kind":7}"#, "\"kind\" must be a string, found a number"),
        (#"{"kind":"event","time":1,"origin":"exact","change":"started","operation":1}"#, "has no \"sequence\""),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"started"}"#,
         "the \"started\" event has no \"operation\""),
        (#"{"kind":"event","sequence":-1,"time":1,"origin":"exact","change":"started","operation":1}"#,
         "\"sequence\" must not be negative"),
        (#"{"kind":"event","sequence":18446744073709551616,"time":1,"origin":"exact","change":"started","operation":1}"#,
         "\"sequence\" is out of range"),
        (#"{"kind":"event","sequence":1,"time":1.5,"origin":"exact","change":"started","operation":1}"#,
         "\"time\" must be an unsigned integer, found a fraction"),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"started","operation":9223372036854775808}"#,
         "\"operation\" is out of range"),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"started","operation":"7"}"#,
         "\"operation\" must be an integer, found a string"),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"guessed","change":"started","operation":1}"#,
         "\"origin\" has an unknown value \"guessed\" (expected one of: exact, sampled, inferred)"),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"exploded","operation":1}"#,
         "\"change\" has an unknown value \"exploded\""),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"ready","operation":1,"isReady":"yes"}"#,
         "\"isReady\" must be true or false, found a string"),
        (#"{"kind":"event","sequence":1,"time":1,"origin":"exact","change":"operationAdded","operation":1,"dependencies":[1,"2"]}"#,
         "must be an integer, found a string"),
        (#"{"kind":"keyframe","sequence":1,"time":1}"#, "the keyframe has no \"state\""),
        (#"{"kind":"keyframe","sequence":1,"time":1,"state":{"a":[1,2}}"#, "expected ',' or ']'"),
        (#"{"kind":"dropped","count":-3}"#, "\"count\" must not be negative"),
        (#"{"kind":"end"}"#, "the end marker has no \"time\""),
    ])
    func brokenLinesSayWhatIsWrong(text: String, expected: String) {
        do {
            let line = try StreamLine(decoding: text.bytes)
            Issue.record("decoded \(text) as \(line)")
        } catch {
            #expect(error.description.contains(expected), "\(text): \(error.description)")
        }
    }

    @Test func syntaxErrorsNameTheColumn() {
        #expect(throws: LineDecodingError.corrupt("not valid JSON: expected ',' or '}' after a field, found '\"'", column: 17)) {
            try StreamLine(decoding: #"{"kind":"event" "sequence":1}"#.bytes)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 1_000_000
        let text = #"{"kind":"keyframe","sequence":0,"time":0,"state":"# + String(repeating: "[", count: depth)
        #expect(throws: LineDecodingError.self) { try StreamLine(decoding: text.bytes) }
        let balanced = #"{"kind":"keyframe","sequence":0,"time":0,"state":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(throws: Never.self) { try StreamLine(decoding: balanced.bytes) }
    }
}

extension LineDecodingError {
    static func corrupt(_ reason: String, column: Int? = nil) -> Self { Self(.corrupt(reason), column: column) }
}
