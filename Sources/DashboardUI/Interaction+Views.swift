import DashboardModel
import OperationEvents

extension Interaction {
    /// Digits: switch the whole-screen view.
    mutating func show(_ screen: ViewState.Screen) {
        state.screen = screen
        if screen == .narration, !state.narration.isOn, state.narration.entries.isEmpty {
            status("narration is off: t turns it on")
        }
    }

    /// The operations a list view lists, top to bottom (what ↑ and ↓ go through there).
    static func listedOperations(_ screen: ViewState.Screen, _ model: DashboardModel) -> [OperationID] {
        switch screen {
        case .stuck:
            RootCauseGroups.build(model).groups.flatMap(\.members)
        case .startOrder:
            StartOrderList.build(model).compactMap { row in
                if case .operation(let id, _) = row { return id }
                return nil
            }
        case .timeline: TimelineLayout.listed(model)
        case .overview, .narration: []
        }
    }

    /// ↑ ↓ in a list view: the selection through the listed operations, or the narration log's
    /// cursor through its entries.
    mutating func moveInView(by delta: Int, _ model: DashboardModel) {
        if state.screen == .narration {
            let count = state.narration.entries.count
            guard count > 0 else { return }
            let current = state.narration.cursor ?? count - 1
            let next = min(max(0, current.addingClamped(delta)), count - 1)
            // Back at the newest entry: follow new ones again.
            state.narration.cursor = next == count - 1 ? nil : next
            return
        }
        let ids = Self.listedOperations(state.screen, model)
        guard !ids.isEmpty else { return }
        // From outside the list, down enters at the top and up at the bottom.
        let current = state.selection.flatMap { ids.firstIndex(of: $0) } ?? (delta > 0 ? -1 : ids.count)
        select(ids[min(max(0, current.addingClamped(delta)), ids.count - 1)], model)
    }

    /// Enter: in a list view, go to the operation; on a queue, show its operations; on a
    /// warning, go to its operation; otherwise open the details.
    mutating func enter(_ model: DashboardModel) -> [Effect] {
        switch state.screen {
        case .narration:
            let entries = state.narration.entries
            guard let entry = state.narration.cursor.map({ entries[min($0, entries.count - 1)] }) ?? entries.last else { return [] }
            guard let id = entry.operation else { return error("this sentence is about a queue, not an operation") }
            return reveal(id, model)
        case .stuck, .startOrder, .timeline:
            guard let id = state.selection else { return [] }
            return reveal(id, model)
        case .overview:
            break
        }
        switch state.focus {
        case .queues:
            guard let queue = state.queue else { return [] }
            state.table.filter = "queue:\(queue)"
            state.focus = .table
            status("operations of \(queue) only (Esc clears the filter)")
        case .warnings:
            let warnings = model.warnings()
            guard !warnings.isEmpty else { return [] }
            let warning = warnings[min(state.warnings.offset, warnings.count - 1)]
            guard let id = warning.operation else { return error("this warning is about the whole program") }
            return reveal(id, model)
        case .graph where state.details == nil:
            if let effects = enterGraph(model) { return effects }
            state.details = ViewState.ScrollState()
        default:
            state.details = ViewState.ScrollState()
        }
        return [.redraw]
    }

    /// `n` / `N`: the next (previous) stuck operation after the selection, in the order the
    /// current view lists them.
    mutating func jumpToStuck(forward: Bool, _ model: DashboardModel) -> [Effect] {
        let stuck = StuckOperations.find(model)
        guard !stuck.isEmpty else { return error("nothing is stuck: no cycle, suspended queue, lost finish or missing dependency") }
        let order = state.screen == .overview ? rows(model) : Self.listedOperations(state.screen, model)
        let candidates = order.filter(stuck.contains)
        guard !candidates.isEmpty else {
            return error("\(stuck.count) stuck operation\(stuck.count == 1 ? " is" : "s are") hidden by the filter (Esc clears it)")
        }
        let position = state.selection.flatMap { order.firstIndex(of: $0) }
        let target: OperationID
        if let position {
            let after = forward ? order[(position + 1)...].first(where: stuck.contains) : order[..<position].last(where: stuck.contains)
            target = after ?? (forward ? candidates.first! : candidates.last!)
        } else {
            target = forward ? candidates.first! : candidates.last!
        }
        select(target, model)
        let index = candidates.firstIndex(of: target)! + 1
        status("stuck \(index) of \(candidates.count): \(Self.stuckReason(target, model))")
        return [.redraw]
    }

    /// Why `id` is stuck, short: its diagnosis when it waits; when it runs (a root cause), what
    /// its warning says is wrong.
    static func stuckReason(_ id: OperationID, _ model: DashboardModel) -> String {
        if let diagnosis = model.diagnosis(of: id) { return diagnosis.message }
        guard let record = model.operations[id] else { return id.description }
        let running = DurationText.format(record.runTime(now: model.now) ?? 0)
        let reasons = model.warnings().filter { $0.operation == id }.compactMap { warning -> String? in
            switch warning.kind {
            case .unsignalledFinish: "finish not signalled (isFinished reads true, its queue was never told)"
            case .longRunningAsynchronous: "asynchronous, executing \(running): never calls finish()?"
            case .longRunningSynchronous: "executing \(running): main() never returns?"
            case .cancelledStillExecuting: "cancelled, still executing after \(running): does it check isCancelled?"
            case .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted, .dependencyNeverEnqueued, .cycle, .suspendedQueueWithWork, .droppedEvents: nil
            }
        }
        return record.label + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
    }
}
