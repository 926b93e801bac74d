import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `opscope attach` with several programs serving: the choice in a terminal, the list and a
/// failure without one. Each test has a socket directory of its own (XDG_RUNTIME_DIR).
@Suite("Terminal: choosing the program to attach to", .serialized, .timeLimit(.minutes(3)))
struct AttachPickerTerminalTests {
    typealias Runtime = AttachTerminalTests.Runtime

    @Test("three demos serve: the picker lists them; Down then Enter attaches to the second", arguments: [(80, 24), (200, 60)])
    func picker(size: (width: Int, height: Int)) throws {
        let runtime = Runtime()
        let demos = try ["stuck", "pipeline", "readiness"].map { try runtime.serve($0) }
        defer { Runtime.stop(demos) }
        // Listed in order of process id, the first selected.
        let ordered = demos.map { $0.1 }.sorted()
        let names = Dictionary(uniqueKeysWithValues: zip(demos.map { $0.1 }, ["stuck", "pipeline", "readiness"]))
        let console = Tmux(runtime.run("\(Tmux.opscope) attach"), width: size.width, height: size.height)
        let picker = console.wait(for: "the picker with the three demos") { screen in
            screen.contains("Attach to which program? 3 serve") && screen.contains("PID") && screen.contains("STARTED (UTC)")
                && ordered.allSatisfy { pid in screen.split(separator: "\n").contains { $0.contains("\(pid)") && $0.contains(names[pid]!) } }
        }
        #expect(picker.contains("Enter attach") && picker.contains("q Esc quit"), "\(picker)")
        if size.width >= 200 {
            // Wide enough for every column: the queues of each, as attach --list names them.
            #expect(picker.contains("work, paused") && picker.contains("net, parse, ui") && picker.contains("sync, auth"), "\(picker)")
        }
        #expect(picker.split(separator: "\n").allSatisfy { $0.count <= size.width }, "\(picker)")
        if size.width == 80 {
            // A resize redraws the frame at the new size before anything is chosen.
            console.resize(width: 120, height: 30)
            console.wait(for: "the picker at 120 columns") { screen in
                screen.split(separator: "\n").contains { $0.count == 120 && $0.hasPrefix("┌ Programs") && $0.hasSuffix("┐") }
            }
        }
        console.send("Down")
        console.send("Enter")
        let chosen = ordered[1]
        let dashboard = console.wait(for: "the dashboard on the second program") { $0.contains("attached to \(names[chosen]!) (pid \(chosen))") }
        #expect(!dashboard.contains("Attach to which program?"), "the picker is gone:\n\(dashboard)")
        console.send("q")
        let after = console.wait(for: "the console's exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "\(after)")
    }

    @Test("q leaves the picker without attaching (exit 0); without a terminal: the list, one line, exit 2; --list exits 0")
    func leavingAndNoTerminal() throws {
        let runtime = Runtime()
        let demos = try ["stuck", "pipeline"].map { try runtime.serve($0) }
        defer { Runtime.stop(demos) }
        let console = Tmux(runtime.run("\(Tmux.opscope) attach"), width: 80, height: 24)
        console.wait(for: "the picker") { $0.contains("Attach to which program? 2 serve") }
        console.send("q")
        let left = console.wait(for: "the console's exit") { $0.contains("EXIT=") }
        #expect(left.contains("EXIT=0") && !left.contains("attached to"), "\(left)")
        // Output to a pipe: nothing to choose in.
        let piped = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) attach 2>&1 </dev/null; echo status=$?")])
        for (_, pid) in demos { #expect(piped.output.contains("\(pid)"), "\(piped.output)") }
        #expect(piped.output.contains("PID     PROGRAM"), "\(piped.output)")
        #expect(piped.output.contains("opscope: 2 programs serve and none was attached (there is no terminal to choose in): "
                                      + "attach to one with opscope attach PID"), "\(piped.output)")
        #expect(piped.output.hasSuffix("status=2\n"), "\(piped.output)")
        let listed = Tmux.run(["sh", "-c", runtime.run("\(Tmux.opscope) attach --list; echo status=$?")])
        #expect(listed.output.contains("pipeline") && listed.output.hasSuffix("status=0\n"), "\(listed.output)")
    }
}
