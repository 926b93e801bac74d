import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Boxes stay where they are from one frame to the next (the pane keeps each group's layout).
@Suite("Graph: a stable picture from frame to frame")
struct GraphStabilityTests {
    /// Where each operation's box is: (column, row), from the pane's items.
    private func places(_ memory: GraphPaneMemory) -> [OperationID: (x: Int, row: Int)] {
        var result: [OperationID: (x: Int, row: Int)] = [:]
        for item in memory.items { if let id = item.key.operation { result[id] = (item.x, item.row) } }
        return result
    }

    private func frame(_ script: EventScript, _ state: ViewState, _ memory: inout GraphPaneMemory) -> [String] {
        GraphText.render(script.model(), state, width: 120, height: 30, memory: &memory).lines
    }

    @Test("a state change recolours; no box moves")
    func stateChange() {
        var script = EventScript()
        script.queue(1, "q", max: 2)
        script.add(1, queue: 1, "fetch")
        script.add(2, queue: 1, "parse", after: [1])
        script.add(3, queue: 1, "resize", after: [1])
        script.add(4, queue: 1, "upload", after: [2, 3])
        var state = ViewState()
        state.selection = 4
        var memory = GraphPaneMemory()
        _ = frame(script, state, &memory)
        let before = places(memory)
        script.start(1)
        let lines = frame(script, state, &memory)
        #expect(lines[0].hasPrefix("● #1 fetch"), "the state is drawn: \(lines)")
        let after = places(memory)
        #expect(before.count == 4)
        for (id, place) in before { #expect(after[id]?.x == place.x && after[id]?.row == place.row, "\(id) moved") }
    }

    @Test("new operations join a group: the others keep their columns and their order")
    func joining() {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [2])
        script.add(4, queue: 1, "d", after: [1])
        var state = ViewState()
        state.selection = 1
        var memory = GraphPaneMemory()
        _ = frame(script, state, &memory)
        let before = places(memory)
        for (id, after) in [(5, [1]), (6, [4]), (7, [2, 4])] { script.add(id, queue: 1, "new-\(id)", after: after) }
        _ = frame(script, state, &memory)
        let after = places(memory)
        #expect(after.count == 7)
        // Columns (layers) are kept: boxes in one column before are in one column after, in the same order.
        let columns = Dictionary(grouping: before.keys) { before[$0]!.x }
        for (_, ids) in columns {
            let x = Set(ids.map { after[$0]!.x })
            #expect(x.count == 1, "a column split: \(ids)")
            let orderBefore = ids.sorted { before[$0]!.row < before[$1]!.row }
            let orderAfter = ids.sorted { after[$0]!.row < after[$1]!.row }
            #expect(orderBefore == orderAfter)
        }
        #expect(after[1]!.x < after[2]!.x && after[2]!.x < after[3]!.x && after[1]!.x < after[5]!.x && after[4]!.x < after[7]!.x)
    }

    @Test("the whole graph: a group whose rank changes moves as a whole; its boxes keep their places")
    func groupMoves() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "first")
        script.add(2, queue: 1, "second", after: [1])
        script.add(3, queue: 1, "later")
        script.add(4, queue: 1, "later-2", after: [3])
        var state = ViewState()
        state.selection = 1
        state.graph.layout = .all
        var memory = GraphPaneMemory()
        var lines = frame(script, state, &memory)
        #expect(lines.first?.hasPrefix("◐ #1 first") == true)
        let before = places(memory)
        script.start(3)
        lines = frame(script, state, &memory)
        // Running before waiting: #3's group comes first now.
        #expect(lines.first?.hasPrefix("● #3 later") == true, "\(lines)")
        let after = places(memory)
        #expect(after[4]!.x == before[4]!.x && after[4]!.row - after[3]!.row == before[4]!.row - before[3]!.row)
        #expect(after[2]!.x == before[2]!.x)
    }
}
