import DashboardModel
import OperationEvents

extension Interaction {
    /// Keeps the selection on an operation the table shows and the selected queue on a queue
    /// the model has. A filter that hides the selection moves it to the first row, and it comes
    /// back when a later filter shows it again. Also moves the status line's clock on.
    public mutating func keepSelectionValid(_ model: DashboardModel) {
        clock = max(clock, model.now)
        if let status = state.status, !status.isShown(at: clock) { state.status = nil }
        if state.table.tagged.contains(where: { !model.operations.contains($0) }) {
            state.table.tagged = state.table.tagged.filter { model.operations.contains($0) }
        }
        if let queue = state.queue, model.queues[queue] == nil { state.queue = nil }
        let shown = OperationRows.Visibility(model, state.table)
        if let displaced = state.table.displacedSelection, shown.includes(displaced) {
            state.selection = displaced
            state.table.displacedSelection = nil
        }
        if let id = state.selection, shown.includes(id) {
            if state.queue == nil { state.queue = model.operations[id]?.queue ?? model.queues.ids.min() }
            return
        }
        if let id = state.selection, model.operations.contains(id), state.table.displacedSelection == nil {
            state.table.displacedSelection = id
        }
        let first = rows(model).first
        state.selection = first
        if state.queue == nil { state.queue = first.flatMap { model.operations[$0]?.queue } ?? model.queues.ids.min() }
    }

    /// The table's rows for `model`, from the last frame's when they still hold.
    mutating func rows(_ model: DashboardModel) -> [OperationID] {
        map.rows = OperationRows.rows(model, state.table, reusing: map.rows)
        return map.rows.ids
    }

    /// Moves in whatever has the keys: a list view, the queues, the warnings, the details, or
    /// the table.
    mutating func move(by delta: Int, _ model: DashboardModel) {
        if state.screen != .overview { return moveInView(by: delta, model) }
        switch state.focus {
        case .queues: moveQueue(by: delta, model)
        case .warnings:
            let count = model.warnings().count
            state.warnings.offset = min(max(0, state.warnings.offset.addingClamped(delta)), max(0, count - 1))
        case .graph where state.details != nil:
            let details = state.details?.offset ?? 0
            state.details = ViewState.ScrollState(offset: max(0, details.addingClamped(delta)))
        case .graph: moveInGraph(by: delta, model)
        default: moveSelection(by: delta, model)
        }
    }

    /// Moves the selection through the table's rows.
    mutating func moveSelection(by delta: Int, _ model: DashboardModel) {
        let ids = rows(model)
        guard !ids.isEmpty else { return }
        let current = state.selection.flatMap { ids.firstIndex(of: $0) } ?? 0
        select(ids[min(max(0, current.addingClamped(delta)), ids.count - 1)], model)
    }

    /// ↑ ↓ in the queues pane: every queue, empty ones too.
    mutating func moveQueue(by delta: Int, _ model: DashboardModel) {
        let ids = model.queues.ids.sorted()
        guard !ids.isEmpty else { return }
        let current = state.queue.flatMap { ids.firstIndex(of: $0) } ?? 0
        state.queue = ids[min(max(0, current.addingClamped(delta)), ids.count - 1)]
    }

    /// Selects an operation; its queue becomes the selected queue. A choice the person made
    /// replaces any selection a filter moved away from.
    mutating func select(_ id: OperationID, _ model: DashboardModel) {
        state.selection = id
        state.table.displacedSelection = nil
        if state.details != nil { state.details = ViewState.ScrollState() }
        if let queue = model.operations[id]?.queue { state.queue = queue }
    }

    /// Shows `id` in the overview with its details, clearing a filter (or `H`) that hides it.
    mutating func reveal(_ id: OperationID, _ model: DashboardModel) -> [Effect] {
        guard model.operations.contains(id) else { return error("\(id) is no longer retained") }
        state.screen = .overview
        if !OperationRows.Visibility(model, state.table).includes(id) {
            state.table.filter = ""
            state.table.hideFinished = false
            status("filter cleared to show \(id)")
        }
        select(id, model)
        state.focus = .table
        state.details = ViewState.ScrollState()
        return [.redraw]
    }
}

extension Int {
    /// `self + other` without overflow (Home and End move by huge amounts).
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
