import Foundation
import Testing

/// The readiness demo in a real terminal at 80x24: the gate opened without telling the queue is
/// flagged, and cancelling it does what Foundation does with a cancel (asks `isReady` again,
/// starts it, and it finishes at once).
@Suite("Terminal: the readiness demo", .serialized, .timeLimit(.minutes(3)))
struct ReadinessTerminalTests {
    @Test("80x24: refresh-token reads ready and never starts, the warning says why; c then y finishes it")
    func untoldGate() {
        let tmux = Tmux("\(Tmux.opscope) demo readiness", width: 80, height: 24)
        // At 80x24 the warnings are a count in the title; Enter on the selection (refresh-token,
        // #1, selected at the start) gives its diagnosis.
        let first = tmux.wait(for: "refresh-token ready in q2 auth") { $0.contains("q2 auth") && $0.contains("ready 1") && $0.contains("warnings") }
        // The lesson under the title, whole: its end ("tell the queue") is what a cut would lose.
        let title = first.split(separator: "\n").prefix(2).joined(separator: " ")
        #expect(title.contains("tell the queue when that changes") && !title.contains("…"), "\(title)")
        tmux.send("Enter")
        // (Wrapped: "has not" and "started for" may be on two lines.)
        let flagged = tmux.wait(for: "the diagnosis of the untold gate") { $0.contains("#1 refresh-token is ready") && $0.contains("started for") }
        #expect(flagged.contains("forKey: \"isReady\""), "\(flagged)")
        tmux.send("Escape")
        tmux.wait(for: "the details closed") { !$0.contains("Details (") }
        tmux.send("c")
        tmux.wait(for: "the cancel question") { $0.contains("(y/n)") && $0.contains("refresh-token") }
        tmux.send("y")
        let done = tmux.wait(for: "refresh-token finished") { screen in
            screen.split(separator: "\n").contains { $0.contains("refresh-token") && $0.contains("finished") }
        }
        #expect(done.contains("done 1 (1 cancelled)"), "q2 auth counts it finished, cancelled:\n\(done)")
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}
