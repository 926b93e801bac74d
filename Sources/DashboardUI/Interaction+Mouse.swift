import DashboardModel
import TerminalKit

extension Interaction {
    /// A click selects what is under it (a row, a queue, a graph node, an operation in the QoS
    /// lanes, a pane), goes to a warning's operation (as Enter on it), and acts as the key of the
    /// key bar entry it is on; the wheel scrolls.
    mutating func handleMouse(_ event: MouseEvent, _ model: DashboardModel) -> [Effect] {
        guard mouseEnabled else { return [] }
        switch event.kind {
        case .wheelUp: move(by: -3, model)
        case .wheelDown: move(by: 3, model)
        case .press:
            if let entry = map.keyBar.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                return clickKeyBar(entry.action, model)
            } else if let row = map.queueRows.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
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
                return enter(model)
            } else if let node = map.graphNodes.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(node.operation, model)
                state.focus = .graph
            } else if let entry = map.laneOperations.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(entry.operation, model)
                state.focus = .lanes
            } else if let pane = map.panes.first(where: { $0.value.contains(x: event.x, y: event.y) })?.key {
                state.focus = pane
            } else {
                return []
            }
        }
        return [.redraw]
    }

    /// A key bar entry clicked: what its key does. `1-5 View` stands for five keys: a click shows
    /// the next view, so that clicking it again goes through them all.
    private mutating func clickKeyBar(_ action: UserAction, _ model: DashboardModel) -> [Effect] {
        guard action == .showOverview else { return perform(action, model) }
        let screens = ViewState.Screen.allCases
        let index = screens.firstIndex(of: state.screen) ?? 0
        show(screens[(index + 1) % screens.count])
        return [.redraw]
    }

    /// The mouse over an overlay: the wheel scrolls the help (and leaves the legend open), a
    /// click inside the help or the legend does nothing and one outside closes it. Nil: the
    /// overlay takes the event as a key (the picker, a question).
    mutating func handleOverlayMouse(_ event: MouseEvent, _ overlay: ViewState.Overlay) -> [Effect]? {
        let inside = map.overlayBody.inset(by: -1).contains(x: event.x, y: event.y)
        switch (overlay, event.kind) {
        case (.help(let offset), .wheelUp), (.help(let offset), .wheelDown):
            guard mouseEnabled else { return [] }
            let last = max(0, map.overlayLines - map.overlayBody.height)
            let step = event.kind == .wheelUp ? -3 : 3
            state.overlay = .help(offset: min(max(0, offset + step), last))
            return [.redraw]
        case (.legend, .wheelUp), (.legend, .wheelDown):
            return []
        case (.help, .press), (.legend, .press):
            guard mouseEnabled, !inside else { return [] }
            state.overlay = nil
            return [.redraw]
        default:
            return nil
        }
    }
}
