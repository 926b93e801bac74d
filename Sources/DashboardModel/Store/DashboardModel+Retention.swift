import OperationEvents

extension DashboardModel {
    /// Forgets the oldest finished operations beyond the retention time or count; they remain
    /// counted in their queue's `finished` totals and in `expired`.
    mutating func expireFinished() {
        let retention = configuration.finishedRetention
        while let oldest = finishedOrder.first {
            guard operations.read(oldest, { $0.state }) == .finished else {
                finishedOrder.removeFirst()
                continue
            }
            let tooMany = finishedOrder.count > configuration.maximumRetainedFinished
            let tooOld = (operations.read(oldest, { $0.finishedAt })! ?? 0) &+ retention < now
            guard tooMany || tooOld else { break }
            finishedOrder.removeFirst()
            forget(operations.remove(oldest)!)
        }
    }

    /// Counts a removed record as expired and unlinks it from its dependencies.
    private mutating func forget(_ record: OperationRecord) {
        expired[record.queue, default: 0] += 1
        for dependency in record.dependencies where operations.contains(dependency) {
            operations[dependency]!.staleDependents += 1
            let stale = operations.read(dependency, { $0.staleDependents })!
            if stale > 16, stale * 2 > operations.read(dependency, { $0.dependents })!.count {
                let live = operations.read(dependency, { $0.dependents })!.filter { operations.contains($0) }
                operations[dependency]!.dependents = live
                operations[dependency]!.staleDependents = 0
            }
        }
        if let queue = record.queue, queues[queue]?.isReleased == true,
           queues[queue]!.waiting + queues[queue]!.executing == 0,
           !operations.values.contains(where: { $0.queue == queue }) {
            queues[queue] = nil
        }
        structureVersion &+= 1
    }
}
