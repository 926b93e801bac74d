import DashboardModel
import TerminalKit

extension Interaction {
    /// A click selects what is under it (a row, a queue, a warning, a graph node, a pane); the
    /// wheel scrolls.
    mutating func handleMouse(_ event: MouseEvent, _ model: DashboardModel) -> [Effect] {
        guard mouseEnabled else { return [] }
        switch event.kind {
        case .wheelUp: move(by: -3, model)
        case .wheelDown: move(by: 3, model)
        case .press:
            if let row = map.queueRows.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                state.queue = row.queue
                state.focus = .queues
            } else if map.listBody.contains(x: event.x, y: event.y), state.screen != .overview {
                let line = event.y - map.listBody.y
                guard map.listRows.indices.contains(line) else { return [] }
                if state.screen == .narration {
                    state.narration.cursor = map.listRows[line].entry
                } else if let id = map.listRows[line].operation {
                    select(id, model)
                }
            } else if map.tableBody.contains(x: event.x, y: event.y) {
                let row = event.y - map.tableBody.y
                if map.tableIDs.indices.contains(row) { select(map.tableIDs[row], model) }
                state.focus = .table
            } else if let row = map.warningRows.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                state.warnings.offset = row.index
                state.focus = .warnings
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
