import OperationEvents

extension DashboardModel {
    /// The longest chain of unfinished operations, first dependency first: what must still
    /// happen, one after the other, before the last of them can finish. Cycle edges are ignored.
    public func criticalPath() -> [OperationID] {
        let unfinished = operations.values.filter { $0.state != .finished }.sorted { ($0.level, $0.id) < ($1.level, $1.id) }
        guard !unfinished.isEmpty else { return [] }
        var length: [OperationID: Int] = [:]
        var previous: [OperationID: OperationID] = [:]
        length.reserveCapacity(unfinished.count)
        var best: (id: OperationID, length: Int)?
        for record in unfinished {
            var longest = 1
            for dependency in record.dependencies {
                guard let dependencyLength = length[dependency],
                      !(isInCycle(record.id) && isInCycle(dependency)) else { continue }
                if dependencyLength + 1 > longest || (dependencyLength + 1 == longest && dependency < (previous[record.id] ?? dependency)) {
                    longest = dependencyLength + 1
                    previous[record.id] = dependency
                }
            }
            length[record.id] = longest
            if best == nil || longest > best!.length { best = (record.id, longest) }
        }
        var path: [OperationID] = []
        var current = best?.id
        while let id = current, path.count < unfinished.count {
            path.append(id)
            current = previous[id]
        }
        return path.reversed()
    }
}
