import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Recording: bad files are refused in one line naming the file and the line")
struct RecordingBadInputTests {
    /// A good recording's lines, as text.
    private func goodLines() throws -> [String] {
        let directory = TemporaryDirectory()
        let path = directory.path("good.jsonl")
        try record(ScriptedSource(pipelineScript()), to: path)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func open(_ text: String, name: String = "run.jsonl") -> Result<Recording, EventStreamError> {
        Result { () throws(EventStreamError) in try Recording.read(bytes: Array(text.utf8), name: name) }
    }

    private func message(_ text: String) -> String? {
        if case .failure(let error) = open(text) { return error.description }
        return nil
    }

    @Test("missing and empty files")
    func missingAndEmpty() {
        do {
            _ = try Recording.open(path: "/nonexistent/run.jsonl")
            Issue.record("opened")
        } catch {
            #expect(error.description == "/nonexistent/run.jsonl: no such file")
        }
        #expect(message("") == "run.jsonl: empty (an OpScope event stream starts with a header line)")
        #expect(message("\n\n  \n") == "run.jsonl: empty (an OpScope event stream starts with a header line)")
    }

    @Test("wrong kind: a JSON report, plain text, binary bytes")
    func wrongKind() {
        let report = message(#"{"queues":[],"operations":[],"time":12}"#)
        #expect(report?.hasPrefix("run.jsonl:1: not an OpScope event stream") == true, "\(report ?? "")")
        let text = message("hello world\n")
        #expect(text?.hasPrefix("run.jsonl:1: not an OpScope event stream") == true, "\(text ?? "")")
        let binary = Result { () throws(EventStreamError) in
            try Recording.read(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], name: "image.png")
        }
        if case .failure(let error) = binary {
            #expect(error.description.hasPrefix("image.png:1: not an OpScope event stream"), "\(error)")
        } else {
            Issue.record("a PNG was read as a recording")
        }
    }

    @Test("a newer format version names both versions")
    func newerVersion() throws {
        var lines = try goodLines()
        lines[0] = lines[0].replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        #expect(message(lines.joined(separator: "\n") + "\n")
            == "run.jsonl:1: written in format version 2, but this OpScope reads versions up to 1: a newer OpScope is needed to read it")
    }

    @Test("a corrupt line in the middle: its number and what is wrong")
    func corruptLine() throws {
        var lines = try goodLines()
        lines[5] = String(lines[5].prefix(lines[5].count / 2))
        let text = message(lines.joined(separator: "\n") + "\n")
        #expect(text?.hasPrefix("run.jsonl:6: corrupt line: ") == true, "\(text ?? "")")
    }

    @Test("a keyframe whose state does not decode: its line")
    func corruptKeyframe() throws {
        var lines = try goodLines()
        let index = try #require(lines.firstIndex { $0.contains("\"kind\":\"keyframe\"") })
        lines[index] = #"{"kind":"keyframe","sequence":0,"time":5,"state":{"queues":"none"}}"#
        let text = message(lines.joined(separator: "\n") + "\n")
        #expect(text?.hasPrefix("run.jsonl:\(index + 1): corrupt line: keyframe state does not decode") == true, "\(text ?? "")")
    }

    @Test("a last line cut short is tolerated with a notice; everything before it is read")
    func truncatedLastLine() throws {
        let lines = try goodLines()
        // Cut inside the last event line (the end line goes too): the writer was killed there.
        let events = lines.filter { $0.contains("\"kind\":\"event\"") }.count
        let kept = lines.dropLast(2).joined(separator: "\n") + "\n" + String(lines[lines.count - 2].prefix(20))
        let recording = try Recording.read(bytes: Array(kept.utf8), name: "cut.jsonl")
        #expect(recording.eventCount == events - 1)
        #expect(recording.end == nil)
        let notice = try #require(recording.truncation)
        #expect(notice.description.hasPrefix("cut.jsonl:\(lines.count - 1): notice: the last line is incomplete"), "\(notice)")
    }

    @Test("a second header (two files joined) is a corrupt line")
    func joined() throws {
        let lines = try goodLines()
        let text = message((lines + lines).joined(separator: "\n") + "\n")
        #expect(text == "run.jsonl:\(lines.count + 1): corrupt line: a second header (two streams joined together?)")
    }
}
