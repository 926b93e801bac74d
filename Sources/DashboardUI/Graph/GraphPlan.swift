import DashboardModel
import OperationEvents

/// What the graph pane shows, as a list of entries drawn one under the other: the selection's
/// group, a pinned blocking chain, or every group (stuck first, then running, then waiting, and
/// the groups in which everything finished as one line, until opened, the selection's own
/// group apart).
struct GraphPlan {
    /// One entry of the pane.
    enum Entry: Equatable {
        /// A group: in the whole graph, a component's index; otherwise 0.
        case group(Int)
        /// The whole graph's last line: groups in which everything finished.
        case finishedGroups(groups: Int, operations: Int)
    }

    /// Which picture.
    enum Mode: Equatable {
        case focused(OperationID)
        case pinned(OperationID)
        case all
    }

    /// Boxes a group draws before counting the rest as hidden edges (doubled by Enter on the count).
    static let focusedBudget = 120
    static let groupBudget = 60

    let mode: Mode
    private(set) var entries: [Entry] = []
    private(set) var components: GraphComponents?
    let graphState: ViewState.GraphState
    /// Never folded or elided: the selection, the cursor, the pinned chain.
    private(set) var keep: Set<OperationID> = []
    private(set) var chain: [OperationID] = []

    init(_ model: DashboardModel, _ state: ViewState, memory: inout GraphPaneMemory, queues: QueueFlags) {
        graphState = state.graph
        let selection = state.selection.flatMap { model.operations.contains($0) ? $0 : nil }
        if let selection { keep.insert(selection) }
        if let cursor = state.graph.cursorKey(selection: state.selection)?.operation { keep.insert(cursor) }
        if state.graph.layout == .focused, let pinned = state.graph.pinned, model.operations.contains(pinned) {
            mode = .pinned(pinned)
            chain = memory.chain(of: pinned, in: model)
            keep.formUnion(chain)
            entries = [.group(0)]
        } else if state.graph.layout == .focused {
            guard let focus = selection ?? model.operations.values.map(\.id).min() else {
                mode = .all
                return
            }
            mode = .focused(focus)
            entries = [.group(0)]
        } else {
            mode = .all
            let components = memory.components(of: model, queues: queues)
            self.components = components
            let live = components.components.firstIndex { $0.rank == .finished } ?? components.count
            entries = (0..<live).map { .group($0) }
            if live < components.count {
                if state.graph.expanded.contains(.finishedGroups) {
                    entries += (live..<components.count).map { .group($0) }
                } else {
                    // The selection's finished group stays open above the line: the selection is
                    // never folded away.
                    let open = Set(keep.compactMap { components.component(of: $0, in: model) }.filter { $0 >= live }).sorted()
                    entries += open.map { .group($0) }
                    let folded = components.components.count - live - open.count
                    if folded > 0 {
                        let operations = components.components[live...].reduce(0) { $0 + $1.size } - open.reduce(0) { $0 + components.components[$1].size }
                        entries.append(.finishedGroups(groups: folded, operations: operations))
                    }
                }
            }
        }
    }

    private var boost: Int { 1 << min(max(0, graphState.budgetLevel), 6) }

    /// The entry holding `key`, if any.
    func entry(of key: GraphItemKey?, _ model: DashboardModel) -> Int? {
        guard let key, !entries.isEmpty else { return nil }
        guard case .all = mode, let components else { return 0 }
        let id: OperationID
        switch key {
        case .finishedGroups: return entries.firstIndex { if case .finishedGroups = $0 { true } else { false } }
        case .hiddenEdges(let block): id = block
        case .node(.operation(let member)), .node(.finished(let member)), .node(.siblings(let member)), .node(.elided(let member)):
            id = member
        }
        guard let component = components.component(of: id, in: model) else { return nil }
        if let index = entries.firstIndex(of: .group(component)) { return index }
        return entries.firstIndex { if case .finishedGroups = $0 { true } else { false } }
    }

    /// Where entry `index`'s layout is kept.
    func slot(_ index: Int) -> GraphPaneMemory.LayoutSlot {
        switch mode {
        case .focused: GraphPaneMemory.LayoutSlot(kind: .focused, key: OperationID(0))
        case .pinned(let id): GraphPaneMemory.LayoutSlot(kind: .pinned, key: id)
        case .all:
            if case .group(let component) = entries[index], let components {
                GraphPaneMemory.LayoutSlot(kind: .group, key: components.components[component].key)
            } else {
                GraphPaneMemory.LayoutSlot(kind: .group, key: OperationID(0))
            }
        }
    }

    /// The hashed shape and states of entry `index`'s group in the whole graph (nil otherwise):
    /// its drawing holds while this does, however the rest of the model changes.
    func signature(_ index: Int) -> UInt64? {
        guard case .all = mode, case .group(let place) = entries[index], let components else { return nil }
        return components.components[place].signature
    }

    /// True when entry `index` is a group (drawn as a block), not a line.
    func isGroup(_ index: Int) -> Bool {
        if case .group = entries[index] { return true }
        return false
    }

    /// The block of entry `index` (nil for the finished-groups line); `unicode` false for `--ascii`.
    func block(_ index: Int, _ model: DashboardModel, queues: QueueFlags, unicode: Bool = true) -> GraphBlock? {
        guard case .group(let component) = entries[index] else { return nil }
        let request: BlockRequest
        switch mode {
        case .focused(let focus):
            request = BlockRequest(key: focus, seeds: [focus], budget: Self.focusedBudget * boost, keep: keep,
                                   expanded: graphState.expanded)
        case .pinned(let pinned):
            let extra = graphState.budgetLevel > 0 ? Self.groupBudget / 2 * boost : 0
            request = BlockRequest(key: pinned, seeds: chain, budget: chain.count + extra, keep: keep, expanded: graphState.expanded)
        case .all:
            guard let components else { return nil }
            let budget = Self.groupBudget * boost
            var seeds = components.seeds(component, limit: budget)
            // The selection's own group starts from it too, so that it is never left out.
            for id in keep where components.component(of: id, in: model) == component && !seeds.contains(id) { seeds.insert(id, at: 0) }
            request = BlockRequest(key: components.components[component].key, seeds: seeds, budget: budget, keep: keep,
                                   expanded: graphState.expanded)
        }
        var marked = request
        marked.unicode = unicode
        return GraphBlock.build(model, marked, queues: queues)
    }

    /// The text of entry `index` when it is a line, not a group.
    func line(_ index: Int) -> (String, GraphItemKey)? {
        guard case .finishedGroups(let groups, let operations) = entries[index] else { return nil }
        let text = "✓ \(operations) finished operation\(operations == 1 ? "" : "s") in \(groups) group\(groups == 1 ? "" : "s") ▸"
        return (text, .finishedGroups)
    }
}
