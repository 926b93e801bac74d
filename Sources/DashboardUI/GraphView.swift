import DashboardModel
import OperationEvents
import TerminalKit

/// The graph pane: the layered view around the selection (or the critical path), or the whole
/// graph as a lane list. Boxes take the colour of their state; edges stay neutral.
struct GraphView {
    let theme: Theme

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard !area.isEmpty else { return }
        if model.operations.isEmpty {
            buffer.write("no operations yet", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        switch state.graph.layout {
        case .focused: renderFocused(model, state, into: &buffer, area: area, map: &map)
        case .all: renderList(model, state, into: &buffer, area: area, map: &map)
        }
    }

    private func renderFocused(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let focus = state.graph.followsSelection ? state.selection : nil
        let graph = FocusedGraph.build(model, focus: focus, limit: 120)
        // The layout is remembered from the last frame: boxes stay put while the structure does not change.
        let (layout, order) = map.graphLayout.layout(graph.graph, keys: graph.nodes.map(\.key))
        var layoutIndex = [Int](repeating: 0, count: order.count)
        for (index, node) in order.enumerated() { layoutIndex[node] = index }
        let dashed = Set(graph.cycleEdges.map { LayeredLayout.Edge(layoutIndex[$0.from], layoutIndex[$0.to]) })
        var canvas = GraphDrawing.draw(layout, labels: order.map { graph.nodes[$0].label }, dashed: dashed, maxLabelWidth: 22)
        canvas.renumberPlaced { order[$0] }
        // Keep the focus in view: scroll the canvas so that its box is visible.
        var originX = 0
        var originY = 0
        if let focusNode = graph.nodes.firstIndex(where: \.isFocus), let placed = canvas.placed.first(where: { $0.node == focusNode }) {
            if placed.x + placed.width > area.width { originX = min(placed.x, placed.x + placed.width - area.width + 2) }
            if placed.y >= area.height { originY = placed.y - area.height / 2 }
        }
        let lines = canvas.lines(unicode: theme.unicode)
        for row in 0..<min(area.height, max(0, lines.count - originY)) {
            let line = Array(lines[row + originY])
            if originX < line.count {
                buffer.write(String(line[originX...]), x: area.x, y: area.y + row, style: theme.frame, clip: area)
            }
        }
        for placed in canvas.placed {
            let node = graph.nodes[placed.node]
            let x = area.x + placed.x - originX
            let y = area.y + placed.y - originY
            let rect = Rect(x: x, y: y, width: placed.width, height: 1).intersection(area)
            guard !rect.isEmpty else { continue }
            var style = theme.style(state: node.state, cancelled: node.isCancelled, inCycle: node.inCycle)
            if node.onCriticalPath { style.attributes.insert(.underline) }
            if node.isFocus { style.attributes.insert(.reverse) }
            buffer.restyle(rect) { $0 = style }
            if let first = node.members.first { map.graphNodes.append(GraphNodeArea(rect: rect, operation: first)) }
        }
        if graph.omitted > 0, area.height > 1 {
            // Say what is left out: operations unrelated to the focus, not a hidden part of it.
            let drawn = model.operations.count - graph.omitted
            let note = focus.map { drawn > 60 ? "\(graph.omitted) not drawn: unlinked to \($0), or past 120" : "\(graph.omitted) not linked to \($0)" }
                ?? (graph.criticalPath.isEmpty ? "\(graph.omitted) older not drawn" : "\(graph.omitted) not on the critical path")
            buffer.write(note, x: area.maxX - note.count - 1, y: area.maxY - 1, style: theme.dim, clip: area)
        }
    }

    private func renderList(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let list = DependencyList.build(model, maximumColumns: max(1, min(24, area.width / 4)))
        let selectedRow = state.selection.flatMap { id in list.rows.firstIndex { $0.operation == id } } ?? 0
        let first = TableView.scrolledOffset(selected: selectedRow, offset: max(0, selectedRow - area.height / 2),
                                             visibleRows: area.height, count: list.rows.count)
        let range = first..<min(list.rows.count, first + area.height)
        let canvas = list.draw(rows: range, width: area.width, marker: { id in
            guard let record = model.operations[id] else { return "?" }
            return StateGlyph.glyph(state: record.state, cancelled: record.isCancelled, inCycle: model.isInCycle(id))
        }, label: { id in model.operations[id]?.label ?? id.description })
        for (row, line) in canvas.lines(unicode: theme.unicode).enumerated() {
            buffer.write(line, x: area.x, y: area.y + row, style: theme.frame, clip: area)
        }
        for placed in canvas.placed {
            let id = OperationID(placed.node)
            guard let record = model.operations[id] else { continue }
            var style = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: model.isInCycle(id))
            if id == state.selection { style.attributes.insert(.reverse) }
            let rect = Rect(x: area.x + placed.x, y: area.y + placed.y, width: placed.width, height: 1).intersection(area)
            buffer.restyle(rect) { $0 = style }
            // The marker in its lane takes the state colour too.
            let lane = list.rows[range.lowerBound + placed.y].column * 2
            buffer.restyle(Rect(x: area.x + lane, y: area.y + placed.y, width: 1, height: 1).intersection(area)) { $0 = style }
            map.graphNodes.append(GraphNodeArea(rect: rect, operation: id))
        }
    }
}
