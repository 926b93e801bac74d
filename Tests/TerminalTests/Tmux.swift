import Foundation
import Testing

/// A tmux session running a command in a pane of a given size, for tests that look at the real
/// program in a real terminal.
final class Tmux {
    let name: String
    /// Set once a wait timed out: later waits give up at once instead of adding their timeouts.
    private(set) var failed = false

    /// Runs a command and returns its standard output (and whether it exited with 0).
    /// Gives up (and kills the command) after `timeout` seconds; see `ChildProcess`.
    @discardableResult
    static func run(_ arguments: [String], timeout: Double = 30) -> (output: String, ok: Bool) {
        let arguments = arguments.first == "tmux" ? ["tmux", "-L", socket] + arguments.dropFirst() : arguments
        let result = ChildProcess.run(arguments, timeout: timeout)
        if result.timedOut { Issue.record("\(arguments.joined(separator: " ")) did not finish in \(timeout) s") }
        return (result.output, result.status == 0)
    }

    /// A tmux server of the tests' own, so that they neither use nor disturb the person's.
    static let socket = "opscope-tests-\(getpid())"

    /// The opscope binary built next to the test bundle.
    static var opscope: String {
        let directory = Bundle.main.bundleURL
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent(), runner, runner.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("opscope").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return directory.appendingPathComponent("opscope").path
    }

    /// Starts `command` in a new detached session of `width` × `height`. After the command
    /// ends, the pane prints `stty -a` and then its exit status, and stays open to be read.
    /// The status comes last so that a test waiting for `EXIT=` also has the terminal's modes
    /// on screen: printed the other way round, a busy machine let a test read the screen between
    /// the two and find no `icanon`.
    /// `term` is the TERM the command sees (tmux's own default is tmux-256color).
    init(_ command: String, width: Int = 120, height: Int = 40, term: String = "xterm-256color") {
        name = "opscope-test-\(UUID().uuidString.prefix(8))"
        let script = "TERM=\(term) \(command); status=$?; stty -a; echo EXIT=$status; sleep 120"
        // The server exits with its last session; a client that reaches it while it does (the
        // previous test just killed its session) gets no session, and the test would then read
        // an empty screen until its wait timed out. So the start is checked, and tried again.
        var attempts = 0
        while true {
            attempts += 1
            let start = ["sh", "-c", "tmux -L \(Tmux.socket) new-session -d -s \(name) -x \(width) -y \(height) "
                         + "sh -c \(Tmux.quoted(script)) 2>&1"]
            let output = Tmux.run(start).output.trimmingCharacters(in: .whitespacesAndNewlines)
            if Tmux.run(["tmux", "has-session", "-t", name]).ok { break }
            if attempts == 5 {
                Issue.record("tmux did not start session \(name) in \(attempts) attempts; last said: \(output)")
                break
            }
            // The exiting server needs a moment to go; the next start spawns a fresh one.
            print("tmux: session \(name) not started (attempt \(attempts)): \(output)")
            Thread.sleep(forTimeInterval: 0.05 * Double(attempts))
        }
        startAttempts = attempts
    }

    /// How many `new-session` calls the start took (1 unless the server was going away).
    private(set) var startAttempts = 0

    deinit { Tmux.run(["tmux", "kill-session", "-t", name]) }

    /// `text` as one single-quoted shell word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The visible screen.
    func screen() -> String { Tmux.run(["tmux", "capture-pane", "-p", "-t", name]).output }

    /// Sends keys (tmux key names, e.g. "j", "Enter", "C-c").
    func send(_ keys: String...) { Tmux.run(["tmux", "send-keys", "-t", name] + keys) }

    /// Sends `text` literally (`send-keys -l`): escape sequences reach the program as the
    /// terminal would send them, e.g. a mouse report.
    func sendLiteral(_ text: String) { Tmux.run(["tmux", "send-keys", "-t", name, "-l", text]) }

    /// A tmux format evaluated for the pane, e.g. `#{mouse_sgr_flag}`: the modes the program set.
    func paneFormat(_ format: String) -> String {
        Tmux.run(["tmux", "display-message", "-p", "-t", name, format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) {
        Tmux.run(["tmux", "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the pane's shell's child (the program under test).
    func programPID() -> Int32? {
        let shell = Tmux.run(["tmux", "display-message", "-p", "-t", name, "#{pane_pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = Tmux.run(["pgrep", "-P", shell]).output.split(separator: "\n").compactMap { Int32($0) }
        return children.first
    }

    /// The program's process state as `ps` reports it (T: stopped, S: sleeping, R: running, Z:
    /// exited), for a wait that timed out: a blank screen alone cannot tell a stopped program
    /// from one that never started drawing.
    func programState() -> String {
        guard let pid = programPID() else { return "not running" }
        return Tmux.run(["ps", "-o", "pid=,stat=,etime=,wchan=", "-p", "\(pid)"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition` (polling), returns the last screen.
    /// The default limit is generous on purpose: a wait ends as soon as the screen is right, so
    /// the limit only matters on a machine so busy that a debug binary takes seconds to start
    /// (15 s was once not enough to see the first dashboard while the machine compiled).
    @discardableResult
    func wait(seconds: Double = 45, for description: String, sourceLocation: SourceLocation = #_sourceLocation,
              _ condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(failed ? 0.5 : seconds)
        var last = ""
        while Date() < deadline {
            last = screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        if !failed {
            let session = Tmux.run(["tmux", "has-session", "-t", name]).ok ? "exists" : "missing"
            let state = "program: \(programState()); session \(session) (started in \(startAttempts) attempt(s))"
            Issue.record("timed out waiting for \(description); \(state); screen:\n\(last)", sourceLocation: sourceLocation)
        }
        failed = true
        return last
    }
}
