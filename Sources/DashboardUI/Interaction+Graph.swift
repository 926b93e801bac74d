import DashboardModel
import OperationEvents

/// The graph pane's keys: `g` the selection's group or every group, `f` the blocking chain,
/// `z` compact, `h` `l` (← →) pan, ↑ ↓ (and the page keys) move the cursor through the boxes
/// in reading order, Enter opens a fold (on an operation: its details).
extension Interaction {
    /// `g`: the selection's group, or every group (what Enter opened folds again).
    mutating func toggleGraphLayout() {
        state.graph.layout = state.graph.layout == .focused ? .all : .focused
        state.graph.expanded = []
        state.graph.budgetLevel = 0
        state.graph.cursor = nil
        state.details = nil
        if state.screen == .overview { state.focus = .graph }
        status(state.graph.layout == .all
            ? "graph: every group, stuck first, then running, then waiting (g: the selection's group)"
            : "graph: the selection's group (g: every group)")
    }

    /// `f`: the pane stays on the selection's blocking chain, or follows the selection again.
    mutating func toggleGraphFollow(_ model: DashboardModel) -> [Effect] {
        if let pinned = state.graph.pinned {
            state.graph.pinned = nil
            status("graph follows the selection again (it stayed on \(pinned)'s chain)")
        } else {
            guard let id = state.selection, model.operations.contains(id) else { return error("select an operation first, then f") }
            state.graph.pinned = id
            state.graph.layout = .focused
            state.graph.cursor = nil
            state.details = nil
            if state.screen == .overview { state.focus = .graph }
            let why = model.diagnosis(of: id)?.message ?? "\(model.operations[id]?.label ?? id.description) is not waiting on anything"
            status("graph stays on this chain until f: \(why)")
        }
        return [.redraw]
    }

    /// `h` `l` (← →) while the graph is shown, whichever pane has the keys (no other pane takes
    /// them, and a pan that stopped when Tab moved on read as a broken key): a third of the pane
    /// sideways.
    mutating func panGraph(left: Bool) -> [Effect] {
        guard state.screen == .overview, state.details == nil, !(map.panes[.graph]?.isEmpty ?? true) else {
            return error(state.screen == .overview && state.details == nil
                ? "the graph is not shown: Tab to it (or g), then h l pan it" : "h l pan the graph: it shows on the overview (1), details closed (Esc)")
        }
        let memory = map.graph
        let step = max(4, memory.viewWidth / 3)
        let widest = max(0, memory.contentWidth - memory.viewWidth)
        map.graph.panX = max(0, min(widest, memory.clampedPan + (left ? -step : step)))
        return [.redraw]
    }

    /// `z`: one cell per box, or labelled boxes.
    mutating func toggleGraphCompact() {
        state.graph.compact.toggle()
        status(state.graph.compact ? "graph: one cell per box; the cursor's label is under it (z: labels)" : "graph: labelled boxes")
    }

    /// ↑ ↓ (and the page keys) with the graph focused: the cursor through what the pane drew,
    /// in reading order, on into the group above or below; Home and End: the first item and the
    /// last (the last group's first while that group is not drawn).
    mutating func moveInGraph(by delta: Int, _ model: DashboardModel) {
        let memory = map.graph
        let items = memory.items
        guard !items.isEmpty else { return }
        let current = state.graph.cursorKey(selection: state.selection)
        let position = current.flatMap { key in items.firstIndex { $0.key == key } }
        let target: GraphItemKey?
        if delta <= -Int.max / 4 {
            target = memory.first ?? items.first?.key
        } else if delta >= Int.max / 4 {
            // The last item when the last group is drawn; else the last group's first.
            target = memory.after == nil ? items.last?.key : memory.last ?? items.last?.key
        } else if let position {
            let next = position.addingClamped(delta)
            if next < 0 {
                target = position == 0 ? memory.before ?? items.first?.key : items.first?.key
            } else if next >= items.count {
                target = position == items.count - 1 ? memory.after ?? items.last?.key : items.last?.key
            } else {
                target = items[next].key
            }
        } else {
            target = delta > 0 ? items.first?.key : items.last?.key
        }
        if let target { putGraphCursor(on: target, model) }
    }

    /// Puts the cursor on `key`: an operation becomes the selection; anything else holds the
    /// cursor while the selection stays.
    mutating func putGraphCursor(on key: GraphItemKey, _ model: DashboardModel) {
        if let id = key.operation {
            guard model.operations.contains(id) else { return }
            select(id, model)
            state.graph.cursor = nil
        } else {
            state.graph.cursor = key
            state.graph.cursorSelection = state.selection
        }
    }

    /// Enter with the graph focused: on a fold or a count, open it (the cursor goes to the first
    /// operation it held); nil on an operation, whose details open.
    mutating func enterGraph(_ model: DashboardModel) -> [Effect]? {
        guard let key = state.graph.cursorKey(selection: state.selection), key.operation == nil else { return nil }
        switch key {
        case .hiddenEdges:
            state.graph.budgetLevel += 1
            status("each group may now draw \(1 << min(state.graph.budgetLevel, 6))× as many boxes (g resets)")
        case .finishedGroups:
            state.graph.expanded.insert(key)
            status("finished groups opened (g folds them again)")
        case .node(let node):
            state.graph.expanded.insert(key)
            let first: OperationID
            switch node {
            case .operation(let id), .finished(let id), .siblings(let id), .elided(let id): first = id
            }
            status("opened: each operation in its own box (g folds them again)")
            putGraphCursor(on: .node(.operation(first)), model)
        }
        return [.redraw]
    }
}
