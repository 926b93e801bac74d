import EventCoding
import Foundation
import OperationEvents
import Testing

@Suite struct RoundTripTests {
    private func roundTrip(_ line: StreamLine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = line.encoded
        #expect(!bytes.contains(0x0A), "a line must not contain a line break: \(bytes.text)", sourceLocation: sourceLocation)
        let decoded = try StreamLine(decoding: bytes)
        #expect(decoded == line, "\(bytes.text)", sourceLocation: sourceLocation)
    }

    @Test func everyKindIsSampled() {
        for kind in MonitorEvent.Change.Kind.allCases {
            let samples = Samples.samples(of: kind)
            #expect(!samples.isEmpty && samples.allSatisfy { $0.kind == kind }, "\(kind)")
        }
    }

    @Test func everyEventKindRoundTrips() throws {
        for event in Samples.events { try roundTrip(.event(event)) }
    }

    @Test func edgeValuesRoundTrip() throws {
        let extremes: [(UInt64, Int)] = [(0, 0), (UInt64.max, Int.max), (UInt64.max - 1, Int.min), (1 << 63, -1)]
        for (time, id) in extremes {
            try roundTrip(.event(MonitorEvent(sequence: time, time: time, change: .started(operation: OperationID(id)))))
            try roundTrip(.event(MonitorEvent(sequence: 0, time: time, change: .queueDepth(queue: QueueID(id), operations: id))))
            try roundTrip(.event(MonitorEvent(
                sequence: time, time: time,
                change: .dependencyAdded(operation: OperationID(id), dependency: OperationID(Int.max)))))
        }
        for name in Samples.awkwardNames {
            var info = Samples.operation
            info.name = name
            info.typeName = name
            try roundTrip(.event(MonitorEvent(time: 1, change: .operationAdded(info))))
            try roundTrip(.event(MonitorEvent(time: 1, change: .queueRenamed(queue: QueueID(1), name: name))))
            var header = Samples.header
            header.program = name
            header.host = name
            try roundTrip(.header(header))
            try roundTrip(.end(EndMarker(time: 1, reason: name)))
        }
    }

    @Test func invalidUTF8IsReplacedNotLost() throws {
        let name = String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self)
        #expect(name == "a\u{FFFD}b")
        let line = StreamLine.event(MonitorEvent(time: 1, change: .queueRenamed(queue: QueueID(1), name: name)))
        #expect(line.encoded.text.contains("\"name\":\"a\u{FFFD}b\""))
        // Invalid bytes written into a file by something else are replaced when read.
        var bytes = #"{"kind":"event","sequence":0,"time":1,"origin":"exact","change":"queueRenamed","queue":1,"name":"a"#.bytes
        bytes += [0xFF, 0xFE] + #"b"}"#.bytes
        let decoded = try StreamLine(decoding: bytes)
        #expect(decoded == .event(MonitorEvent(time: 1, change: .queueRenamed(queue: QueueID(1), name: "a\u{FFFD}\u{FFFD}b"))))
    }

    @Test func headerAndMarkersRoundTrip() throws {
        try roundTrip(.header(Samples.header))
        var noHost = Samples.header
        noHost.host = nil
        noHost.startedAt = WallClockTime(nanosecondsSince1970: 0)
        noHost.processID = Int.max
        try roundTrip(.header(noHost))
        try roundTrip(.dropped(DroppedMarker(count: 0)))
        try roundTrip(.dropped(DroppedMarker(count: Int.max, sequence: UInt64.max, time: UInt64.max)))
        try roundTrip(.end(EndMarker(time: UInt64.max)))
        try roundTrip(.end(EndMarker(time: 0, events: 1_000_000, dropped: 12, reason: "detached")))
    }

    @Test func keyframeCarriesAnyCodableState() throws {
        let keyframe = try Keyframe(sequence: UInt64.max, time: 42, state: Samples.snapshot)
        try roundTrip(.keyframe(keyframe))
        guard case .keyframe(let decoded) = try StreamLine(decoding: StreamLine.keyframe(keyframe).encoded) else {
            Issue.record("not a keyframe")
            return
        }
        #expect(try decoded.decodeState(as: MonitorSnapshot.self) == Samples.snapshot)
        #expect(decoded.sequence == UInt64.max && decoded.time == 42)
        // Equal states give equal lines (keys sorted), so keyframes can be compared as text.
        #expect(try Keyframe(sequence: 1, time: 2, state: Samples.snapshot).stateJSON
            == Keyframe(sequence: 1, time: 2, state: Samples.snapshot).stateJSON)
    }

    @Test func keyframeStateWithNewlinesInStringsStaysOnOneLine() throws {
        let state = ["note": "line one\nline two\r\n\u{2028}"]
        let line = StreamLine.keyframe(try Keyframe(sequence: 0, time: 0, state: state))
        #expect(!line.encoded.contains(0x0A))
        guard case .keyframe(let decoded) = try StreamLine(decoding: line.encoded) else {
            Issue.record("not a keyframe")
            return
        }
        #expect(try decoded.decodeState(as: [String: String].self) == state)
    }

    @Test func unknownKindRoundTripsItsKind() throws {
        try roundTrip(.unknown(kind: "annotation"))
        try roundTrip(.unknown(kind: "with \"quotes\""))
    }

    @Test func randomEventsRoundTrip() throws {
        let seed = SeededGenerator.seed(default: 0xC0D1)
        var random = SeededGenerator(seed: seed)
        for index in 0 ..< 5000 {
            let event = Samples.randomEvent(&random, sequence: UInt64(index))
            let bytes = StreamLine.event(event).encoded
            let decoded = try StreamLine(decoding: bytes)
            #expect(decoded == .event(event), "seed \(seed), event \(index): \(bytes.text)")
            if decoded != .event(event) { return }
        }
    }

    @Test func encodingIntoOneBufferAppends() throws {
        var bytes: [UInt8] = Array("prefix".utf8)
        StreamLine.encode(Samples.events[0], into: &bytes)
        #expect(bytes.text.hasPrefix("prefix{\"kind\":\"event\""))
        #expect(try StreamLine(decoding: Array(bytes.dropFirst(6))) == .event(Samples.events[0]))
    }
}
