import DequeModule
import OperationEvents

extension DashboardModel {
    /// 1 + the largest level of the operation's retained dependencies; cycle edges are ignored,
    /// so the value is finite even in a deadlocked graph.
    func computedLevel(of id: OperationID) -> Int {
        guard let dependencies = operations.read(id, { $0.dependencies }) else { return 0 }
        var level = 0
        for dependency in dependencies {
            guard let dependencyLevel = operations.read(dependency, { $0.level }) else { continue }
            if !cycleMembers.isEmpty, cycleMembers.contains(id), cycleMembers.contains(dependency) { continue }
            level = max(level, dependencyLevel + 1)
        }
        return level
    }

    /// Recomputes levels from `id` down through its dependents after an edge changed.
    /// Bounded: a graph with a cycle stops after every operation was visited a few times.
    mutating func relevel(from id: OperationID) {
        var queue: Deque<OperationID> = [id]
        var budget = operations.count * 4 + 16
        while let current = queue.popFirst(), budget > 0 {
            budget -= 1
            guard operations[current] != nil else { continue }
            let level = computedLevel(of: current)
            if level == operations.read(current, { $0.level })!, current != id { continue }
            operations[current]!.level = level
            queue.append(contentsOf: operations.read(current, { $0.dependents })!)
        }
        if budget <= 0 { cyclesDirty = true }
    }

    /// True if `start` depends, directly or transitively, on `target`: then a new edge
    /// target → start (target depends on start) closes a cycle.
    func reaches(from start: OperationID, to target: OperationID) -> Bool {
        if start == target { return true }
        var seen: Set<OperationID> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            guard let record = operations[current] else { continue }
            for dependency in record.dependencies {
                if dependency == target { return true }
                if seen.insert(dependency).inserted { stack.append(dependency) }
            }
        }
        return false
    }
}
