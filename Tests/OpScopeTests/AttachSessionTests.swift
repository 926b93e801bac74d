import Foundation
import OpScope
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An attached dashboard (a session on a `RemoteSource`, on the test terminal) over a real
/// agent in this process: what it shows when the program goes away, and when another program
/// comes to the same socket. The loop runs as `opscope attach` runs it, without a key pressed;
/// each wait ends on what the screen shows (the deadline only bounds a stuck test).
@Suite("Attached session: the program's end and another program at its socket", .serialized, .timeLimit(.minutes(2)))
struct AttachSessionTests {
    /// A private directory for the socket (short: socket paths are limited to 107 bytes).
    final class SocketFolder {
        let path: String
        init() {
            var template = Array("/tmp/opscope-attach-session-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// An agent named `program` serving a monitor with one queue named `queue` at `path`.
    private func serve(_ program: String, queue name: String, at path: String,
                       readOnly: Bool = false) throws -> (AgentServer, ObservedOperationQueue) {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: name)
        queue.isSuspended = true
        queue.addOperation(BlockOperation {})
        var configuration = AgentConfiguration()
        configuration.socketPath = path
        configuration.program = program
        configuration.removeAtExit = false
        configuration.readOnly = readOnly
        return (try AgentServer.start(monitor, configuration: configuration), queue)
    }

    /// Turns of the session's loop until the screen satisfies `condition`.
    private func run(_ session: inout Session, on terminal: TestTerminal, until condition: (TestTerminal) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            _ = session.step(on: terminal)
            if condition(terminal) { return true }
            terminal.waitForInput(seconds: session.idleWait)
            usleep(1_000)
        }
        return false
    }

    /// A session as `opscope attach` makes it: its title follows the program at the socket.
    private func attachedSession(_ remote: RemoteSource) -> Session {
        var options = SessionOptions()
        options.sourceCaption = RemoteSource.caption
        return Session(source: remote, options: options)
    }

    private func lines(_ terminal: TestTerminal) -> [Substring] { terminal.text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The status line: the row above the key bar.
    private func statusLine(_ terminal: TestTerminal) -> String {
        let rows = lines(terminal)
        return rows.count >= 2 ? String(rows[rows.count - 2]) : ""
    }

    private func title(_ terminal: TestTerminal) -> String { lines(terminal).first.map(String.init) ?? "" }

    @Test("80 columns: the program's end shows in the status line at once; another program at the socket is named in the title")
    func exitThenAnotherProgram() throws {
        let folder = SocketFolder()
        let path = folder.path + "/agent.sock"
        let pid = getpid()
        var (agent, firstQueue) = try serve("first-program", queue: "alpha-q", at: path)
        let remote = try RemoteSource(path: path, reconnects: true)
        defer { remote.close() }
        var options = SessionOptions()
        options.sourceCaption = RemoteSource.caption
        // 80 columns: too narrow for the title to hold the caption, the source's status and the
        // warnings together (the title drops the status first).
        let terminal = TestTerminal(width: 80, height: 30)
        var session = Session(source: remote, options: options)
        #expect(run(&session, on: terminal) { title($0).contains("attached to first-program (pid \(pid))") && $0.text.contains("alpha-q") },
                "\(terminal.text)")

        agent.stop()
        // No key pressed: the reader saw the connection end, the session redrew.
        #expect(run(&session, on: terminal) { statusLine($0).contains("program exited — last state kept, reconnecting…") },
                "\(terminal.text)")
        #expect(terminal.text.contains("alpha-q"), "the last state is kept")
        _ = firstQueue

        let second: ObservedOperationQueue
        (agent, second) = try serve("second-program", queue: "beta-q", at: path)
        defer { agent.stop() }
        // The title and the status line change in the same frame, as soon as the source names
        // the new program; its queues follow with its keyframe.
        #expect(run(&session, on: terminal) { screen in
            title(screen).contains("attached to second-program (pid \(pid))")
        }, "\(terminal.text)")
        // (80 columns cut the line after the old program's name when the pid is long.)
        #expect(statusLine(terminal).contains("a different program now: second-program (pid \(pid)), was first-program"),
                "\(terminal.text)")
        #expect(run(&session, on: terminal) { $0.text.contains("beta-q") }, "\(terminal.text)")
        #expect(!title(terminal).contains("first-program"), "the title no longer names the first program:\n\(terminal.text)")
        #expect(!terminal.text.contains("program exited"))
        _ = second
    }

    @Test("a program's own socket (PID.sock) gone: reconnecting says a restarted program is at a new socket and what to do")
    func processSocketHint() throws {
        let folder = SocketFolder()
        let path = folder.path + "/4242.sock"
        var (agent, queue) = try serve("served-program", queue: "alpha-q", at: path)
        let remote = try RemoteSource(path: path, reconnects: true)
        defer { remote.close() }
        let terminal = TestTerminal(width: 120, height: 40)
        var session = attachedSession(remote)
        #expect(run(&session, on: terminal) { $0.text.contains("alpha-q") }, "\(terminal.text)")
        agent.stop()
        #expect(run(&session, on: terminal) { $0.text.contains("started again, it serves at a new socket: q, then opscope attach") },
                "\(terminal.text)")
        _ = queue
        // A path of the program's choosing (--socket) is where it comes back: no such hint.
        let chosen = folder.path + "/agent.sock"
        (agent, _) = try serve("served-program", queue: "beta-q", at: chosen)
        let other = try RemoteSource(path: chosen, reconnects: true)
        defer { other.close() }
        var second = attachedSession(other)
        let screen = TestTerminal(width: 120, height: 40)
        #expect(run(&second, on: screen) { $0.text.contains("beta-q") }, "\(screen.text)")
        agent.stop()
        #expect(run(&second, on: screen) { $0.text.contains("reconnecting…") }, "\(screen.text)")
        #expect(!screen.text.contains("new socket"), "\(screen.text)")
    }

    @Test("a program's own socket in the directory gone: the program started again is attached to, and the status line says so")
    func programStartedAgain() throws {
        let folder = SocketFolder()
        let directory = SocketDirectory(path: folder.path)
        /// An agent standing in for process `pid` started at `startedAt`, at its own socket.
        func serve(_ program: String, pid: Int32, startedAt: String, queue name: String) throws -> (AgentServer, ObservedOperationQueue) {
            let monitor = OperationMonitor()
            let queue = ObservedOperationQueue(monitor: monitor, name: name)
            queue.isSuspended = true
            queue.addOperation(BlockOperation {})
            var configuration = AgentConfiguration()
            configuration.socketPath = directory.socketPath(for: pid)
            configuration.program = program
            configuration.removeAtExit = false
            configuration.processIdentity = (pid, startedAt)
            return (try AgentServer.start(monitor, configuration: configuration), queue)
        }
        let (first, firstQueue) = try serve("restarting", pid: 4001, startedAt: "2030-01-01T10:00:00.000000000Z", queue: "alpha-q")
        let remote = try RemoteSource(path: directory.socketPath(for: 4001), reconnects: true, restartDirectory: directory)
        defer { remote.close() }
        let terminal = TestTerminal(width: 120, height: 30)
        var session = attachedSession(remote)
        #expect(run(&session, on: terminal) { title($0).contains("attached to restarting (pid 4001)") && $0.text.contains("alpha-q") },
                "\(terminal.text)")
        // Another program serves in the directory too: it is not the one started again.
        let (other, otherQueue) = try serve("bystander", pid: 4500, startedAt: "2030-01-01T11:00:00.000000000Z", queue: "other-q")
        defer { other.stop() }
        first.stop()
        #expect(run(&session, on: terminal) { statusLine($0).contains("reconnecting… (to restarting when it starts again)") },
                "\(terminal.text)")
        let (again, againQueue) = try serve("restarting", pid: 4002, startedAt: "2030-01-01T10:01:00.000000000Z", queue: "beta-q")
        defer { again.stop() }
        #expect(run(&session, on: terminal) { screen in
            title(screen).contains("attached to restarting (pid 4002)") && statusLine(screen).contains("program restarting restarted as pid 4002, attached again")
        }, "\(terminal.text)")
        #expect(run(&session, on: terminal) { $0.text.contains("beta-q") }, "\(terminal.text)")
        #expect(!terminal.text.contains("other-q") && !terminal.text.contains("bystander"), "\(terminal.text)")
        #expect(remote.path == directory.socketPath(for: 4002))
        _ = (firstQueue, otherQueue, againQueue)
    }

    @Test("--readonly: the console says read-only, refuses s, c and :max itself, and the program gets no command")
    func readOnlyConsole() throws {
        let folder = SocketFolder()
        let path = folder.path + "/agent.sock"
        let (agent, queue) = try serve("watched-program", queue: "alpha-q", at: path)
        defer { agent.stop() }
        let remote = try RemoteSource(path: path, reconnects: false, readOnly: true)
        defer { remote.close() }
        let terminal = TestTerminal(width: 120, height: 40)
        var session = attachedSession(remote)
        #expect(run(&session, on: terminal) { title($0).contains("attached to watched-program") && $0.text.contains("alpha-q") },
                "\(terminal.text)")
        #expect(title(terminal).contains(", read-only"), "\(title(terminal))")
        for keys in [[Key.character("s")], [Key.character("c")], [Key.character(":")] + "max 3".map { Key.character($0) } + [Key.enter]] {
            terminal.send(keys)
            #expect(run(&session, on: terminal) { statusLine($0).contains("read-only console") }, "\(keys): \(terminal.text)")
            terminal.send(.escape)
            _ = session.step(on: terminal)
        }
        if case .failure(let error) = remote.perform(.setSuspended(queue: QueueID(1), suspended: false)) {
            #expect(error.message == RemoteSource.readOnlyReason)
        } else {
            Issue.record("a read-only console sent a command")
        }
        #expect(queue.isSuspended, "the program's queue is as it was")
        #expect(agent.statistics.commandsPerformed == 0 && agent.statistics.commandsRefused == 0,
                "nothing reached the agent: \(agent.statistics)")
    }

    @Test("the source's status replaces an older message in the status line")
    func statusOutdatesMessages() throws {
        let folder = SocketFolder()
        let path = folder.path + "/agent.sock"
        var (agent, queue) = try serve("first-program", queue: "alpha-q", at: path)
        let remote = try RemoteSource(path: path, reconnects: true)
        defer { remote.close() }
        let terminal = TestTerminal(width: 120, height: 30)
        var session = attachedSession(remote)
        #expect(run(&session, on: terminal) { $0.text.contains("alpha-q") })
        agent.stop()
        #expect(run(&session, on: terminal) { statusLine($0).contains("program exited") })
        let replacement: ObservedOperationQueue
        (agent, replacement) = try serve("second-program", queue: "beta-q", at: path)
        #expect(run(&session, on: terminal) { statusLine($0).contains("a different program now") })
        // The second program ends while its message is still shown: the status line tells the end.
        agent.stop()
        #expect(run(&session, on: terminal) { statusLine($0).contains("program exited — last state kept, reconnecting…") },
                "\(terminal.text)")
        _ = (queue, replacement)
    }

    @Test("a read-only program replaced by one that takes commands: the keys send commands again")
    func refusalFollowsTheProgram() throws {
        let folder = SocketFolder()
        let path = folder.path + "/agent.sock"
        var (agent, queue) = try serve("watch-only", queue: "alpha-q", at: path, readOnly: true)
        let remote = try RemoteSource(path: path, reconnects: true)
        defer { remote.close() }
        let terminal = TestTerminal(width: 120, height: 30)
        var session = attachedSession(remote)
        #expect(run(&session, on: terminal) { $0.text.contains("alpha-q") })
        terminal.send([.character("s")])
        #expect(run(&session, on: terminal) { statusLine($0).contains("read-only") }, "\(terminal.text)")
        agent.stop()
        #expect(run(&session, on: terminal) { statusLine($0).contains("program exited") })
        let replacement: ObservedOperationQueue
        (agent, replacement) = try serve("commands-ok", queue: "beta-q", at: path)
        defer { agent.stop() }
        #expect(run(&session, on: terminal) { $0.text.contains("beta-q") && title($0).contains("commands-ok") }, "\(terminal.text)")
        // Select the new program's queue, then resume it with s: the command reaches it.
        #expect(replacement.isSuspended)
        terminal.send([.character("s")])
        #expect(run(&session, on: terminal) { _ in !replacement.isSuspended }, "\(terminal.text)")
        #expect(!statusLine(terminal).contains("read-only"), "\(terminal.text)")
        _ = queue
    }
}
