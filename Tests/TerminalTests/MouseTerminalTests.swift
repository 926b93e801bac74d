import Foundation
import Testing

/// The mouse in the real program under tmux's own TERM, tmux-256color, whose terminfo has the
/// X10 `kmous` and no XM: ncurses alone asks only for X10 reports there, which cannot name a
/// column past 223, and does not decode SGR reports.
@Suite("Terminal: the mouse under TERM=tmux-256color", .serialized, .timeLimit(.minutes(3)))
struct MouseTerminalTests {
    init() {
        #expect(FileManager.default.isExecutableFile(atPath: Tmux.opscope), "opscope not built at \(Tmux.opscope)")
    }

    /// The 1-based row of the first screen line starting with `prefix`.
    private func row(of prefix: String, in screen: String) -> Int? {
        screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
    }

    @Test("250x70: SGR reports are asked for, a click at column 241 selects a queue, and quitting turns the mouse off")
    func clickPastColumn223() {
        let tmux = Tmux("\(Tmux.opscope) demo tour", width: 250, height: 70, term: "tmux-256color")
        let screen = tmux.wait(for: "the dashboard") { $0.contains("▸q4 jobs") && $0.contains(" q3 ui") }
        #expect(tmux.paneFormat("#{mouse_sgr_flag}") == "1", "SGR mouse mode not requested")
        guard let line = row(of: " q3 ui", in: screen) else {
            Issue.record("no q3 line:\n\(screen)")
            return
        }
        tmux.sendLiteral("\u{1B}[<0;241;\(line)M\u{1B}[<0;241;\(line)m")
        tmux.wait(for: "the click at column 241 selects q3") { $0.contains("▸q3 ui") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
        #expect(tmux.paneFormat("#{mouse_sgr_flag} #{mouse_any_flag}") == "0 0", "mouse modes left on after exit")
    }

    @Test("a press, its release and a wheel step fire no key: no sort by `<`, no view from the digits")
    func reportsAreNotKeys() {
        let tmux = Tmux("\(Tmux.opscope) demo tour", width: 120, height: 40, term: "tmux-256color")
        tmux.wait(for: "the dashboard") { $0.contains("Operations  sort ID▲") }
        tmux.sendLiteral("\u{1B}[<0;20;6M\u{1B}[<0;20;6m\u{1B}[<65;20;30M\u{1B}[<64;20;30M")
        // H after the reports: once its message shows, the reports before it have been read.
        tmux.send("H")
        let screen = tmux.wait(for: "H's message") { $0.contains("finished operations hidden") }
        #expect(screen.contains("Operations (finished hidden)  sort ID▲"), "the overview with its sort changed:\n\(screen)")
        #expect(!screen.contains("sorted by"))
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}
