import Foundation
import Testing

/// Ctrl-Z and `fg` in a shell with job control: the shell gets a usable terminal while the
/// dashboard is stopped, and the dashboard comes back whole.
@Suite("Terminal: suspend and resume (Ctrl-Z, fg)", .serialized, .timeLimit(.minutes(3)))
struct SuspendTerminalTests {
    @Test("Ctrl-Z gives the shell its terminal back; fg redraws the whole dashboard, twice; q still quits cleanly")
    func suspendAndResume() {
        let tmux = Tmux("bash --norc --noprofile -i", width: 100, height: 30)
        tmux.wait(for: "the shell") { $0.contains("$") || $0.contains("#") }
        tmux.send("\(Tmux.opscope) demo stuck", "Enter")
        tmux.wait(for: "the dashboard") { $0.contains("q2 paused") && $0.contains("F10Quit") }
        tmux.send("C-z")
        let stopped = tmux.wait(for: "the shell after Ctrl-Z") { $0.contains("Stopped") }
        #expect(!stopped.contains("F10Quit"), "the dashboard left the screen:\n\(stopped)")
        // The shell's line discipline is usable: a command typed now is echoed and runs.
        tmux.send("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e icrnl | sort | tr '\\n' ' '; echo MODES-$((40+2))", "Enter")
        // Only the command's output holds "MODES-42" (the typed line holds the arithmetic).
        let modes = tmux.wait(for: "the terminal modes") { $0.contains("MODES-42") }
        #expect(modes.contains("echo icanon icrnl"), "terminal modes while stopped:\n\(modes)")
        tmux.send("clear; fg", "Enter")
        // Redrawn fully: every pane's frame and the key bar, not only what changed since.
        let back = tmux.wait(for: "the dashboard after fg") { $0.contains("q2 paused") && $0.contains("F10Quit") && $0.contains("┌ Operations") }
        #expect(back.contains("Graph"), "\(back)")
        // A second time: the handler is in place again after the first.
        tmux.send("C-z")
        let again = tmux.wait(for: "the shell after a second Ctrl-Z") { $0.contains("Stopped") }
        #expect(!again.contains("F10Quit"), "the dashboard left the screen again:\n\(again)")
        tmux.send("fg", "Enter")
        tmux.wait(for: "the dashboard after the second fg") { $0.contains("q2 paused") && $0.contains("F10Quit") && $0.contains("┌ Operations") }
        tmux.send("q")
        tmux.wait(for: "the dashboard to leave") { !$0.contains("F10Quit") }
        // The typed command holds "STATUS-$?"; only its output holds "STATUS=<digits>".
        tmux.send("echo STATUS=$?", "Enter")
        let after = tmux.wait(for: "the exit") { $0.range(of: "STATUS=[0-9]+", options: .regularExpression) != nil }
        #expect(after.contains("STATUS=0"), "\(after)")
    }
}
