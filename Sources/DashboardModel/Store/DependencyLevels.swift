import DequeModule
import OperationEvents

/// Where each operation sits in the dependency graph: its level (1 + the largest level of what
/// it waits for) and its blocker (the first dependency still unfinished), both kept in the
/// stream state's records. Followed event by event within a budget; what reaches further is
/// recomputed at once at the batch's end (`dirty`).
struct DependencyLevels: Sendable {
    /// Levels changed further than one event may follow: recompute them at the batch's end.
    var dirty = false

    /// Operations one event may relevel before the rest is left to the batch's end.
    static let relevelBudget = 512

    /// 1 + the largest level of the operation's retained dependencies; edges between operations
    /// on loops are ignored, so the value is finite even in a deadlocked graph. A cancelled
    /// operation waits for nothing (Foundation releases it): 0.
    static func computedLevel(of id: OperationID, _ operations: OperationRecords, _ cycles: DependencyCycles) -> Int {
        guard let (dependencies, cancelled) = operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.isCancelled) }), !cancelled
        else { return 0 }
        var level = 0
        let checkLoops = cycles.isOnLoop(id)
        for dependency in dependencies {
            guard let dependencyLevel = operations.withRecord(dependency, { $0.pointee.level }) else { continue }
            if checkLoops, cycles.loopMembers.contains(dependency) { continue }
            level = max(level, dependencyLevel + 1)
        }
        return level
    }

    /// `computedLevel(of:)`, and the first of the operation's dependencies that is retained and
    /// unfinished (its `blocker`), in one pass over the dependencies.
    static func levelAndBlocker(of id: OperationID, _ operations: OperationRecords, _ cycles: DependencyCycles)
        -> (level: Int, blocker: OperationID?) {
        guard let (dependencies, cancelled) = operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.isCancelled) })
        else { return (0, nil) }
        var level = 0
        var blocker: OperationID?
        let checkLoops = cycles.isOnLoop(id)
        for dependency in dependencies {
            guard let (dependencyLevel, finished) = operations.withRecord(dependency, { ($0.pointee.level, $0.pointee.state == .finished) })
            else { continue }
            if blocker == nil, !finished { blocker = dependency }
            if cancelled || (checkLoops && cycles.loopMembers.contains(dependency)) { continue }
            level = max(level, dependencyLevel + 1)
        }
        return (level, blocker)
    }

    /// Finds the operation's `blocker` again: its dependencies changed.
    static func refreshBlocker(of id: OperationID, in stream: inout StreamState) {
        guard let dependencies = stream.operations.withRecord(id, { $0.pointee.dependencies }) else { return }
        let blocker = dependencies.first { stream.operations.withRecord($0, { $0.pointee.state != .finished }) == true }
        stream.setBlocker(blocker, of: id)
    }

    /// Every operation's `blocker` found again (after a keyframe).
    static func refreshBlockers(in stream: inout StreamState) {
        var waiting: [OperationID] = []
        stream.operations.forEach { record in
            if !record.pointee.info.dependencies.isEmpty { waiting.append(record.pointee.id) }
        }
        for id in waiting { refreshBlocker(of: id, in: &stream) }
    }

    /// Recomputes levels from `id` down through its dependents after an edge changed, visiting
    /// at most `relevelBudget` operations; a change that reaches further (a long chain announced
    /// from its end, an edge above a deep graph) is left to `recomputeLevels` at the batch's end.
    mutating func relevel(from id: OperationID, in stream: inout StreamState, _ cycles: DependencyCycles) {
        guard !dirty else { return }
        var queue: Deque<OperationID> = [id]
        var budget = Self.relevelBudget
        while let current = queue.popFirst() {
            guard budget > 0 else {
                dirty = true
                return
            }
            budget -= 1
            guard let (old, dependents) = stream.operations.read(current, { ($0.level, $0.dependents) }) else { continue }
            let level = Self.computedLevel(of: current, stream.operations, cycles)
            if level == old, current != id { continue }
            stream.setLevel(level, of: current)
            queue.append(contentsOf: dependents)
        }
    }

    /// Every level at once, in O(operations + edges) without recursion: dependencies before
    /// dependents (Kahn's order), edges between loop members ignored. Operations left over by a
    /// loop not found yet (none once `detectLoops` ran) take the levels of what was placed.
    mutating func recompute(in stream: inout StreamState, _ cycles: DependencyCycles) {
        dirty = false
        let count = stream.operations.count
        guard count > 0 else { return }
        // Edges dependency → dependent by dense slot, in compressed rows.
        var indegree = [Int32](repeating: 0, count: count)
        var outdegree = [Int32](repeating: 0, count: count + 1)
        var edges: [(from: Int32, to: Int32)] = []
        let members = cycles.loopMembers
        let checkLoops = !members.isEmpty
        let table = stream.operations
        table.forEach { record in
            guard !record.pointee.isCancelled, let slot = table.slot(of: record.pointee.id) else { return }
            let inCycle = checkLoops && members.contains(record.pointee.id)
            for dependency in record.pointee.dependencies {
                guard let from = table.slot(of: dependency), from != slot else { continue }
                if inCycle, members.contains(dependency) { continue }
                edges.append((Int32(from), Int32(slot)))
                indegree[slot] += 1
                outdegree[from + 1] += 1
            }
        }
        for slot in 0..<count { outdegree[slot + 1] += outdegree[slot] }
        var targets = [Int32](repeating: 0, count: edges.count)
        var fill = outdegree
        for edge in edges {
            targets[Int(fill[Int(edge.from)])] = edge.to
            fill[Int(edge.from)] += 1
        }
        var level = [Int32](repeating: 0, count: count)
        var placed = [Bool](repeating: false, count: count)
        var ready = (0..<count).filter { indegree[$0] == 0 }.map { Int32($0) }
        var head = 0
        var remaining = indegree
        while head < ready.count {
            let slot = Int(ready[head])
            head += 1
            placed[slot] = true
            for index in Int(outdegree[slot])..<Int(outdegree[slot + 1]) {
                let target = Int(targets[index])
                level[target] = max(level[target], level[slot] + 1)
                remaining[target] -= 1
                if remaining[target] == 0 { ready.append(Int32(target)) }
            }
        }
        if head < count {
            for slot in 0..<count where !placed[slot] {
                for index in Int(outdegree[slot])..<Int(outdegree[slot + 1]) {
                    let target = Int(targets[index])
                    if !placed[target] { level[target] = max(level[target], level[slot] + 1) }
                }
            }
        }
        stream.updateLevels { slot, _ in Int(level[slot]) }
    }
}
