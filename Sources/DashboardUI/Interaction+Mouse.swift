import DashboardModel
import TerminalKit

extension Interaction {
    /// A click selects what is under it (a row, a graph node, a pane); the wheel scrolls.
    mutating func handleMouse(_ event: MouseEvent, _ model: DashboardModel) -> [Effect] {
        guard mouseEnabled else { return [] }
        switch event.kind {
        case .wheelUp: moveSelection(by: -3, model)
        case .wheelDown: moveSelection(by: 3, model)
        case .press:
            if map.tableBody.contains(x: event.x, y: event.y) {
                let row = event.y - map.tableBody.y
                if map.tableIDs.indices.contains(row) { select(map.tableIDs[row], model) }
                state.focus = .table
            } else if let node = map.graphNodes.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(node.operation, model)
                state.focus = .graph
            } else if let pane = map.panes.first(where: { $0.value.contains(x: event.x, y: event.y) })?.key {
                state.focus = pane
            } else {
                return []
            }
        }
        return [.redraw]
    }
}
