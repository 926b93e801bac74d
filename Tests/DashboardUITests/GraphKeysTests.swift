import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The graph pane's keys, as a person uses them: Tab gives it the keys; ↑ ↓ walk its boxes, h l
/// pan, z shrinks every box to one cell, g shows every group, f stays on a blocking chain, Enter
/// opens a fold or shows why an operation waits.
@Suite("Graph: keys")
struct GraphKeysTests {
    /// The stuck demo after twelve seconds (sync-account is suspected of never finishing).
    let stuck: DashboardModel = {
        let script = stuckScript(seconds: 12)
        var model = script.model()
        model.advance(to: script.time)
        return model
    }()

    private func text(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int = 120, _ height: Int = 40) -> String {
        screen(model, dashboard, width: width, height: height).0.text
    }

    /// One operation waiting and four finished ones, each a group of its own.
    static let fourFinished: DashboardModel = {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "waiting")
        for id in 2...5 { script.add(id, queue: 1, "done-\(id)"); script.run(id) }
        return script.model()
    }()

    /// The graph pane's frame as text (its title row to its bottom edge).
    private func pane(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int = 120, _ height: Int = 40) -> [String] {
        let (buffer, map) = screen(model, dashboard, width: width, height: height)
        guard let area = map.panes[.graph] else { return [] }
        return buffer.lines()[area.y..<area.maxY].map { String(Array($0)[area.x..<area.maxX]) }
    }

    @Test("Tab gives the graph the keys: ↓ and ↑ walk its boxes in reading order, selecting each operation")
    func walk() {
        var dashboard = board(stuck, select: 1)
        press([.character("g"), .home], &dashboard, stuck)
        #expect(dashboard.state.focus == .graph)
        var visited: [OperationID] = []
        for _ in 0..<12 {
            if let id = dashboard.state.selection, visited.last != id { visited.append(id) }
            press([.down], &dashboard, stuck)
        }
        // Stuck first, the worst cause first: the cycle; the migration never enqueued and the
        // launch behind it; the asynchronous operation that never finishes and its chain; the
        // suspended queue's thumbnails.
        #expect(visited.prefix(10) == [4, 5, 7, 6, 1, 2, 3, 8, 9, 10], "\(visited)")
        press([.home], &dashboard, stuck)
        #expect(dashboard.state.selection == 4)
        while dashboard.state.selection != 2 { press([.down], &dashboard, stuck) }
        press([.up], &dashboard, stuck)
        #expect(dashboard.state.selection == 1)
        // With the table focused, ↓ moves through the table's rows again.
        press([.backTab], &dashboard, stuck)
        let before = dashboard.state.selection
        press([.down], &dashboard, stuck)
        #expect(dashboard.state.focus == .table && dashboard.state.selection != before)
    }

    @Test("h and l pan a drawing wider than the pane, with … at the cut and the position on the edge, whichever pane has the keys")
    func pan() {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        for id in 1...4 { script.add(id, queue: 1, "step \(id) of a chain with names", after: id > 1 ? [id - 1] : []) }
        let model = script.model()
        var dashboard = board(model, select: 4)
        press([.character("j")], &dashboard, model, width: 80, height: 24)
        let shown = dashboard.map.graph.panX
        press([.character("h")], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.focus == .table && dashboard.map.graph.panX < shown, "h pans the graph with the table focused too")
        press([.character("l")], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.map.graph.panX == shown)
        press([.tab], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.focus == .graph)
        #expect(dashboard.state.status?.text.hasPrefix("keys: the graph") == true, "Tab says which pane has the keys")
        // The selection (#4, the last box) is in view: the drawing is panned to its end.
        var lines = pane(model, dashboard, 80, 24)
        #expect(lines.contains { $0.contains("#4 step 4") } && lines.contains { $0.hasPrefix("│…") }, "\(lines.joined(separator: "\n"))")
        let start = dashboard.map.graph.panX
        #expect(start > 0)
        #expect(lines.last?.contains("◂ cols \(start + 1)-") == true, "\(lines.last ?? "")")
        press([.character("h"), .character("h"), .character("h"), .character("h")], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.map.graph.panX == 0)
        lines = pane(model, dashboard, 80, 24)
        #expect(lines.contains { $0.contains("#1 step 1") } && lines.contains { $0.hasSuffix("…│") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.last?.contains("◂ cols 1-78 of") == true)
        press([.right], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.map.graph.panX > 0, "→ pans like l")
        #expect(dashboard.state.selection == 4, "panning moves no selection")
    }

    @Test("z: one cell per box, the cursor's label under the drawing; z again: labels")
    func compact() {
        var dashboard = board(stuck, select: 6)
        press([.character("g"), .character("z")], &dashboard, stuck)
        #expect(dashboard.state.graph.compact)
        let lines = pane(stuck, dashboard)
        #expect(lines[0].contains("compact (z)"))
        #expect(lines.contains { $0.contains("◆───○") }, "migrate-db (a root: ◆) → launch\n\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("▸ ○ #6 launch ·work") })
        press([.character("z")], &dashboard, stuck)
        #expect(pane(stuck, dashboard).contains { $0.contains("◐ #7 migrate-db ◆ in no queue───○ #6 launch ·work") })
    }

    @Test("f stays on the selection's blocking chain while the selection moves and the model changes; f again lets go")
    func follow() {
        var script = stuckScript(seconds: 12)
        var dashboard = board(script.model(), select: 3)
        var model = script.model()
        model.advance(to: script.time)
        press([.character("f")], &dashboard, model)
        #expect(dashboard.state.graph.pinned == 3)
        var lines = pane(model, dashboard)
        #expect(lines[0].contains("Graph: blocking chain of #3"))
        #expect(lines.contains { $0.contains("● #1 sync-acco… ⇄ ◆ never finishes?───○ #2 render-feed───○ #3 notify") },
                "\(lines.joined(separator: "\n"))")
        // Another selection, and more work arriving and finishing: the pane stays on #3's chain.
        press([.backTab, .down, .down], &dashboard, model)
        #expect(dashboard.state.selection != 3)
        for second in 0..<3 {
            script.add(100 + second, queue: 1, "more-\(second)")
            script.run(100 + second)
            model = script.model()
            model.advance(to: script.time)
            dashboard.keepSelectionValid(model)
            dashboard.map = screen(model, dashboard).1
            lines = pane(model, dashboard)
            // The pane is narrower without the keys: the chain starts at its root, cut on the right.
            #expect(lines[0].contains("Graph: blocking chain of #3") && !lines.contains { $0.contains("more-") }
                    && lines[1].hasPrefix("│● #1 sync-account ⇄ ◆───○ #2 render-feed───") && lines[1].hasSuffix("…│"),
                    "\(lines.joined(separator: "\n"))")
        }
        press([.character("f")], &dashboard, model)
        #expect(dashboard.state.graph.pinned == nil)
        #expect(pane(model, dashboard)[0].contains("Graph around"))
    }

    @Test("Enter on an operation in the graph: why it waits, down to its root cause")
    func diagnosis() {
        var dashboard = board(stuck, select: 6)
        press([.tab, .enter], &dashboard, stuck)
        let screenText = text(stuck, dashboard)
        #expect(dashboard.state.details != nil)
        #expect(screenText.contains("Why is it not running?") && screenText.contains("#6 launch waits on #7 migrate-db"), "\(screenText)")
        press([.escape], &dashboard, stuck)
        #expect(dashboard.state.details == nil && dashboard.state.focus == .graph)
    }

    @Test("Enter on a fold opens it; on the count of hidden edges, the group draws more; g folds all again")
    func openFolds() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "root")
        for id in 2...13 { script.add(id, queue: 1, "thumb-\(id)", after: [1]) }
        let model = script.model()
        var dashboard = board(model, select: 1)
        press([.tab, .down], &dashboard, model)
        #expect(dashboard.state.graph.cursor == .node(.siblings(2)), "the cursor stands on the fold")
        #expect(pane(model, dashboard).contains { $0.contains("×12 ○ thumb-* ▸") })
        press([.enter], &dashboard, model)
        #expect(dashboard.state.selection == 2 && dashboard.state.details == nil)
        let opened = pane(model, dashboard)
        #expect(!opened.contains { $0.contains("×12") } && opened.contains { $0.contains("#13 thumb-13") })

        var wide = EventScript()
        wide.queue(1, "q")
        for id in 1...300 { wide.add(id, queue: 1, "op-\(id)", after: id > 3 ? [id - 1, id - 3] : []) }
        let big = wide.model()
        dashboard = board(big, select: 150)
        press([.tab, .end], &dashboard, big, width: 200, height: 60)
        #expect(dashboard.state.graph.cursor == .hiddenEdges(dashboard.map.graph.items.last!.key.hiddenEdgesBlock!))
        let before = pane(big, dashboard, 200, 60).last ?? ""
        press([.enter], &dashboard, big, width: 200, height: 60)
        #expect(dashboard.state.graph.budgetLevel == 1)
        let after = pane(big, dashboard, 200, 60).last ?? ""
        #expect(before != after, "more drawn: \(before) / \(after)")
        press([.character("g"), .character("g")], &dashboard, big, width: 200, height: 60)
        #expect(dashboard.state.graph.budgetLevel == 0 && dashboard.state.graph.expanded.isEmpty)
    }

    @Test("the whole graph: groups with nothing left to do fold into one line, Enter opens it")
    func finishedGroups() {
        let model = Self.fourFinished
        var dashboard = board(model, select: 1)
        press([.character("g")], &dashboard, model)
        var lines = pane(model, dashboard)
        #expect(lines.contains { $0.contains("✓ 4 finished operations in 4 groups ▸") })
        press([.end, .enter], &dashboard, model)
        lines = pane(model, dashboard)
        #expect(!lines.contains { $0.contains("in 4 groups") } && lines.contains { $0.contains("✓ #5 done-5") })
    }

    @Test("the whole graph never folds the selection away: a finished selection's group stays open above the finished line")
    func finishedSelectionStaysOpen() {
        let model = Self.fourFinished
        var dashboard = board(model, select: 3)
        press([.character("g")], &dashboard, model)
        let lines = pane(model, dashboard)
        #expect(lines.contains { $0.contains("#3 done-3") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("✓ 3 finished operations in 3 groups ▸") })
        #expect(dashboard.map.graph.items.contains { $0.key == .node(.operation(3)) })
    }
}

extension GraphItemKey {
    /// The group a count of hidden edges belongs to.
    var hiddenEdgesBlock: OperationID? {
        if case .hiddenEdges(let id) = self { return id }
        return nil
    }
}
