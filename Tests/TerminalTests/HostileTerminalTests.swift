import Foundation
import Testing

/// Issue 17, hostile names on a real terminal: a recording whose operation and queue names hold
/// a title change (`ESC ]0;pwned BEL`) and a screen wipe (`ESC [2J`), replayed in tmux. The
/// pane's title stays as it was and the screen shows the escaped text.
@Suite("Terminal: hostile names in a replay", .serialized, .timeLimit(.minutes(3)))
struct HostileTerminalTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-hostile-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("a crafted recording replayed: the title does not change, the escapes are shown as text")
    func craftedRecording() throws {
        // The check can fail: on this tmux, a program that prints the sequence does retitle its pane.
        let control = Tmux("printf '\\033]0;control-pwned\\007'; echo PRINTED")
        control.wait(for: "the control program") { $0.contains("PRINTED") }
        #expect(control.paneTitle() == "control-pwned", "tmux ignored a title change: the test below would prove nothing")

        let file = directory + "/crafted.jsonl"
        let recorded = ChildProcess.run([Tmux.opscope, "record", "pipeline", file, "--for", "1"], timeout: 60)
        #expect(recorded.status == 0)
        var text = try String(contentsOfFile: file, encoding: .utf8)
        // JSON escapes: the file stays valid; the names hold the raw control characters once read.
        #expect(text.contains("\"name\":\"download-1\"") && text.contains("\"name\":\"net\""), "the demo's names changed")
        text = text.replacingOccurrences(of: "\"name\":\"download-1\"", with: "\"name\":\"\\u001b]0;pwned\\u0007\"")
        text = text.replacingOccurrences(of: "\"name\":\"net\"", with: "\"name\":\"\\u001b[2Jnet\"")
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let tmux = Tmux("\(Tmux.opscope) replay \(file)")
        let before = tmux.paneTitle()
        let screen = tmux.wait(for: "the hostile names, escaped") { $0.contains("^[]0;pwned^G") && $0.contains("^[[2Jnet") }
        #expect(screen.contains("OpScope") && screen.contains("replay of pipeline"), "\(screen)")
        #expect(tmux.paneTitle() == before, "the replay changed the pane's title to \(tmux.paneTitle())")
        #expect(!tmux.paneTitle().contains("pwned"))
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
        #expect(!tmux.paneTitle().contains("pwned"))
    }
}

extension Tmux {
    /// The pane's title, as programs set it with `ESC ]0;` or `ESC ]2;`.
    func paneTitle() -> String {
        Tmux.run(["tmux", "display-message", "-p", "-t", name, "#{pane_title}"]).output.trimmingCharacters(in: .newlines)
    }
}
