import OperationEvents

/// The longest chain of unfinished operations (`DashboardModel.criticalPath()`).
enum CriticalPath {
    /// The longest chain of unfinished operations, first dependency first: what must still
    /// happen, one after the other, before the last of them can finish. Cycle edges are ignored.
    ///
    /// Linear: operations are bucketed by level (every dependency has a lower level, except
    /// inside a cycle, whose edges are skipped) and scratch lives in arrays indexed by the
    /// table's dense slots, so that a deep graph costs no more than a wide one. The dashboard
    /// does not draw it: it is for embedding programs (docs/graph.md) and for checking levels.
    static func longest(in model: DashboardModel) -> [OperationID] {
        let count = model.operations.count
        guard count > 0 else { return [] }
        var buckets: [[Int32]] = []
        model.operations.forEach { record in
            guard record.pointee.state != .finished, let slot = model.operations.slot(of: record.pointee.id) else { return }
            while buckets.count <= record.pointee.level { buckets.append([]) }
            buckets[record.pointee.level].append(Int32(slot))
        }
        var length = [Int32](repeating: 0, count: count)
        var previous = [Int32](repeating: -1, count: count)
        var ids = [OperationID](repeating: OperationID(0), count: count)
        var best: (slot: Int, length: Int32, id: OperationID)?
        let checkCycles = !model.dependencyCycles.members.isEmpty
        for bucket in buckets {
            for slot32 in bucket {
                let slot = Int(slot32)
                var longest: Int32 = 1
                var via: Int32 = -1
                var viaID = OperationID(Int.max)
                let (id, dependencies) = model.operations.read(slot: slot) { ($0.id, $0.dependencies) }
                ids[slot] = id
                for dependency in dependencies {
                    guard let other = model.operations.slot(of: dependency), length[other] > 0 else { continue }
                    if checkCycles, model.isInCycle(id), model.isInCycle(dependency) { continue }
                    let candidate = length[other] + 1
                    if candidate > longest || (candidate == longest && dependency < viaID) {
                        longest = candidate
                        via = Int32(other)
                        viaID = dependency
                    }
                }
                length[slot] = longest
                previous[slot] = via
                if best == nil || longest > best!.length || (longest == best!.length && id < best!.id) {
                    best = (slot, longest, id)
                }
            }
        }
        var path: [OperationID] = []
        var current = best.map { Int32($0.slot) } ?? -1
        while current >= 0, path.count < count {
            path.append(ids[Int(current)])
            current = previous[Int(current)]
        }
        return path.reversed()
    }
}
