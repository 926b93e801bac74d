import OperationEvents

extension DashboardModel {
    /// Finds every dependency cycle among unfinished operations (Tarjan, O(V + E)) and names one
    /// simple cycle per strongly connected component. Operations in a cycle never become ready:
    /// the queue deadlocks silently — unless one is cancelled, which releases it (Foundation
    /// stops counting its dependencies), so a cancelled operation closes no cycle.
    mutating func detectCycles() {
        cyclesDirty = false
        var nodes: [OperationID] = []
        operations.forEach { record in
            if record.pointee.state != .finished { nodes.append(record.pointee.id) }
        }
        var index: [OperationID: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (position, id) in nodes.enumerated() { index[id] = position }
        // Edges point from an operation to the operations it waits for.
        let operations = self.operations
        let successors: (Int) -> [Int] = { position in
            (operations.read(nodes[position]) { $0.isCancelled ? [] : $0.dependencies } ?? []).compactMap { index[$0] }
        }
        let components = StronglyConnected.cycles(nodeCount: nodes.count, successors: successors)
        let previous = cycleMembers
        cycleMembers = []
        let named = components.map { component in
            let members = Set(component)
            let start = component.min { nodes[$0] < nodes[$1] }!
            for member in component { cycleMembers.insert(nodes[member]) }
            let cycle = StronglyConnected.shortestCycle(through: start, within: members, successors: successors).map { nodes[$0] }
            return (cycle: cycle, component: component)
        }.sorted { $0.cycle[0] < $1.cycle[0] }
        cycles = named.map(\.cycle)
        // Every member of a component, also one off the cycle that names it, knows its cycle.
        cycleIndex = [:]
        cycleIndex.reserveCapacity(cycleMembers.count)
        for (index, entry) in named.enumerated() {
            for member in entry.component { cycleIndex[nodes[member]] = index }
        }
        if previous != cycleMembers { structureVersion &+= 1 }
    }

    /// Finds the operations on a loop of the whole retained graph, finished ones included
    /// (out-of-order events can leave loops among finished operations). A cancelled operation
    /// waits for nothing, so a cycle broken by a cancel is no loop. Levels ignore the edges
    /// between loop members, which leaves a graph without loops: its longest paths are well
    /// defined, whatever order they were computed in.
    mutating func detectLoops() {
        loopsDirty = false
        loopCheckTrimmed = stream.counters.trimmed
        let table = operations
        let count = table.count
        var ids = [OperationID](repeating: OperationID(0), count: count)
        table.forEach { record in
            if let slot = table.slot(of: record.pointee.id) { ids[slot] = record.pointee.id }
        }
        let successors: (Int) -> [Int] = { slot in
            table.read(slot: slot) { $0.isCancelled ? [] : $0.dependencies }.compactMap { table.slot(of: $0) }
        }
        var members: Set<OperationID> = []
        for component in StronglyConnected.cycles(nodeCount: count, successors: successors) {
            for slot in component { members.insert(ids[slot]) }
        }
        if members != loopMembers {
            loopMembers = members
            levelsDirty = true
        }
    }

    /// After the edge `id` → `dependency` appeared: a loop closes if the dependency waits,
    /// directly or not, for `id`. Looked for within a budget; beyond it, the full check at the
    /// end of the batch decides.
    mutating func mayCloseLoop(_ id: OperationID, through dependency: OperationID) {
        guard !loopsDirty, operations.read(id, { $0.isCancelled }) == false else { return }
        if reaches(from: dependency, to: id, budget: 256) != false {
            loopsDirty = true
            cyclesDirty = true
        }
    }

    /// True when the edge `from` → `to` (`from` waits for `to`) lies on a dependency cycle (both
    /// ends in one strongly connected component): drawn dashed.
    public func isCycleEdge(from: OperationID, to: OperationID) -> Bool {
        guard let index = cycleIndex[from] else { return false }
        return cycleIndex[to] == index
    }

    /// `#3 a waits on #4 b waits on #3 a`.
    /// A long cycle is shortened: its first operations, then how many there are in all.
    public func cycleDescription(_ cycle: [OperationID]) -> String {
        let label = { (id: OperationID) in operations[id]?.label ?? id.description }
        guard cycle.count > 9 else { return cycle.map(label).joined(separator: " waits on ") }
        return cycle.prefix(6).map(label).joined(separator: " waits on ")
            + " waits on … (a cycle of \(cycle.count - 1) operations, back to \(label(cycle[0])))"
    }
}
