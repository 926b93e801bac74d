import EventCoding
import Foundation
import OperationEvents
import Testing

@Suite struct ReaderTests {
    private func events(_ count: Int, seed: UInt64 = 7) -> [MonitorEvent] {
        var random = SeededGenerator(seed: seed)
        return (0 ..< count).map { Samples.randomEvent(&random, sequence: UInt64($0)) }
    }

    /// Checks that `records` are exactly `lines`, at the offsets and line numbers the bytes give.
    private func expectRecords(_ records: [StreamRecord], match lines: [StreamLine], in bytes: [UInt8],
                               sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(records.map(\.line) == lines, sourceLocation: sourceLocation)
        var offset = 0
        for (index, record) in records.enumerated() {
            let length = lines[index].encoded.count
            #expect(record.position == StreamPosition(offset: offset, line: index + 1), sourceLocation: sourceLocation)
            #expect(record.length == length, sourceLocation: sourceLocation)
            offset += length + 1
        }
        #expect(offset == bytes.count, sourceLocation: sourceLocation)
    }

    @Test func readsBytesAndFilesWithLineNumbersAndOffsets() throws {
        let (lines, bytes) = try Samples.stream(events: Samples.events + events(300), keyframeEvery: 50)
        let fromBytes = try EventStreamReader(bytes: bytes, name: "memory")
        #expect(fromBytes.header == Samples.header)
        expectRecords(try fromBytes.readAll(), match: lines, in: bytes)
        #expect(fromBytes.truncation == nil)
        try Samples.withTemporaryFile(bytes) { path in
            let reader = try EventStreamReader(path: path)
            #expect(reader.source == path)
            expectRecords(try reader.readAll(), match: lines, in: bytes)
            #expect(try reader.next() == nil)
        }
    }

    @Test func linesStraddlingChunksAreReadWhole() throws {
        let (lines, bytes) = try Samples.stream(events: Samples.events + events(40), keyframeEvery: 10)
        try Samples.withTemporaryFile(bytes) { path in
            for chunk in [1, 2, 7, 64, 1000] {
                let reader = try EventStreamReader(path: path, maximumLineLength: 1 << 20, chunkSize: chunk)
                expectRecords(try reader.readAll(), match: lines, in: bytes)
            }
        }
    }

    @Test func aFileLargerThanAChunkIsReadWhole() throws {
        let (lines, bytes) = try Samples.stream(events: events(8000, seed: 99), keyframeEvery: 2000)
        #expect(bytes.count > 3 << 19)
        try Samples.withTemporaryFile(bytes) { path in
            expectRecords(try EventStreamReader(path: path).readAll(), match: lines, in: bytes)
        }
    }

    @Test func seekingToAnIndexedKeyframeReadsOnFromThere() throws {
        let (_, bytes) = try Samples.stream(events: events(2000), keyframeEvery: 250)
        try Samples.withTemporaryFile(bytes) { path in
            let reader = try EventStreamReader(path: path, maximumLineLength: 1 << 20, chunkSize: 4096)
            let all = try reader.readAll()
            let keyframes = all.indices.filter { if case .keyframe = all[$0].line { true } else { false } }
            #expect(keyframes.count == 8)
            // Seek backwards and forwards, in and out of the buffered chunk.
            for index in keyframes.reversed() + keyframes {
                reader.seek(to: all[index].position)
                var following: [StreamRecord] = []
                for _ in 0 ..< 20 { if let record = try reader.next() { following.append(record) } }
                #expect(following == Array(all[index ..< min(index + 20, all.count)]))
            }
        }
    }

    @Test func blankLinesAndCarriageReturnsAreTolerated() throws {
        let lines: [StreamLine] = [.header(Samples.header)] + Samples.events.prefix(3).map { StreamLine.event($0) }
        var bytes = Array("\n".utf8)
        for line in lines { bytes += line.encoded + Array("\r\n  \n".utf8) }
        let records = try EventStreamReader(bytes: bytes, name: "crlf").readAll()
        #expect(records.map(\.line) == lines)
        #expect(records.map(\.position.line) == [2, 4, 6, 8])
    }

    @Test func aTruncatedLastLineIsANoticeAndTheRestIsRead() throws {
        let (lines, bytes) = try Samples.stream(events: Samples.events)
        let lastLength = lines.last!.encoded.count
        for cut in [1, 10, lastLength - 1] {
            let start = bytes.count - lastLength - 1
            let truncated = Array(bytes[..<(start + cut)])
            let reader = try EventStreamReader(bytes: truncated, name: "killed.jsonl")
            #expect(try reader.readAll().map(\.line) == Array(lines.dropLast()))
            let notice = try #require(reader.truncation)
            #expect(notice.position == StreamPosition(offset: start, line: lines.count))
            #expect(notice.length == cut)
            #expect(notice.description.hasPrefix("killed.jsonl:\(lines.count): notice: the last line is incomplete"))
        }
        // A last line that is complete but has no line break is simply the last line.
        let reader = try EventStreamReader(bytes: Array(bytes.dropLast()), name: "no-newline")
        #expect(try reader.readAll().map(\.line) == lines)
        #expect(reader.truncation == nil)
    }

    @Test func aMissingFileIsNamed() {
        let path = "/nonexistent/opscope/run.jsonl"
        #expect(throws: EventStreamError(source: path, kind: .missingFile)) { try EventStreamReader(path: path) }
        #expect(EventStreamError(source: path, kind: .missingFile).description == "\(path): no such file")
    }

    @Test func aDirectoryIsUnreadable() throws {
        do {
            _ = try EventStreamReader(path: NSTemporaryDirectory())
            Issue.record("read a directory")
        } catch {
            guard case .unreadable = error.kind else { Issue.record("\(error)"); return }
            #expect(error.description.hasPrefix(NSTemporaryDirectory() + ":1: cannot read: "))
        }
    }

    @Test(arguments: ["", "\n", "  \n\n\r\n"])
    func anEmptyFileIsNamed(text: String) throws {
        try Samples.withTemporaryFile(text.bytes) { path in
            #expect(throws: EventStreamError(source: path, kind: .empty)) { try EventStreamReader(path: path) }
        }
    }

    @Test(arguments: [
        ("time,queue,operation\n1,2,3\n", "the first line is not a header: not valid JSON"),
        ("\u{89}PNG\r\n\u{1A}\n", "the first line is not a header: not valid JSON"),
        (#"{"name":"report","operations":[]}"# + "\n", #"the first line is not a header: the line has no "kind""#),
        (#"{"kind":"header","version":1}"# + "\n", #"has no "format": "opscope-events""#),
        (#"{"kind":"header","format":"chrome-trace","version":1}"# + "\n", #"its format is "chrome-trace""#),
        (#"{"kind":"event","sequence":0,"time":1,"origin":"exact","change":"started","operation":1}"# + "\n",
         #"the first line is "event", not the header"#),
    ])
    func aForeignFileIsNotAnOpScopeStream(text: String, reason: String) throws {
        do {
            _ = try EventStreamReader(bytes: text.bytes, name: "foreign.txt")
            Issue.record("accepted \(text)")
        } catch {
            guard case .notAnOpScopeStream(let message) = error.kind else { Issue.record("\(error)"); return }
            #expect(message.contains(reason), "\(message)")
            #expect(error.line == 1)
            #expect(error.description.hasPrefix("foreign.txt:1: not an OpScope event stream: "))
        }
    }

    @Test func aNewerVersionIsRefusedWhateverElseChanged() throws {
        let text = #"{"kind":"header","format":"opscope-events","version":2,"program":{"name":"x"},"startedAt":5}"# + "\n"
        #expect(throws: EventStreamError(source: "new.jsonl", line: 1, offset: 0, kind: .newerVersion(2))) {
            try EventStreamReader(bytes: text.bytes, name: "new.jsonl")
        }
        let error = EventStreamError(source: "new.jsonl", line: 1, kind: .newerVersion(2))
        #expect(error.description == "new.jsonl:1: written in format version 2, but this OpScope reads versions up to 1: "
            + "a newer OpScope is needed to read it")
    }

    @Test func aCorruptHeaderSaysWhatIsWrong() throws {
        let text = #"{"kind":"header","format":"opscope-events","version":1,"program":"x","processID":1,"#
            + #""startedAt":"yesterday","startMonitorTime":0}"#
        do {
            _ = try EventStreamReader(bytes: text.bytes, name: "h.jsonl")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(#"h.jsonl:1: corrupt line: header: "startedAt" is not a UTC time"#))
        }
    }

    @Test func aCorruptLineNamesTheFileAndLine() throws {
        let (lines, bytes) = try Samples.stream(events: Samples.events)
        var text = bytes.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        text[5] = text[5].replacingOccurrences(of: #""time":"#, with: #""time":-"#)
        try Samples.withTemporaryFile(text.joined(separator: "\n").bytes) { path in
            let reader = try EventStreamReader(path: path)
            for _ in 0 ..< 5 { #expect(try reader.next() != nil) }
            do {
                _ = try reader.next()
                Issue.record("read a corrupt line")
            } catch let error as EventStreamError {
                #expect(error.line == 6)
                #expect(error.offset == lines.prefix(5).map { $0.encoded.count + 1 }.reduce(0, +))
                #expect(error.description == #"\#(path):6: corrupt line: "time" must not be negative"#)
            }
        }
    }

    @Test func aSecondHeaderIsCorrupt() throws {
        let bytes = Samples.fileBytes([.header(Samples.header), .event(Samples.events[0]), .header(Samples.header)])
        let reader = try EventStreamReader(bytes: bytes, name: "joined.jsonl")
        _ = try reader.next()
        _ = try reader.next()
        #expect(throws: EventStreamError(source: "joined.jsonl", line: 3, offset: bytes.count - Samples.fileBytes([.header(Samples.header)]).count,
                                         kind: .corruptLine("a second header (two streams joined together?)"))) {
            try reader.next()
        }
    }

    @Test func aLineOverTheLimitIsAnErrorBeforeItIsReadWhole() throws {
        var bytes = Samples.fileBytes([.header(Samples.header)])
        bytes += Array(repeating: UInt8(ascii: "x"), count: 10_000)
        try Samples.withTemporaryFile(bytes) { path in
            let reader = try EventStreamReader(path: path, maximumLineLength: 1000, chunkSize: 100)
            _ = try reader.next()
            #expect(throws: EventStreamError(source: path, line: 2, offset: bytes.count - 10_000, kind: .lineTooLong(limit: 1000))) {
                try reader.next()
            }
        }
    }
}
