import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `opscope demo NAME --serve` in one terminal, `opscope attach` in others: the dashboard works
/// remotely, commands reach the demo's process, and the console survives the demo's end.
/// Each test uses a socket directory of its own (XDG_RUNTIME_DIR), so programs serving
/// elsewhere on the machine are not listed.
@Suite("Terminal: attach to a running program", .serialized, .timeLimit(.minutes(3)))
struct AttachTerminalTests {
    /// A runtime directory of the test's own, removed afterwards.
    final class Runtime {
        let path: String
        init() {
            var template = Array("/tmp/opscope-attach-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
        }
        /// `command` with this directory as its runtime directory.
        func run(_ command: String) -> String { "XDG_RUNTIME_DIR=\(path) \(command)" }
        var socketDirectory: String { path + "/opscope" }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// `opscope demo NAME --serve` in a pane of its own, once it serves; its pid.
        func serve(_ name: String) throws -> (Tmux, Int32) {
            let demo = Tmux(run("\(Tmux.opscope) demo \(name) --serve"))
            demo.wait(for: "the serving demo \(name)") { $0.contains("attach from another terminal: opscope attach") }
            let pid = try #require(demo.programPID(), "no pid for the demo \(name)")
            return (demo, pid)
        }

        /// Ends demos started by `serve` (SIGTERM) and waits for each to exit.
        static func stop(_ demos: [(Tmux, Int32)]) {
            for (demo, pid) in demos {
                Tmux.run(["kill", "-TERM", "\(pid)"])
                demo.wait(for: "the demo's exit") { $0.contains("EXIT=") }
            }
        }
    }

    private func expectSaneTerminal(_ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(words.contains("icanon") && words.contains("echo"), "terminal left raw:\n\(screen)", sourceLocation: sourceLocation)
    }

    @Test("demo stuck --serve, two consoles attach: the stuck graph; c cancels in the demo's process; killing the demo says program exited")
    func serveAttachCancelKill() throws {
        let runtime = Runtime()
        let demo = Tmux(runtime.run("\(Tmux.opscope) demo stuck --serve"))
        demo.wait(for: "the serving demo") { $0.contains("attach from another terminal: opscope attach") }
        guard let pid = demo.programPID() else {
            Issue.record("no demo pid")
            return
        }
        let socket = runtime.socketDirectory + "/\(pid).sock"
        #expect(FileManager.default.fileExists(atPath: socket))
        // The list without attaching.
        let listed = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) attach --list")])
        #expect(listed.ok && listed.output.contains("\(pid)") && listed.output.contains("stuck") && listed.output.contains("work, paused"),
                "\(listed.output)")
        // Exactly one program: attach without an argument.
        let console = Tmux(runtime.run("\(Tmux.opscope) attach"))
        console.wait(for: "the attached dashboard with the stuck graph") { screen in
            screen.contains("attached to stuck (pid \(pid))") && screen.contains("q2 paused") && screen.contains("SUSPENDED")
                && screen.contains("Graph around #1") && screen.contains("render-feed")
        }
        let second = Tmux(runtime.run("\(Tmux.opscope) attach \(pid)"))
        second.wait(for: "a second console") { $0.contains("attached to stuck (pid \(pid))") && $0.contains("q2 paused") }
        // Cancel #2 render-feed from the first console, after its confirmation.
        console.send("j")
        console.wait(for: "selection on #2") { $0.contains("Graph around #2") }
        console.send("c")
        console.wait(for: "the confirmation") { $0.contains("Cancel #2 render-feed? (y/n)") }
        console.send("y")
        console.wait(for: "the reply in the status line") { $0.contains("cancelled #2") }
        // The demo's process did it: its own pane says so. (That every console also sees every
        // event is the source's part, tested in AgentStreamTests on a source that keeps history
        // per subscriber: the monitor's interim subscription still shares one buffer among its
        // consumers.)
        demo.wait(for: "the demo's log of the command") { $0.contains("a console: cancelled #2") }
        // The demo's own report over its socket.
        let report = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) report --attach \(pid) --json")])
        #expect(report.output.contains("\"name\" : \"paused\""), "\(report.output)")
        // Kill the demo: the consoles say so and keep the last state.
        Tmux.run(["kill", "-TERM", "\(pid)"])
        demo.wait(for: "the demo's exit") { $0.contains("removed") && $0.contains("EXIT=0") }
        #expect(!FileManager.default.fileExists(atPath: socket))
        let gone = console.wait(for: "program exited, last state kept") { screen in
            screen.contains("program exited") && screen.contains("q2 paused") && screen.contains("render-feed")
        }
        // Attached by process id: the console waits for the program to be started again.
        #expect(gone.contains("reconnecting… (to stuck when it starts again)"), "\(gone)")
        second.wait(for: "program exited in the second console") { $0.contains("program exited") }
        console.send("q")
        let after = console.wait(for: "the console's exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(after.contains("EXIT=0"), "no crash:\n\(after)")
        expectSaneTerminal(after)
    }

    @Test("attach --readonly at 80x24: read-only in the title; c is refused by the console and the demo receives nothing")
    func readOnlyConsole() throws {
        let runtime = Runtime()
        let demo = Tmux(runtime.run("\(Tmux.opscope) demo stuck --serve"))
        demo.wait(for: "the serving demo") { $0.contains("attach from another terminal: opscope attach") }
        guard let pid = demo.programPID() else {
            Issue.record("no demo pid")
            return
        }
        let console = Tmux(runtime.run("\(Tmux.opscope) attach --readonly \(pid)"), width: 80, height: 24)
        console.wait(for: "the read-only console") { $0.contains("read-only") && $0.contains("q2 paused") }
        console.send("j")
        console.send("c")
        console.wait(for: "the console's refusal") { $0.contains("read-only console") }
        console.send(":")
        console.send("resume 2")
        console.send("Enter")
        let refused = console.wait(for: "the refusal of :resume") { $0.contains("read-only console") && $0.contains("SUSPENDED") }
        #expect(!refused.contains("Cancel #2"), "no confirmation is asked for a command that cannot be sent:\n\(refused)")
        // The demo's pane logs every console's command; none came.
        #expect(!demo.screen().contains("a console:"), "\(demo.screen())")
        console.send("q")
        #expect(console.wait(for: "the console's exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
        Tmux.run(["kill", "-TERM", "\(pid)"])
        demo.wait(for: "the demo's exit") { $0.contains("EXIT=0") }
    }

    @Test("killed outright (SIGKILL), then started again at the same socket: the console reconnects; --no-reconnect quits")
    func reconnectAfterKill() throws {
        let runtime = Runtime()
        let socket = runtime.path + "/pipeline.sock"
        let first = Tmux("\(Tmux.opscope) demo pipeline --serve --socket \(socket)")
        first.wait(for: "the serving demo") { $0.contains("attach from another terminal: opscope attach \(socket)") }
        let console = Tmux("\(Tmux.opscope) attach \(socket)")
        console.wait(for: "the dashboard") { $0.contains("attached to pipeline") && $0.contains("q3 ui") }
        let once = Tmux("\(Tmux.opscope) attach \(socket) --no-reconnect")
        once.wait(for: "the dashboard without reconnection") { $0.contains("attached to pipeline") && $0.contains("q3 ui") }
        guard let pid = first.programPID() else {
            Issue.record("no demo pid")
            return
        }
        Tmux.run(["kill", "-KILL", "\(pid)"])
        console.wait(for: "reconnecting") { $0.contains("program exited — last state kept, reconnecting…") && $0.contains("q3 ui") }
        let ended = once.wait(for: "the no-reconnect console's exit") { $0.contains("EXIT=") }
        #expect(ended.contains("opscope: program exited") && ended.contains("EXIT=0"), "\(ended)")
        expectSaneTerminal(ended)
        // The killed demo's socket is stale; the next demo at that path replaces it.
        #expect(FileManager.default.fileExists(atPath: socket))
        let again = Tmux("\(Tmux.opscope) demo pipeline --serve --socket \(socket)")
        again.wait(for: "the demo again") { $0.contains("attach from another terminal") }
        console.wait(for: "reconnected") { !$0.contains("program exited") && $0.contains("q3 ui") && $0.contains("attached to pipeline") }
        console.send("q")
        let after = console.wait(for: "the console's exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test("attached by pid, the demo killed and started again: the console attaches to the new pid and says so", arguments: [(80, 24), (200, 60)])
    func programStartedAgain(size: (width: Int, height: Int)) throws {
        let runtime = Runtime()
        let (first, firstPID) = try runtime.serve("stuck")
        // Another program in the directory: never taken for the one started again.
        let bystander = try runtime.serve("pipeline")
        defer { Runtime.stop([bystander]) }
        let console = Tmux(runtime.run("\(Tmux.opscope) attach \(firstPID)"), width: size.width, height: size.height)
        console.wait(for: "the dashboard") { $0.contains("attached to stuck (pid \(firstPID))") && $0.contains("q2 paused") }
        Tmux.run(["kill", "-TERM", "\(firstPID)"])
        first.wait(for: "the demo's exit") { $0.contains("EXIT=0") }
        console.wait(for: "waiting for the program to start again") { screen in
            screen.contains("program exited") && screen.contains("q2 paused")
                && (size.width < 120 || screen.contains("reconnecting… (to stuck when it starts again)"))
        }
        let (again, secondPID) = try runtime.serve("stuck")
        defer { Runtime.stop([(again, secondPID)]) }
        #expect(secondPID != firstPID)
        let restarted = console.wait(for: "attached again to the new pid") { screen in
            screen.contains("attached to stuck (pid \(secondPID))") && screen.contains("program stuck restarted as pid \(secondPID), attached again")
        }
        #expect(!restarted.contains("program exited"), "\(restarted)")
        #expect(!restarted.contains("attached to pipeline"), "\(restarted)")
        console.send("q")
        let after = console.wait(for: "the console's exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "\(after)")
    }

    @Test("SIGHUP (its terminal closed) to a serving demo removes its socket, as SIGINT and SIGTERM do")
    func hangUpRemovesSocket() throws {
        let runtime = Runtime()
        let socket = runtime.path + "/hup.sock"
        let demo = Tmux("\(Tmux.opscope) demo stuck --serve --socket \(socket)")
        demo.wait(for: "the serving demo") { $0.contains("attach from another terminal: opscope attach \(socket)") }
        let pid = try #require(demo.programPID(), "no demo pid")
        #expect(FileManager.default.fileExists(atPath: socket))
        Tmux.run(["kill", "-HUP", "\(pid)"])
        demo.wait(for: "the demo's exit") { $0.contains("removed") && $0.contains("EXIT=0") }
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("80 columns, SIGINT to the demo: the console's status line says so without a key; another demo at the socket is named in the title")
    func interruptedThenAnotherProgram() throws {
        let runtime = Runtime()
        let socket = runtime.path + "/s1.sock"
        let first = Tmux("\(Tmux.opscope) demo stuck --serve --socket \(socket)")
        first.wait(for: "the serving demo") { $0.contains("attach from another terminal: opscope attach \(socket)") }
        guard let firstPID = first.programPID() else {
            Issue.record("no demo pid")
            return
        }
        // 80 columns: the title has no room for the source's status beside the caption and the
        // warnings, so the status line must say it.
        let console = Tmux("\(Tmux.opscope) attach \(socket)", width: 80, height: 30)
        console.wait(for: "the dashboard") { $0.contains("attached to stuck (pid \(firstPID))") && $0.contains("q2 paused") }
        // Ctrl-C, to the demo alone (C-c in the pane would also end the pane's shell).
        Tmux.run(["kill", "-INT", "\(firstPID)"])
        first.wait(for: "the demo's exit") { $0.contains("removed") && $0.contains("EXIT=0") }
        let exited = console.wait(for: "program exited in the status line, no key pressed") { screen in
            let lines = screen.split(separator: "\n")
            return lines.contains { $0.hasPrefix("program exited — last state kept, reconnecting…") } && screen.contains("q2 paused")
        }
        #expect(exited.contains("q2 paused"))
        let second = Tmux("\(Tmux.opscope) demo pipeline --serve --socket \(socket)")
        second.wait(for: "the second demo") { $0.contains("attach from another terminal") }
        guard let secondPID = second.programPID() else {
            Issue.record("no second demo pid")
            return
        }
        let reconnected = console.wait(for: "the title naming the second demo") { screen in
            screen.contains("attached to pipeline (pid \(secondPID))") && screen.contains("q3 ui")
        }
        #expect(!reconnected.contains("attached to stuck"), "\(reconnected)")
        #expect(!reconnected.contains("program exited"), "\(reconnected)")
        console.send("q")
        let after = console.wait(for: "the console's exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
        expectSaneTerminal(after)
    }

    @Test("attach with nothing to attach to, or to a process without an agent: one clear line, status 2")
    func nothingToAttach() {
        let runtime = Runtime()
        let none = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) attach 2>&1; echo status=$?")])
        #expect(none.output.contains("opscope: no program to attach to in \(runtime.socketDirectory)"), "\(none.output)")
        #expect(none.output.contains("not listed here: opscope attach PATH"), "a socket path of its own: \(none.output)")
        #expect(none.output.contains("status=2"))
        let noAgent = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) report --attach 1 2>&1; echo status=$?")])
        #expect(noAgent.output.contains("process 1 serves no OpScope agent"), "\(noAgent.output)")
        #expect(noAgent.output.contains("status=2"))
    }
}
