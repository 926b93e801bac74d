import DashboardModel
import OperationEvents

extension Interaction {
    /// Keeps the selection on an operation the table shows (the first row when it vanished) and
    /// the selected queue on a queue the model still has.
    public mutating func keepSelectionValid(_ model: DashboardModel) {
        if let id = state.selection, model.operations.contains(id) {
            state.queue = model.operations[id]?.queue ?? state.queue
            return
        }
        let ids = OperationRows.ids(model, state)
        state.selection = ids.first
        if let first = ids.first {
            state.queue = model.operations[first]?.queue
        } else if state.queue.map({ model.queues[$0] == nil }) ?? true {
            state.queue = model.queues.ids.min()
        }
        state.table.tagged = state.table.tagged.filter { model.operations.contains($0) }
    }

    /// Moves the selection (or scrolls the focused pane when it is not the table).
    mutating func moveSelection(by delta: Int, _ model: DashboardModel) {
        if state.focus == .warnings {
            state.warnings.offset = max(0, state.warnings.offset + delta)
            return
        }
        if let details = state.details, state.focus != .table {
            state.details = ViewState.ScrollState(offset: max(0, details.offset + delta))
            return
        }
        let ids = OperationRows.ids(model, state)
        guard !ids.isEmpty else { return }
        let current = state.selection.flatMap { ids.firstIndex(of: $0) } ?? 0
        select(ids[min(max(0, current + delta), ids.count - 1)], model)
    }

    /// Selects the row at `index` (clamped).
    mutating func moveSelection(to index: Int, _ model: DashboardModel) {
        let ids = OperationRows.ids(model, state)
        guard !ids.isEmpty else { return }
        select(ids[min(max(0, index), ids.count - 1)], model)
    }

    /// Selects an operation; its queue becomes the selected queue.
    mutating func select(_ id: OperationID, _ model: DashboardModel) {
        state.selection = id
        if state.details != nil { state.details = ViewState.ScrollState() }
        if let queue = model.operations[id]?.queue { state.queue = queue }
    }
}
