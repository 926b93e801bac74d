import OperationEvents

/// The lints about where work sits rather than how it runs: a suspended queue holding work, and
/// a dependency nothing will start.
extension DashboardModel {
    /// One warning per live suspended queue with unstarted operations, in queue id order.
    func suspendedQueueWarnings() -> [Warning] {
        var result: [Warning] = []
        for id in queues.ids.sorted() {
            guard let queue = queues[id], queue.isSuspended, !queue.isReleased, queue.waiting > 0 else { continue }
            let waiting = queue.waiting
            let ready = queue.ready > 0 ? " (\(DurationText.grouped(queue.ready)) of them ready)" : ""
            let message = "queue \(id) '\(queue.name)' is suspended with \(DurationText.grouped(waiting)) operation\(waiting == 1 ? "" : "s") "
                + "waiting\(ready): none of them starts until it is resumed"
            result.append(Warning(operation: startOrder(of: id, limit: 1).first, queue: id, kind: .suspendedQueueWithWork, message: message))
        }
        return result
    }

    /// An unstarted operation in no queue that operations wait on, known for longer than
    /// `notReadyGrace` (an app may announce a dependency a moment before it enqueues it).
    func neverEnqueuedWarning(_ record: OperationRecord, now: UInt64) -> Warning? {
        guard record.state < .executing, record.queue == nil, !record.isCancelled,
              now >= record.addedAt, now - record.addedAt > configuration.notReadyGrace else { return nil }
        var waiting: [OperationID] = []
        var count = 0
        var seen: Set<OperationID> = []
        for dependent in record.dependents where seen.insert(dependent).inserted {
            guard operations.read(dependent, { $0.state != .finished && !$0.isCancelled }) == true else { continue }
            count += 1
            if waiting.count < 3 { waiting.append(dependent) }
        }
        guard count > 0 else { return nil }
        let names = waiting.map { operations.read($0) { $0.label } ?? $0.description }.joined(separator: ", ")
        let more = count > waiting.count ? " and \(DurationText.grouped(count - waiting.count)) more" : ""
        return Warning(operation: record.id, kind: .dependencyNeverEnqueued,
                       message: "\(record.label) was never added to an observed queue, yet \(names)\(more) wait\(count == 1 ? "s" : "") on it: "
                           + "nothing starts it unless the app does")
    }
}
