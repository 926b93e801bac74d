import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

@Suite("UI: screens as text")
struct ScreenTests {
    private func dashboard(_ model: DashboardModel, select id: OperationID? = 4) -> Interaction {
        var dashboard = Interaction(templates: [WorkTemplateInfo(name: "download", summary: "fetch a file (async)", queue: QueueID(1))])
        dashboard.state.selection = id
        dashboard.keepSelectionValid(model)
        return dashboard
    }

    @Test("a warnings pane too small for its warnings says what is below, in place of its last row, at 80x24 and 120x40",
          arguments: [(80, 24), (120, 40)])
    func warningsMore(size: (width: Int, height: Int)) {
        var script = EventScript()
        script.queue(1, "loops")
        // Six two-operation cycles: six warnings, more than the pane holds at either size.
        for pair in 0..<6 {
            script.add(2 * pair + 1, queue: 1, "first-\(pair)", after: [2 * pair + 2])
            script.add(2 * pair + 2, queue: 1, "second-\(pair)", after: [2 * pair + 1])
        }
        let model = script.model()
        var board = dashboard(model, select: 1)
        // At 80x24 the pane shows where it has the keys (the graph takes its place otherwise).
        if size.width == 80 { board.state.focus = .warnings }
        let lines = screen(model, board, width: size.width, height: size.height).0.lines()
        guard let top = lines.firstIndex(where: { $0.contains("Warnings (") }),
              let bottom = lines[(top + 1)...].firstIndex(where: { $0.hasPrefix("└") }) else {
            Issue.record("no warnings pane:\n\(lines.joined(separator: "\n"))")
            return
        }
        let last = lines[bottom - 1]
        #expect(last.contains("│↓ ") && last.contains("more warning"), "\(last)")
        #expect(last.contains(board.state.focus == .warnings ? " (↓)" : " (Tab, ↓)"), "\(last)")
        // At the last warning nothing is below, and nothing is said.
        board.state.focus = .warnings
        board.state.warnings.offset = model.warnings().count - 1
        let end = screen(model, board, width: size.width, height: size.height).0.lines()
        #expect(!end[bottom - 1].contains("more warning") && end[top..<bottom].joined().contains("second-5"),
                "\(end[top...bottom].joined(separator: "\n"))")
    }

    @Test("a wide screen does not cut what it has room for: a long queue and operation name whole at 200 columns, cut at 80")
    func wideNames() {
        var script = EventScript()
        script.queue(1, "NSOperationQueue Main Queue")
        script.queue(2, "com.example.thumbs")
        script.add(1, queue: 1, "refresh-badge-and-counters")
        script.add(2, queue: 2, "render-thumbnail-7", async: true)
        let model = script.model()
        let wide = screen(model, dashboard(model, select: 1), width: 200, height: 60).0.lines()
        #expect(wide.contains { $0.hasPrefix(" q1 NSOperationQueue Main Queue ") || $0.hasPrefix("▸q1 NSOperationQueue Main Queue ") },
                "the queue line: \(wide.prefix(4).joined(separator: "\n"))")
        #expect(wide.contains { $0.contains("q2 com.example.thumbs ") }, "\(wide.prefix(4).joined(separator: "\n"))")
        let row = wide.first { $0.contains("render-thumbnail") } ?? ""
        #expect(row.contains("render-thumbnail-7 ⇄") && row.contains("com.example.thumbs "), "\(row)")
        #expect(!row.contains("…"), "\(row)")
        // 80 columns: cut, with the mark that says so, and the row still fits.
        let narrow = screen(model, dashboard(model, select: 1), width: 80, height: 24).0.lines()
        let cut = narrow.first { $0.contains("render-thu") } ?? ""
        #expect(cut.contains("…") && TerminalText.width(cut) <= 80, "\(cut)")
    }

    @Test("a selected operation that finishes hands the selection to the next live row; with F it is followed below")
    func selectionKeepsItsPlace() {
        var script = EventScript()
        script.queue(1, "work", max: 2)
        for id in 1...4 { script.add(id, queue: 1, "job-\(id)") }
        script.start(1)
        script.start(2)
        let before = script.model()
        var board = dashboard(before, select: 1)
        board.map = screen(before, board).1
        script.finish(1)
        let after = script.model()
        var following = board
        board.keepSelectionValid(after)
        #expect(board.state.selection == 2, "the live row after #1 is selected: \(String(describing: board.state.selection))")
        let lines = screen(after, board).0.lines()
        #expect(lines.contains { $0.contains("Graph around #2") }, "\(lines.joined(separator: "\n"))")

        // F: the selection follows #1 down to the finished rows, and the title says so.
        press([.character("F")], &following, before)
        #expect(following.state.table.follow)
        following.keepSelectionValid(after)
        #expect(following.state.selection == 1)
        #expect(screen(after, following).0.lines().contains { $0.contains("sort ID▲  following") })
        // Not finishing moves nothing: a start keeps the selection where it is.
        var other = EventScript()
        other.queue(1, "work", max: 2)
        for id in 1...2 { other.add(id, queue: 1, "job-\(id)") }
        let waiting = other.model()
        var still = dashboard(waiting, select: 2)
        still.map = screen(waiting, still).1
        other.start(2)
        still.keepSelectionValid(other.model())
        #expect(still.state.selection == 2)
    }

    @Test("the main screen, 120x40")
    func main() {
        let model = pipelineScript().model()
        expectSnapshot(screen(model, dashboard(model)).0.text, named: "main-120x40")
    }

    @Test("narrow (80x24) and ASCII, no colour")
    func narrowASCII() {
        let model = pipelineScript().model()
        expectSnapshot(screen(model, dashboard(model), width: 80, height: 24, theme: Theme(unicode: false, color: false)).0.text,
                       named: "main-80x24-ascii")
    }

    @Test("details of the selected operation: fields, why it waits, its key changes")
    func details() {
        let model = pipelineScript().model()
        var board = dashboard(model, select: 6)
        _ = board.handle(.enter, model: model)
        expectSnapshot(screen(model, board).0.text, named: "details-120x40")
    }

    @Test("details name Foundation's keys; an operation with no QoS of its own in a queue that has one says both")
    func detailsQoS() {
        var script = EventScript()
        script.emit(.queueAppeared(QueueInfo(id: QueueID(1), name: "ui", qualityOfService: .userInteractive)))
        script.add(1, queue: 1, "update")
        let model = script.model()
        var board = dashboard(model, select: 1)
        _ = board.handle(.enter, model: model)
        let text = screen(model, board, width: 200, height: 40).0.text
        #expect(text.contains("qualityOfService default (its queue's qualityOfService: userInteractive)"), "\(text)")
        #expect(text.contains("queuePriority    normal"), "\(text)")
    }

    @Test("the whole graph: every group, stuck first")
    func wholeGraph() {
        let model = pipelineScript().model()
        var board = dashboard(model)
        _ = board.handle(.character("g"), model: model)
        expectSnapshot(screen(model, board).0.text, named: "graph-all-120x40")
    }

    @Test("help overlay, picker, confirmation and command line")
    func overlays() {
        let model = pipelineScript().model()
        var board = dashboard(model)
        _ = board.handle(.character("?"), model: model)
        expectSnapshot(screen(model, board).0.text, named: "help-120x40")
        _ = board.handle(.escape, model: model)
        _ = board.handle(.character("a"), model: model)
        expectSnapshot(screen(model, board, height: 24).0.lines().suffix(22).prefix(6).joined(separator: "\n"), named: "picker")
        _ = board.handle(.escape, model: model)
        _ = board.handle(.character("c"), model: model)
        #expect(screen(model, board).0.lines()[38] == "Cancel #4 parse-a? (y/n)  only y cancels; Enter or any other key keeps it")
        _ = board.handle(.character("n"), model: model)
        for key in ":add nothing".map({ Key.character($0) }) + [.enter] { _ = board.handle(key, model: model) }
        #expect(screen(model, board).0.lines()[38] == "unknown template 'nothing'; known: download")
    }

    @Test("too small: a clear message at every size from 1x1 up; no crash at 0x0")
    func tooSmall() {
        let model = pipelineScript().model()
        let board = dashboard(model)
        let lines = screen(model, board, width: 30, height: 8).0.lines()
        #expect(lines[2...4] == ["   Terminal too small: 30x8", "     OpScope needs 40x10", "           q quits"])
        for width in 0...45 {
            for height in [0, 1, 2, 5, 9, 10, 11] {
                let text = screen(model, board, width: width, height: height).0.text
                if width >= 40, height >= 10 { #expect(text.contains("OpScope")) }
                if width < 40, width >= 30, height >= 5 { #expect(text.contains("Terminal too small")) }
            }
        }
    }

    @Test("a steady frame where one operation changed state sends few cells")
    func steadyFrame() {
        var script = pipelineScript()
        let before = script.model()
        script.start(3, after: 0)
        let after = script.model()
        let board = dashboard(before)
        var backend = TestBackend(width: 200, height: 60)
        backend.draw(screen(before, board, width: 200, height: 60).0)
        backend.draw(screen(after, board, width: 200, height: 60).0)
        #expect(backend.lastCellsWritten > 0 && backend.lastCellsWritten < 200, "\(backend.lastCellsWritten) cells")
    }
}
