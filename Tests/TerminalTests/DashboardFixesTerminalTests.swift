import Foundation
import Testing

/// Issue 13 in the real program: keys as terminals send them, the small screen, the options.
@Suite("Terminal: the dashboard's fixes in the real program", .serialized, .timeLimit(.minutes(3)))
struct DashboardFixesTerminalTests {
    init() {
        #expect(FileManager.default.isExecutableFile(atPath: Tmux.opscope), "opscope not built at \(Tmux.opscope)")
    }

    private func sendBytes(_ tmux: Tmux, _ bytes: [UInt8]) {
        Tmux.run(["tmux", "send-keys", "-t", tmux.name, "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    @Test("Home and End in every spelling: ESC [1~ [4~ (tmux, screen), ESC [7~ [8~ (rxvt), ESC OH OF (xterm)")
    func homeAndEnd() {
        let tmux = Tmux("\(Tmux.opscope) demo stuck")
        tmux.wait(for: "the dashboard") { $0.contains("Graph around #1 ") }
        let spellings: [(home: [UInt8], end: [UInt8])] = [
            ([0x1B, 0x5B, 0x31, 0x7E], [0x1B, 0x5B, 0x34, 0x7E]),
            ([0x1B, 0x5B, 0x37, 0x7E], [0x1B, 0x5B, 0x38, 0x7E]),
            ([0x1B, 0x4F, 0x48], [0x1B, 0x4F, 0x46]),
        ]
        for (index, spelling) in spellings.enumerated() {
            sendBytes(tmux, spelling.end)
            tmux.wait(for: "End (spelling \(index + 1)) moves to the last row") { $0.contains("Graph around #") && !$0.contains("Graph around #1 ") }
            sendBytes(tmux, spelling.home)
            tmux.wait(for: "Home (spelling \(index + 1)) moves to the first row") { $0.contains("Graph around #1 ") }
        }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("80x24: the selected queue is on screen, and the details show why an operation waits")
    func smallTerminal() {
        let tmux = Tmux("\(Tmux.opscope) demo tour", width: 80, height: 24)
        // #1 sync-account is selected at start; its queue q4 'jobs' is the fourth of six.
        tmux.wait(for: "the selected queue q4") { $0.contains("▸q4 jobs") }
        tmux.send("j")
        tmux.wait(for: "#2 selected") { $0.contains("Graph around #2") }
        tmux.send("Enter")
        tmux.wait(for: "why #2 waits") { $0.contains("Why is it not running?") && $0.contains("#2 render-feed waits on #1 sync-account") }
        tmux.send("?")
        tmux.wait(for: "the help") { $0.contains("Help: ↑ ↓ PgUp PgDn scroll") }
        tmux.send("End")
        tmux.wait(for: "the end of the help") { $0.contains("a cycle's back edge") }
        tmux.send("Escape")
        tmux.wait(for: "the help closed") { !$0.contains("Help: ↑") && $0.contains("F10Quit") }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("the key bar names s by what it does: Suspend, then Resume once the queue is suspended; each does it",
          arguments: [(80, 24), (200, 60)])
    func suspendEntryNamesItsAction(size: (width: Int, height: Int)) {
        let tmux = Tmux("\(Tmux.opscope) demo stuck", width: size.width, height: size.height)
        tmux.wait(for: "the dashboard, its selected queue running") { $0.contains("sSuspend") && !$0.contains("sResume") }
        tmux.send("s")
        let suspended = tmux.wait(for: "the queue suspended, and the bar saying Resume") { screen in
            screen.contains("suspended q") && screen.contains("sResume") && !screen.contains("sSuspend")
        }
        #expect(suspended.contains("suspended q"), "\(suspended)")
        tmux.send("s")
        tmux.wait(for: "the queue resumed, and the bar saying Suspend again") { screen in
            screen.contains("resumed q") && screen.contains("sSuspend") && !screen.contains("sResume")
        }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    /// The id the graph pane is around (the selection), and whether that id's row says finished.
    private static func selection(_ screen: String) -> (id: Int, finished: Bool)? {
        guard let range = screen.range(of: "Graph around #") else { return nil }
        let id = Int(screen[range.upperBound...].prefix { $0.isNumber }) ?? -1
        let row = screen.split(separator: "\n").first { line in
            line.hasPrefix("│") && line.dropFirst().split(separator: " ").first == Substring(String(id))
        }
        return row.map { (id, $0.contains("finished")) }
    }

    @Test("a monitor keeps live work in view: the selected operation finishes, the selection stays among the live rows; F follows it")
    func selectionKeepsLiveWorkInView() {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline")
        tmux.wait(for: "the dashboard") { $0.contains("Graph around #") }
        tmux.send("Home")
        let first = tmux.wait(for: "an executing operation selected") { screen in
            screen.contains("executing") && Self.selection(screen).map { !$0.finished } == true
        }
        guard let chosen = Self.selection(first)?.id else {
            Issue.record("no selection:\n\(first)")
            return
        }
        // Its finish comes by the demo's own pace: the selection moves on to a live row then.
        let after = tmux.wait(for: "#\(chosen) finished, the selection on a live row") { screen in
            guard let now = Self.selection(screen) else { return false }
            return now.id != chosen && !now.finished
        }
        #expect(!after.contains("following"), "\(after)")
        // F: the selection stays with its operation, down to the finished rows.
        tmux.send("F")
        tmux.wait(for: "following") { $0.contains("following") }
        tmux.send("Home")
        let followed = tmux.wait(for: "an executing operation selected, followed") { screen in
            Self.selection(screen).map { !$0.finished } == true
        }
        guard let kept = Self.selection(followed)?.id else { return }
        tmux.wait(for: "#\(kept) followed to its finish") { screen in
            Self.selection(screen).map { $0.id == kept && $0.finished } == true
        }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("200x60: the main queue's name is whole on its queue line")
    func wideQueueNames() {
        let wide = Tmux("\(Tmux.opscope) demo tour", width: 200, height: 60)
        wide.wait(for: "the whole name on the queue line") { $0.contains("q6 NSOperationQueue Main Queue ") }
        wide.send("q")
        #expect(wide.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("80x24: F3 finds an operation and selects it; the other rows stay listed")
    func findJumps() {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline")
        tmux.wait(for: "the dashboard") { $0.contains("parse-1") && $0.contains("download-1") }
        tmux.send("F3")
        tmux.send("parse-1")
        tmux.send("Enter")
        // The line closed, the status says where the search landed; the downloads stay listed.
        let found = tmux.wait(for: "the match said") { $0.contains("find 'parse-1': #") }
        #expect(found.contains("download-1"), "\(found)")
        tmux.send("Enter")
        tmux.wait(for: "the details of the match") { $0.contains("Details") && $0.contains("parse-1") }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("200x60: the graph's labels take the room the pane has, root causes with their words")
    func wideGraphLabels() {
        let wide = Tmux("\(Tmux.opscope) demo stuck", width: 200, height: 60)
        wide.wait(for: "the dashboard") { $0.contains("q2 paused") }
        wide.send("g")
        let screen = wide.wait(for: "every group, the hanging operation's whole label") {
            $0.contains("Graph: all operations") && $0.contains("#1 sync-account ⇄") && $0.contains("#11 save-draft ⇄")
        }
        #expect(!screen.contains("sync-accou…"), "\(screen)")
        // Every root cause keeps its words beside its ◆ (`◆ in no queue`, `◆ queue suspended`).
        let marks = screen.split(separator: "◆", omittingEmptySubsequences: false).dropFirst()
        #expect(marks.count >= 4 && marks.allSatisfy { $0.hasPrefix(" ") && $0.dropFirst().first?.isLetter == true }, "\(screen)")
        wide.send("q")
        #expect(wide.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("the tour's main-queue work shows up (it lasts long enough to be sampled)")
    func mainQueueVisible() {
        let tmux = Tmux("\(Tmux.opscope) demo tour")
        tmux.wait(for: "the dashboard") { $0.contains("q6 NSOperationQueue") }
        tmux.send("/")
        tmux.send("refresh-badge")
        tmux.send("Enter")
        tmux.wait(seconds: 20, for: "a refresh-badge row") { screen in
            screen.split(separator: "\n").contains { $0.contains("refresh-badge") && ($0.contains("executing") || $0.contains("finished")) }
        }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test(":add twice: every new operation gets a name of its own")
    func addedNamesDiffer() {
        let tmux = Tmux("\(Tmux.opscope) demo stuck")
        tmux.wait(for: "the dashboard") { $0.contains("q2 paused") }
        for _ in 0..<2 {
            tmux.send(":")
            tmux.send("add hang x2")
            tmux.send("Enter")
            tmux.wait(for: "the receipt") { $0.contains("added") }
        }
        tmux.send("/")
        tmux.send("hang-")
        tmux.send("Enter")
        // Table rows only: they open with the pane's border and say the state (the graph's boxes
        // do not; the narration line, which can say "it stays executing", opens with »).
        func rows(_ screen: String) -> [Substring] {
            screen.split(separator: "\n").filter {
                $0.hasPrefix("│") && $0.contains("hang-") && ($0.contains("● executing") || $0.contains("◐ ready"))
            }
        }
        // Exactly four: a capture taken while a frame is half written can hold rows of the
        // frame before as well (rows moved by the filter), which is not what the table shows.
        let screen = tmux.wait(for: "four hang rows") { rows($0).count == 4 }
        let names = rows(screen).compactMap { line in line.split(separator: " ").first { $0.hasPrefix("hang-") } }
        #expect(Set(names).count == names.count && names.count == 4, "\(names)")
        tmux.send("q")
        tmux.wait(for: "the exit") { $0.contains("EXIT=") }
    }

    @Test("--speed 0.5 keeps finished operations listed twice as long (the help says for how long)")
    func slowDemosRemember() {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline --speed 0.5")
        tmux.wait(for: "the dashboard") { $0.contains("q3 ui") }
        tmux.send("?")
        tmux.wait(for: "the retention in the help") { $0.contains("Finished operations stay listed for 60 s") }
        tmux.send("Escape")
        tmux.send("q")
        tmux.wait(for: "the exit") { $0.contains("EXIT=") }
    }

    @Test("opscope --help names the demos and their options; --version answers")
    func helpAndVersion() {
        let help = Tmux.run(["sh", "-c", "\(Tmux.opscope) --help 2>&1; echo STATUS=$?"]).output
        #expect(help.contains("Demos: tour, pipeline, serial-async, async-right-wrong, stuck, readiness,"), "\(help)")
        for option in ["--ascii", "--no-color", "--no-mouse", "--fps N", "--speed X", "--seed N", "--version"] {
            #expect(help.contains(option), "\(option) missing from --help")
        }
        #expect(help.contains("STATUS=0"))
        let version = Tmux.run([Tmux.opscope, "--version"])
        #expect(version.ok && version.output == "opscope 0.1.0\n", "\(version.output)")
    }

    @Test("the priorities demo is the same demo for the same --seed, and another for another seed")
    func seededDemo() throws {
        func plan(_ seed: Int) throws -> [String] {
            let output = Tmux.run(["sh", "-c", "\(Tmux.opscope) report priorities --after 0.3 --json --seed \(seed)"]).output
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let operations = object?["operations"] as? [[String: Any]] ?? []
            return operations.map { "\($0["name"] ?? "?") \($0["priority"] ?? "?") \($0["qos"] ?? "?")" }.sorted()
        }
        let first = try plan(7)
        #expect(first.count >= 8, "\(first)")
        #expect(try plan(7) == first)
        #expect(try plan(8) != first)
    }
}
