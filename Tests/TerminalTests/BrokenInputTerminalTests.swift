import Foundation
import Testing

/// Bytes that are not UTF-8, as a broken or hostile input sends them, arriving together with
/// the keys after them (as they do when the program is busy): each costs only its own bytes.
@Suite("Terminal: broken UTF-8 before keys", .serialized, .timeLimit(.minutes(2)))
struct BrokenInputTerminalTests {
    @Test("a lone lead byte, then Escape, Escape and q in one write: the help closes and q quits")
    func loneLeadByte() {
        let tmux = Tmux("\(Tmux.opscope) demo stuck")
        tmux.wait(for: "the dashboard") { $0.contains("q2 paused") }
        tmux.send("?")
        tmux.wait(for: "the help") { $0.contains("Help:") }
        // F0 starts a four-byte character; ESC, ESC and q cannot continue it. Read as one
        // character, they were lost with it, and the help stayed open with the program running.
        Tmux.run(["tmux", "send-keys", "-t", tmux.name, "-H", "f0", "1b", "1b", "71"])
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "\(after)")
    }

    @Test("characters typed into the filter: accents, CJK and emoji arrive whole; a broken one shows as U+FFFD")
    func wholeCharacters() {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline")
        tmux.wait(for: "the dashboard") { $0.contains("q3 ui") }
        tmux.send("/")
        tmux.sendLiteral("dé画🚀")
        // E2 82 is the start of a three-byte character cut short; x follows it.
        Tmux.run(["tmux", "send-keys", "-t", tmux.name, "-H", "e2", "82", "78"])
        // Before, the x was taken for the rest of the cut character and lost with it.
        tmux.wait(for: "the filter line with U+FFFD and the x") { $0.contains("/dé画🚀\u{FFFD}x") }
        tmux.send("Escape")
        tmux.wait(for: "the filter closed") { !$0.contains("/dé画🚀") }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}
