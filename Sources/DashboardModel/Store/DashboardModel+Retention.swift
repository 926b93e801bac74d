import OperationEvents

extension DashboardModel {
    /// Forgets the oldest finished operations beyond the retention time or count; they remain
    /// counted in their queue's `finished` totals and in `expired`.
    mutating func expireFinished() {
        let retention = configuration.finishedRetention
        while let oldest = finishedOrder.first {
            guard let record = operations[oldest], record.state == .finished else {
                finishedOrder.removeFirst()
                continue
            }
            let tooMany = finishedOrder.count > configuration.maximumRetainedFinished
            let tooOld = (record.finishedAt ?? 0) &+ retention < now
            guard tooMany || tooOld else { break }
            finishedOrder.removeFirst()
            forget(record)
        }
    }

    private mutating func forget(_ record: OperationRecord) {
        operations[record.id] = nil
        expired[record.queue, default: 0] += 1
        for dependency in record.dependencies where operations[dependency] != nil {
            operations[dependency]!.staleDependents += 1
            let stale = operations[dependency]!.staleDependents
            if stale > 16, stale * 2 > operations[dependency]!.dependents.count {
                let live = operations[dependency]!.dependents.filter { operations[$0] != nil }
                operations[dependency]!.dependents = live
                operations[dependency]!.staleDependents = 0
            }
        }
        if let queue = record.queue, let queueRecord = queues[queue], queueRecord.isReleased,
           queueRecord.waiting + queueRecord.executing == 0,
           !operations.values.contains(where: { $0.queue == queue }) {
            queues[queue] = nil
        }
        structureVersion &+= 1
    }
}
