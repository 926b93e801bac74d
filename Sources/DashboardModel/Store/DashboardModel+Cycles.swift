import OperationEvents

extension DashboardModel {
    /// Finds every dependency cycle among unfinished operations (Tarjan, O(V + E)) and names one
    /// simple cycle per strongly connected component. Operations in a cycle never become ready:
    /// the queue deadlocks silently.
    mutating func detectCycles() {
        cyclesDirty = false
        let nodes = operations.values.filter { $0.state != .finished }.map(\.id)
        var index: [OperationID: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (position, id) in nodes.enumerated() { index[id] = position }
        // Edges point from an operation to the operations it waits for.
        let operations = self.operations
        let successors: (Int) -> [Int] = { position in
            operations[nodes[position]]!.dependencies.compactMap { index[$0] }
        }
        let components = StronglyConnected.cycles(nodeCount: nodes.count, successors: successors)
        let previous = cycleMembers
        cycleMembers = []
        cycles = components.map { component in
            let members = Set(component)
            let start = component.min { nodes[$0] < nodes[$1] }!
            for member in component { cycleMembers.insert(nodes[member]) }
            return StronglyConnected.shortestCycle(through: start, within: members, successors: successors).map { nodes[$0] }
        }.sorted { $0[0] < $1[0] }
        if previous != cycleMembers {
            for id in previous.union(cycleMembers) where operations[id] != nil { relevel(from: id) }
            structureVersion &+= 1
        }
    }

    /// True when the edge `from` → `to` (`from` waits for `to`) lies inside one cycle: drawn as a back edge.
    public func isCycleEdge(from: OperationID, to: OperationID) -> Bool {
        cycleMembers.contains(from) && cycleMembers.contains(to) && cycles.contains { $0.contains(from) && $0.contains(to) }
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
