import OperationEvents

/// The dependency cycles of the retained graph, kept up to date as edges come and go.
///
/// Two sets, for two readers. *Cycles* are among unfinished operations (Tarjan, one simple
/// cycle named per strongly connected component): operations in one never become ready, the
/// queue deadlocks silently, and the dashboard says so. *Loops* are over the whole retained
/// graph, finished operations included (out-of-order events can leave loops among finished
/// ones): levels ignore the edges between loop members, which leaves a graph without loops
/// whose longest paths are well defined. A cancelled operation waits for nothing (Foundation
/// stops counting its dependencies), so it closes neither.
///
/// Edge changes mark the sets dirty (`markChanged`); the model runs the full checks once, at the
/// end of its batch.
struct DependencyCycles: Sendable {
    /// Each cycle in dependency order, first id repeated at the end, sorted by first id.
    private(set) var cycles: [[OperationID]] = []
    /// Operations that are members of a cycle (of its strongly connected component).
    private(set) var members: Set<OperationID> = []
    /// For each member of a cycle's strongly connected component, the index in `cycles` of the
    /// cycle that names the component (a member may lie on another cycle of it).
    private(set) var cycleIndex: [OperationID: Int] = [:]
    /// Operations on a loop of the retained graph, finished or not.
    private(set) var loopMembers: Set<OperationID> = []
    /// An edge that could close a cycle changed, or a member finished.
    private(set) var cyclesDirty = false
    /// An edge that could close a loop appeared, or one on a loop went.
    private(set) var loopsDirty = false
    /// The trimmed count when loops were last found: a trimmed member may open a loop.
    private var loopCheckTrimmed = 0

    /// True if `id` is in a dependency cycle. Most models have none: no set lookup then.
    @inline(__always)
    func isMember(_ id: OperationID) -> Bool { !members.isEmpty && members.contains(id) }

    /// True if `id` is on a loop of the retained graph.
    @inline(__always)
    func isOnLoop(_ id: OperationID) -> Bool { !loopMembers.isEmpty && loopMembers.contains(id) }

    /// True when the edge `from` → `to` (`from` waits for `to`) lies on a dependency cycle (both
    /// ends in one strongly connected component).
    func isCycleEdge(from: OperationID, to: OperationID) -> Bool {
        guard let index = cycleIndex[from] else { return false }
        return cycleIndex[to] == index
    }

    /// Something changed that may close or open cycles (`cycles`), or loops too (`loops`): the
    /// checks run at the end of the batch.
    mutating func markChanged(loops: Bool) {
        cyclesDirty = true
        if loops { loopsDirty = true }
    }

    /// Forgets everything found (a keyframe replaced the state): both checks run again.
    mutating func reset() {
        self = DependencyCycles()
        cyclesDirty = true
        loopsDirty = true
    }

    /// After the edge `id` → `dependency` appeared: a loop closes if the dependency waits,
    /// directly or not, for `id`. Looked for within a budget; beyond it, the full check at the
    /// end of the batch decides.
    mutating func mayCloseLoop(_ id: OperationID, through dependency: OperationID, in operations: borrowing OperationRecords) {
        guard !loopsDirty, operations.read(id, { $0.isCancelled }) == false else { return }
        if Self.reaches(from: dependency, to: id, budget: 256, in: operations) != false { markChanged(loops: true) }
    }

    /// The checks a batch leaves for its end: loops when edges on them changed or a member was
    /// trimmed (then cycles too, as they may close or open among unfinished operations), cycles
    /// when dirty. Returns whether the loop members changed (levels must be recomputed) and
    /// whether the cycle members did (the structure changed).
    mutating func update(_ operations: borrowing OperationRecords, trimmed: Int) -> (loopsChanged: Bool, cyclesChanged: Bool) {
        if !loopMembers.isEmpty, trimmed != loopCheckTrimmed { loopsDirty = true }
        var loopsChanged = false
        if loopsDirty {
            loopsChanged = detectLoops(operations, trimmed: trimmed)
            cyclesDirty = true
        }
        guard cyclesDirty else { return (loopsChanged, false) }
        return (loopsChanged, detectCycles(operations))
    }

    /// Finds every dependency cycle among unfinished operations (Tarjan, O(V + E)) and names one
    /// simple cycle per strongly connected component. Returns whether the members changed.
    private mutating func detectCycles(_ operations: borrowing OperationRecords) -> Bool {
        cyclesDirty = false
        var nodes: [OperationID] = []
        operations.forEach { record in
            if record.pointee.state != .finished { nodes.append(record.pointee.id) }
        }
        var index: [OperationID: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (position, id) in nodes.enumerated() { index[id] = position }
        // Edges point from an operation to the operations it waits for.
        let table = copy operations
        let successors: (Int) -> [Int] = { position in
            (table.read(nodes[position]) { $0.isCancelled ? [] : $0.dependencies } ?? []).compactMap { index[$0] }
        }
        let components = StronglyConnected.cycles(nodeCount: nodes.count, successors: successors)
        let previous = members
        members = []
        let named = components.map { component in
            let componentMembers = Set(component)
            let start = component.min { nodes[$0] < nodes[$1] }!
            for member in component { members.insert(nodes[member]) }
            let cycle = StronglyConnected.shortestCycle(through: start, within: componentMembers, successors: successors).map { nodes[$0] }
            return (cycle: cycle, component: component)
        }.sorted { $0.cycle[0] < $1.cycle[0] }
        cycles = named.map(\.cycle)
        // Every member of a component, also one off the cycle that names it, knows its cycle.
        cycleIndex = [:]
        cycleIndex.reserveCapacity(members.count)
        for (index, entry) in named.enumerated() {
            for member in entry.component { cycleIndex[nodes[member]] = index }
        }
        return previous != members
    }

    /// Finds the operations on a loop of the whole retained graph. Returns whether they changed.
    private mutating func detectLoops(_ operations: borrowing OperationRecords, trimmed: Int) -> Bool {
        loopsDirty = false
        loopCheckTrimmed = trimmed
        let table = copy operations
        let count = table.count
        var ids = [OperationID](repeating: OperationID(0), count: count)
        table.forEach { record in
            if let slot = table.slot(of: record.pointee.id) { ids[slot] = record.pointee.id }
        }
        let successors: (Int) -> [Int] = { slot in
            table.read(slot: slot) { $0.isCancelled ? [] : $0.dependencies }.compactMap { table.slot(of: $0) }
        }
        var found: Set<OperationID> = []
        for component in StronglyConnected.cycles(nodeCount: count, successors: successors) {
            for slot in component { found.insert(ids[slot]) }
        }
        guard found != loopMembers else { return false }
        loopMembers = found
        return true
    }

    /// Whether `start` waits, directly or transitively, on `target` (then a new edge
    /// target → start closes a loop); nil when `budget` operations were visited without an
    /// answer. Cancelled operations wait for nothing.
    private static func reaches(from start: OperationID, to target: OperationID, budget: Int,
                                in operations: borrowing OperationRecords) -> Bool? {
        if start == target { return true }
        var seen: Set<OperationID> = [start]
        var stack = [start]
        var budget = budget
        while let current = stack.popLast() {
            guard budget > 0 else { return nil }
            budget -= 1
            guard let (dependencies, cancelled) = operations.read(current, { ($0.dependencies, $0.isCancelled) }),
                  !cancelled else { continue }
            for dependency in dependencies {
                if dependency == target { return true }
                if seen.insert(dependency).inserted { stack.append(dependency) }
            }
        }
        return false
    }
}
