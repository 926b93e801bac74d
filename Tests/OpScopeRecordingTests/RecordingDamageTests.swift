import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// Damage that leaves every line well formed (tried as a new user would, with sed on a real
/// recording): never silent. Each finding is a notice naming its line, skipped numbers count as
/// events dropped, and every event after the damage is still applied, by the report and the
/// replay alike.
@Suite("Recording: damaged lines are read on, each with a notice naming the line")
struct RecordingDamageTests {
    /// A good recording's lines, as text.
    private func goodLines() throws -> [String] {
        let directory = TemporaryDirectory()
        let path = directory.path("good.jsonl")
        try record(ScriptedSource(longScript(count: 30)), to: path)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func read(_ lines: [String]) throws -> Recording {
        try Recording.read(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), name: "run.jsonl")
    }

    /// The index of an event line in the middle, and its sequence number.
    private func middleEvent(_ lines: [String]) throws -> (index: Int, sequence: UInt64) {
        let events = lines.indices.filter { lines[$0].contains("\"kind\":\"event\"") }
        let index = events[events.count / 2]
        let match = try #require(lines[index].firstMatch(of: /"sequence":(\d+)/))
        return (index, try #require(UInt64(match.1)))
    }

    @Test("a good recording has no notice")
    func good() throws {
        let recording = try read(try goodLines())
        #expect(recording.notices.isEmpty && recording.noticeCount == 0 && recording.endMissing == nil)
        #expect(recording.droppedEvents == 0)
    }

    @Test("a sequence number that jumps: the numbers skipped are dropped, and every event after it is applied, in the report and the replay")
    func sequenceJump() throws {
        let lines = try goodLines()
        let good = try read(lines)
        var damaged = lines
        let (index, sequence) = try middleEvent(lines)
        damaged[index] = damaged[index].replacingOccurrences(of: "\"sequence\":\(sequence),", with: "\"sequence\":\(sequence + 150),")
        let recording = try read(damaged)
        #expect(recording.eventCount == good.eventCount)
        #expect(recording.droppedEvents == 150)
        #expect(recording.notices.map(\.line) == [index + 1, index + 2])
        #expect(recording.notices.first?.description.hasPrefix(
            "run.jsonl:\(index + 1): notice: sequence number \(sequence + 150) where \(sequence) was expected, and no dropped marker says why: 150 events missing") == true,
                "\(recording.notices)")
        #expect(recording.notices.last?.message.contains("goes back") == true, "\(recording.notices)")
        // Every operation is there, at the end and at every position the replay shows.
        #expect(recording.finalModel.report().operations == good.finalModel.report().operations)
        for position in stride(from: 0, through: recording.eventCount, by: 7) {
            #expect(try recording.state(at: position).operations.count == good.state(at: position).operations.count, "at \(position)")
        }
        // The loss shows from the damaged line on, in the replay's states too.
        let gapPosition = try #require(lines[..<index].filter { $0.contains("\"kind\":\"event\"") }.count as Int?)
        #expect(try recording.state(at: gapPosition).counters.eventsLost == 150)
        #expect(try recording.state(at: gapPosition + 3).counters.eventsLost == 150)
        #expect(try recording.state(at: gapPosition - 1).counters.eventsLost == 0)
        // The replay's events continue the states it starts from.
        let start = try recording.state(at: gapPosition - 2)
        let sequences = try recording.events(gapPosition - 2..<gapPosition + 4).map(\.sequence)
        #expect(sequences == Array(start.nextSequence..<start.nextSequence + 6))
    }

    @Test("a missing line: one event dropped, named at the line after the hole")
    func missingLine() throws {
        var lines = try goodLines()
        let good = try read(lines)
        let (index, sequence) = try middleEvent(lines)
        lines.remove(at: index)
        let recording = try read(lines)
        #expect(recording.eventCount == good.eventCount - 1)
        #expect(recording.droppedEvents == 1)
        #expect(recording.notices.map(\.description) == [
            "run.jsonl:\(index + 1): notice: sequence number \(sequence + 1) where \(sequence) was expected, and no dropped marker says why: "
                + "1 event missing; counted as dropped, and the lines after it are read on",
        ])
        #expect(recording.finalModel.report().droppedEvents == 1)
    }

    @Test("a line repeated: ignored, with a notice; the replay skips it too")
    func repeatedLine() throws {
        var lines = try goodLines()
        let good = try read(lines)
        let (index, sequence) = try middleEvent(lines)
        lines.insert(lines[index], at: index + 1)
        let recording = try read(lines)
        #expect(recording.eventCount == good.eventCount)
        #expect(recording.droppedEvents == 0)
        #expect(recording.notices.map(\.description) == ["run.jsonl:\(index + 2): notice: repeats the line before it (sequence number \(sequence)); ignored"])
        #expect(recording.finalModel.report() == good.finalModel.report())
        let all = try recording.events(0..<recording.eventCount)
        #expect(all == (try good.events(0..<good.eventCount)))
    }

    @Test("a time far back: a notice; a little back (threads stamp before the order is settled) is not one")
    func timeBack() throws {
        var lines = try goodLines()
        let (index, _) = try middleEvent(lines)
        lines[index] = lines[index].replacing(/"time":\d+/, with: "\"time\":1000")
        let recording = try read(lines)
        #expect(recording.notices.count == 1)
        #expect(recording.notices.first?.line == index + 1)
        #expect(recording.notices.first?.message.hasPrefix("its time goes back") == true, "\(recording.notices)")

        var slightly = try goodLines()
        let previous = try #require(slightly[index - 1].firstMatch(of: /"time":(\d+)/))
        let earlier = try #require(UInt64(previous.1)) - 64_000
        slightly[index] = slightly[index].replacing(/"time":\d+/, with: "\"time\":\(earlier)")
        #expect(try read(slightly).notices.isEmpty)
    }

    @Test("no end line: a notice naming the last line; a last line cut short has its own notice instead")
    func noEndLine() throws {
        var lines = try goodLines()
        #expect(lines.last?.contains("\"kind\":\"end\"") == true)
        lines.removeLast()
        let recording = try read(lines)
        #expect(recording.end == nil && recording.truncation == nil)
        #expect(recording.endMissing?.description == "run.jsonl:\(lines.count): notice: the recording stops after this line without its end line: "
            + "the program or its recorder stopped before it finished writing; everything up to here is used")
        let cut = lines.dropLast().joined(separator: "\n") + "\n" + String(lines[lines.count - 1].prefix(20))
        let truncated = try Recording.read(bytes: Array(cut.utf8), name: "run.jsonl")
        #expect(truncated.truncation != nil && truncated.endMissing == nil)
    }
}
