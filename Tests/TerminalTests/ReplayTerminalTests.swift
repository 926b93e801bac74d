import Foundation
import OpScopeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Recording and replaying with the real program: `opscope record`, `opscope demo --record`,
/// `opscope replay` in tmux with its timeline bar, `report` and `export` from a file, bad
/// files, a recorder killed with SIGKILL, a full disk. Waits poll the screen or the file with
/// generous bounds; nothing sleeps a fixed time.
@Suite("Terminal: record and replay", .serialized, .timeLimit(.minutes(3)))
struct ReplayTerminalTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-replay-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `opscope ARGUMENTS`; returns what it wrote to both outputs and its exit status.
    private func opscope(_ arguments: String, timeout: Double = 60) -> (output: String, status: Int32?) {
        let result = ChildProcess.run(["sh", "-c", "\"$0\" \(arguments) 2>&1; echo \"EXIT=$?\"", Tmux.opscope], timeout: timeout)
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        guard let last = lines.last, last.hasPrefix("EXIT=") else { return (result.output, nil) }
        return (lines.dropLast().joined(separator: "\n"), Int32(last.dropFirst(5)))
    }

    /// Waits (polling, bounded) until `condition` holds.
    private func wait(seconds: Double = 30, for description: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(description)", sourceLocation: sourceLocation)
    }

    @Test("record a demo headless, replay it in tmux: the timeline bar, ] . , :seek, play to the end, view 5, refused commands")
    func recordAndReplay() throws {
        let file = directory + "/pipeline.jsonl"
        let recorded = opscope("record pipeline \(file) --for 3")
        #expect(recorded.status == 0, "\(recorded.output)")
        #expect(recorded.output.contains("recorded ") && recorded.output.contains("opscope replay \(file)"))
        let tmux = Tmux("\(Tmux.opscope) replay \(file) --paused")
        tmux.wait(for: "the replay, paused at the start") { $0.contains("❚❚ 0.0 s / ") && $0.contains("replay of pipeline") }
        tmux.send("]")
        tmux.wait(for: "a second on") { $0.contains("❚❚ 1.0 s / ") && $0.contains("q1 net") }
        tmux.send(".")
        tmux.wait(for: "one event on") { $0.contains("forward one event") }
        tmux.send(",")
        tmux.wait(for: "one event back") { $0.contains("back one event") }
        tmux.send(":", "seek 2.5s", "Enter")
        tmux.wait(for: "the seek") { $0.contains("❚❚ 2.5 s / ") }
        tmux.send("5")
        tmux.wait(for: "the timeline view") { $0.contains("5 timeline") && $0.contains("▲ 2.5 s") && $0.contains("q1 net") }
        tmux.send("p")
        tmux.wait(for: "the end of the recording") { screen in
            // Paused again, at the end: position and duration read the same.
            guard let line = screen.split(separator: "\n").first(where: { $0.contains("❚❚ ") && $0.contains(" s / ") }) else { return false }
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            return numbers.count >= 2 && numbers[0] == numbers[1] && numbers[0] >= 2.9
        }
        tmux.send("1", "s")
        tmux.wait(for: "a refused command") { $0.contains("a recording takes no commands") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test("a recording with a line missing replays on: ? names the damaged line, and the events dropped show once played past it")
    func damagedReplay() throws {
        let file = directory + "/pipeline.jsonl"
        let recorded = opscope("record pipeline \(file) --for 1")
        #expect(recorded.status == 0, "\(recorded.output)")
        let damaged = directory + "/damaged.jsonl"
        let index = try RecordingDamage.removeMiddleEvent(of: file, writingTo: damaged).index
        let tmux = Tmux("\(Tmux.opscope) replay \(damaged) --paused")
        tmux.wait(for: "the replay, paused at the start") { $0.contains("❚❚ 0.0 s / ") && $0.contains("replay of pipeline") }
        #expect(!tmux.screen().contains("events dropped"))
        tmux.send("?")
        tmux.wait(for: "the caption naming the line") { $0.contains("line \(index + 1): sequence number") }
        tmux.send("Escape", "p")
        tmux.wait(for: "the loss, once played past it") { $0.contains("1 events dropped") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test("opscope demo NAME --record FILE: the dashboard runs as usual; on quit the file is whole and replays")
    func demoRecord() {
        let file = directory + "/demo.jsonl"
        let tmux = Tmux("\(Tmux.opscope) demo pipeline --record \(file)")
        tmux.wait(for: "the dashboard") { $0.contains("q3 ui") && $0.contains("done") }
        wait(for: "events in the file") { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("\"change\":\"finished\"") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0") && after.contains("recorded ") && after.contains("events to \(file)"), "\(after)")
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        #expect(text.hasPrefix("{\"kind\":\"header\""))
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").last?.contains("\"kind\":\"end\"") == true)
        let report = opscope("report \(file) --json")
        #expect(report.output.contains("\"queues\""), "\(report.output)")
    }

    @Test("report and export from a file: the JSON report, the Perfetto trace parses and holds the runs, the graph as DOT and Mermaid")
    func reportAndExport() throws {
        let file = directory + "/stuck.jsonl"
        #expect(opscope("record stuck \(file) --for 2").status == 0)
        let report = opscope("report \(file) --json")
        #expect(report.status == 1, "stuck has problems: exit 1 as for the demo")
        let json = try JSONSerialization.jsonObject(with: Data(report.output.utf8)) as? [String: Any]
        #expect((json?["cycles"] as? [Any])?.isEmpty == false)
        let trace = directory + "/stuck.trace.json"
        let exported = opscope("export \(file) --format perfetto --output \(trace)")
        #expect(exported.status == 0 && exported.output.contains("operation runs"), "\(exported.output)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as? [String: Any]
        let events = object?["traceEvents"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["ph"] as? String == "X" })
        let atStart = opscope("export \(file) --format json --at 0")
        #expect(atStart.status == 0 && atStart.output.contains("\"operations\""))
        let dot = opscope("export \(file) --format dot --at 1.5")
        #expect(dot.status == 0 && dot.output.contains("digraph opscope {"), "\(dot.output.prefix(300))")
        let mermaid = opscope("export \(file) --format mermaid")
        #expect(mermaid.status == 0 && mermaid.output.contains("flowchart"), "\(mermaid.output.prefix(300))")
    }

    @Test("bad files: one line naming the file (and the line), exit status 2; a cut last line is a notice", arguments: [
        ("missing", nil as String?, "no such file"),
        ("empty", "", "empty (an OpScope event stream starts with a header line)"),
        ("foreign", "{\"queues\":[]}\n", ":1: not an OpScope event stream"),
        ("newer", "{\"kind\":\"header\",\"format\":\"opscope-events\",\"version\":9}\n", ":1: written in format version 9"),
        ("corrupt", nil, ":3: corrupt line"),
    ])
    func badFiles(name: String, contents: String?, message: String) throws {
        let file = directory + "/\(name).jsonl"
        if let contents {
            try contents.write(toFile: file, atomically: true, encoding: .utf8)
        } else if name == "corrupt" {
            #expect(opscope("record pipeline \(file) --for 0.5").status == 0)
            var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            lines[2] = String(lines[2].dropLast(5))
            try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        for command in ["report \(file)", "replay \(file)", "export \(file) --format perfetto"] {
            let result = opscope(command)
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.output.split(separator: "\n").count == 1 && result.output.hasPrefix("opscope: \(file)")
                    && result.output.contains(message), "\(command): \(result.output)")
        }
    }

    @Test("a recorder killed with SIGKILL leaves a file readable to its last complete line")
    func killed() throws {
        let file = directory + "/killed.jsonl"
        let started = ChildProcess.run(["sh", "-c", "\"$0\" record tour \(file) --for 120 >/dev/null 2>&1 & echo $!", Tmux.opscope],
                                       timeout: 10)
        let pid = try #require(Int32(started.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        // Wait until finished operations are in the file, then kill it without warning.
        wait(for: "events in the file") {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").components(separatedBy: "\"change\":\"finished\"").count > 5
        }
        #expect(kill(pid, SIGKILL) == 0)
        wait(for: "the recorder to die") { kill(pid, 0) != 0 }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("\"kind\":\"end\""), "killed: no end line")
        let report = opscope("report \(file) --json")
        #expect(report.status == 0 || report.status == 1, "\(report.output.prefix(300))")
        #expect(report.output.contains("\"operations\""))
        // Whatever the last line is, cut or whole, the file reads up to it.
        var cut = Array(text.utf8)
        if let last = cut.lastIndex(of: 0x0A), last > 10 { cut = Array(cut[..<(last - 7)]) }
        try Data(cut).write(to: URL(fileURLWithPath: file + ".cut"))
        let notice = opscope("report \(file).cut --json")
        #expect(notice.output.contains("notice: the last line is incomplete"), "\(notice.output.prefix(300))")
        #expect(notice.status == 0 || notice.status == 1)
    }

    @Test("a full disk: the recording stops with one message on standard error; the demo runs its time; exit 1")
    func fullDisk() {
        let result = opscope("record pipeline /dev/full --for 0.5")
        #expect(result.status == 1)
        #expect(result.output == "opscope: /dev/full: recording stopped: No space left on device (the program goes on; nothing was recorded)",
                "\(result.output)")
    }
}
