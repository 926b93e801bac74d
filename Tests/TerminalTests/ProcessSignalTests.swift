import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 17, the process: standard output going away under `opscope report` (SIGPIPE), and the
/// terminal closing (SIGHUP) while `opscope demo NAME --record FILE` writes its recording.
@Suite("Terminal: SIGPIPE and SIGHUP", .serialized, .timeLimit(.minutes(3)))
struct ProcessSignalTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-signals-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `opscope ARGUMENTS | READER` in sh; returns opscope's exit status (as sh reports it),
    /// what it wrote to standard error, and what the reader printed.
    private func piped(_ arguments: String, into reader: String) -> (status: Int32?, errors: String, output: String) {
        let errors = directory + "/errors-\(UUID().uuidString.prefix(6))"
        let status = errors + ".status"
        let script = "(\"$0\" \(arguments) 2>\(errors); echo $? >\(status)) | \(reader)"
        let result = ChildProcess.run(["sh", "-c", script, Tmux.opscope], timeout: 60)
        let code = (try? String(contentsOfFile: status, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (code, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "", result.output)
    }

    @Test("standard output closed before the report is written: no crash report, no error text, ended by SIGPIPE or at once",
          arguments: [
              // The reader is gone before the report is printed (it prints after a second).
              ("report stuck --after 1 --format json", "true"),
              ("report stuck --after 1", "true"),
              ("report pipeline --after 1 --format dot", "true"),
              // A reader that takes ten bytes of a long output and leaves.
              ("report tour --after 1 --format json", "head -c 10"),
          ])
    func brokenPipe(arguments: String, reader: String) {
        let result = piped(arguments, into: reader)
        // 141 is 128 + SIGPIPE: the quiet end `yes | head` has; a crash would be SIGSEGV/SIGILL
        // (139, 132) with a backtrace on standard error.
        #expect(result.status == 141 || result.status == 0 || result.status == 1, "exit status \(String(describing: result.status))")
        #expect(!result.errors.contains("Fatal error") && !result.errors.contains("Crash") && !result.errors.contains("Backtrace")
                && !result.errors.contains("💣"), "standard error: \(result.errors.prefix(600))")
        if reader.hasPrefix("head") { #expect(result.output.utf8.count == 10, "\(result.output)") }
    }

    @Test("the terminal closes (SIGHUP) while a demo records: the recording reads to its last complete line")
    func hangUpWhileRecording() throws {
        let file = directory + "/hangup.jsonl"
        let tmux = Tmux("\(Tmux.opscope) demo pipeline --record \(file)")
        tmux.wait(for: "the dashboard") { $0.contains("q3 ui") && $0.contains("done") }
        // Events in the file: the recording is under way.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("\"change\":\"finished\"") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let pid = try #require(tmux.programPID(), "no program pid")
        // Closing the pane hangs up its terminal: the shell and the program get SIGHUP.
        Tmux.run(["tmux", "kill-session", "-t", tmux.name])
        let gone = Date().addingTimeInterval(30)
        while kill(pid, 0) == 0, Date() < gone { Thread.sleep(forTimeInterval: 0.05) }
        #expect(kill(pid, 0) != 0, "opscope still runs 30 s after its terminal closed")

        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("{\"kind\":\"header\""))
        let report = ChildProcess.run(["sh", "-c", "\"$0\" report \"$1\" --json 2>&1; echo \"EXIT=$?\"", Tmux.opscope, file], timeout: 60)
        #expect(report.output.contains("\"operations\""), "\(report.output.prefix(400))")
        #expect(report.output.contains("EXIT=0") || report.output.contains("EXIT=1"), "\(report.output.suffix(300))")
        // Whole lines only, but perhaps the last: a cut one is a notice, never an error.
        #expect(!report.output.contains("corrupt line"), "\(report.output.prefix(400))")
        // The dashboard and the recorder read the same monitor, each from its own subscription:
        // neither may take events from the other (with the monitor's first, shared buffer the
        // recorder lost most of them).
        if let end = text.split(separator: "\n").last(where: { $0.hasPrefix("{\"kind\":\"end\"") }),
           let range = end.range(of: "\"dropped\":[0-9]+", options: .regularExpression) {
            #expect(Int(end[range].dropFirst(10)) == 0, "the recording lost events: \(end)")
        }
    }
}
