import EventCoding
import OperationEvents
import Testing

@Suite struct FramingTests {
    private func frames(_ lines: [StreamLine]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines { FrameEncoder.append(line, to: &bytes) }
        return bytes
    }

    /// Feeds `bytes` in random pieces and collects what the reader gives.
    private func read(_ bytes: [UInt8], pieces random: inout SeededGenerator, maximumFrameSize: Int = 1 << 20)
        throws(EventStreamError) -> [StreamRecord]
    {
        var reader = FrameReader(source: "agent 42", maximumFrameSize: maximumFrameSize)
        var records: [StreamRecord] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1 ... 300, using: &random))
            reader.append(bytes[index ..< end])
            index = end
            while let record = try reader.next() { records.append(record) }
        }
        try reader.finish()
        return records
    }

    @Test func aStreamSurvivesAnyCuttingIntoPieces() throws {
        let seed = SeededGenerator.seed(default: 0xF4A3E)
        var random = SeededGenerator(seed: seed)
        let (lines, _) = try Samples.stream(events: Samples.events, keyframeEvery: 7)
        let bytes = frames(lines)
        for _ in 0 ..< 50 {
            let records = try read(bytes, pieces: &random)
            #expect(records.map(\.line) == lines, "seed \(seed)")
            #expect(records.map(\.position.line) == Array(1 ... lines.count), "seed \(seed)")
            var offset = 0
            for record in records {
                #expect(record.position.offset == offset, "seed \(seed)")
                offset += FrameEncoder.prefixLength + record.length
            }
        }
    }

    @Test func aFrameIsTheLengthThenTheLine() {
        let line = StreamLine.event(Samples.events[11])
        var expected: [UInt8] = [0, 0, 0, UInt8(line.encoded.count)]
        expected += line.encoded
        #expect(FrameEncoder.frame(line) == expected)
        var viaEvent: [UInt8] = []
        FrameEncoder.append(Samples.events[11], to: &viaEvent)
        #expect(viaEvent == expected)
    }

    @Test func anOversizedFrameIsRefusedBeforeItsBytesArrive() {
        var reader = FrameReader(source: "agent", maximumFrameSize: 1000)
        reader.append(frames([.header(Samples.header)]))
        #expect(throws: Never.self) { try reader.next() }
        reader.append([0, 0, 0x03, 0xE9]) // 1001 bytes announced, none sent
        let expected = EventStreamError(source: "agent", line: 2, offset: frames([.header(Samples.header)]).count,
                                        kind: .frameTooLarge(length: 1001, limit: 1000))
        #expect(throws: expected) { try reader.next() }
        // The framing is lost: every later call says so again.
        reader.append(frames([.event(Samples.events[0])]))
        #expect(throws: expected) { try reader.next() }
        #expect(throws: expected) { try reader.finish() }
        #expect(expected.description == "agent:2: frame of 1001 bytes is larger than the limit of 1000 (corrupt, or not an event stream)")
    }

    @Test func aConnectionEndingInsideAFrameIsTruncated() throws {
        let bytes = frames([.header(Samples.header), .event(Samples.events[3])])
        let headerFrame = frames([.header(Samples.header)]).count
        let second = bytes.count - headerFrame
        for cut in [1, 3, 4, 10, second - 1] {
            var reader = FrameReader(source: "agent")
            reader.append(bytes[..<(headerFrame + cut)])
            #expect(try reader.next() != nil)
            #expect(try reader.next() == nil)
            let expected = EventStreamError(source: "agent", line: 2, offset: headerFrame,
                                            kind: .truncatedFrame(expected: cut < 4 ? 4 : second, received: cut))
            #expect(throws: expected) { try reader.finish() }
        }
    }

    @Test func aConnectionEndingBeforeTheHeaderIsEmpty() {
        let reader = FrameReader(source: "agent")
        #expect(throws: EventStreamError(source: "agent", kind: .empty)) { try reader.finish() }
    }

    @Test func anEmptyFrameAndACorruptLineNameTheFrame() {
        var reader = FrameReader(source: "agent")
        reader.append(frames([.header(Samples.header)]) + [0, 0, 0, 0])
        _ = try? reader.next()
        #expect(throws: EventStreamError(source: "agent", line: 2, offset: frames([.header(Samples.header)]).count,
                                         kind: .corruptLine("empty frame (a frame holds one line)"))) { try reader.next() }
        var second = FrameReader(source: "agent")
        second.append(frames([.header(Samples.header)]) + [0, 0, 0, 2] + Array("{}".utf8))
        _ = try? second.next()
        do {
            _ = try second.next()
            Issue.record("decoded {}")
        } catch {
            #expect(error.description == #"agent:2: corrupt line: the line has no "kind""#)
        }
    }

    @Test func aStreamNotStartingWithAHeaderIsRefused() {
        var reader = FrameReader(source: "agent")
        reader.append(frames([.event(Samples.events[0])]))
        #expect(throws: EventStreamError(source: "agent", line: 1, offset: 0,
                                         kind: .notAnOpScopeStream(#"the first line is "event", not the header"#))) {
            try reader.next()
        }
    }
}
