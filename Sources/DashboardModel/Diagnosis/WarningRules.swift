import OperationEvents

/// The lints the header and the warnings pane show, judged at one time: cycles, lost events,
/// suspended queues holding work, then per operation what holds it (see `StuckCause` for
/// which of them are problems).
struct WarningRules {
    let model: DashboardModel
    /// The time the warnings are judged at.
    let now: UInt64
    /// The readiness rules at the same time.
    var readiness: ReadinessRules { ReadinessRules(model: model, now: now) }

    /// The current warnings: cycles and dropped events first, then queues in id order, then per
    /// operation in id order. One pass over the operations; bounded work per operation.
    func warnings() -> [Warning] {
        let readiness = readiness
        var result: [Warning] = model.cycles.map { cycle in
            Warning(operation: cycle.first, kind: .cycle,
                    message: "dependency cycle, these operations can never start: \(Self.describe(cycle: cycle, in: model.operations))")
        }
        if model.droppedEvents > 0 {
            result.append(Warning(operation: nil, kind: .droppedEvents,
                                  message: "\(model.droppedEvents) events were dropped (the consumer fell behind); the view started again from a keyframe"))
        }
        result += suspendedQueueWarnings()
        // One pass without copying records; only the few that warn are looked at again.
        var flagged: [OperationID] = []
        // Ready operations their queue does not start, one warning per queue (a blocked queue
        // can hold thousands): the one waiting longest (then the lowest id) and how many more.
        var notStartedByQueue: [QueueID: (since: UInt64, first: OperationID, count: Int)] = [:]
        model.operations.forEach { record in
            let state = record.pointee.state
            let executingTooLong = state == .executing
                && ((record.pointee.runTime(now: now) ?? 0) > model.configuration.longExecution || record.pointee.isCancelled)
            let unsignalled = record.pointee.unsignalledFinish && state != .finished
            let notReady = state == .pending && readiness.isStuckNotReady(record)
            if state == .ready, let since = readiness.readyNotStartedSince(record), let queue = record.pointee.queue {
                let id = record.pointee.id
                if let known = notStartedByQueue[queue] {
                    let earlier = (since, id) < (known.since, known.first)
                    notStartedByQueue[queue] = (earlier ? since : known.since, earlier ? id : known.first, known.count + 1)
                } else {
                    notStartedByQueue[queue] = (since, id, 1)
                }
            }
            let unqueued = state < .executing && record.pointee.queue == nil && !record.pointee.dependents.isEmpty
            if executingTooLong || unsignalled || notReady || unqueued { flagged.append(record.pointee.id) }
        }
        for (queue, overdue) in notStartedByQueue.sorted(by: { $0.key < $1.key }) {
            let label = model.operations.read(overdue.first) { $0.label } ?? overdue.first.description
            let more = overdue.count > 1 ? " (nor have \(overdue.count - 1) more ready operations of \(queue))" : ""
            // The queue by its name too, as the diagnosis and the other queue warnings say it.
            let queueName = model.stream.queues.withRecord(queue) { " '\($0.pointee.info.name)'" } ?? ""
            result.append(Warning(operation: overdue.first, queue: queue, kind: .readyNotStarted,
                                  message: "\(label) is ready and queue \(queue)\(queueName) has a free slot, yet it has not started for "
                                      + "\(DurationText.format(now - overdue.since))\(more): did its isReady turn true without "
                                      + "didChangeValue(forKey: \"isReady\")? Foundation caches readiness"))
        }
        for id in flagged.sorted() {
            guard let record = model.operations[id] else { continue }
            let label = record.label
            if record.unsignalledFinish, record.state != .finished {
                result.append(Warning(operation: record.id, kind: .unsignalledFinish,
                                      message: "\(label) reads isFinished true but never sent didChangeValue(forKey: \"isFinished\"): its queue keeps it forever and its dependents never run"))
            }
            if record.state == .executing, let elapsed = record.runTime(now: now) {
                if elapsed > model.configuration.longExecution {
                    // By what it does: executing that long, whatever isAsynchronous says; the
                    // words say which of its two ways of finishing has not happened.
                    result.append(record.isAsynchronous
                        ? Warning(operation: record.id, kind: .longRunningAsynchronous,
                                  message: "\(label) (asynchronous) has been executing for \(DurationText.format(elapsed)): does its work ever call finish()?")
                        : Warning(operation: record.id, kind: .longRunningSynchronous,
                                  message: "\(label) has been executing for \(DurationText.format(elapsed)): main() has not returned (or, "
                                      + "if it overrides start(), it has not finished): is it blocked on a lock, a semaphore, a synchronous wait?"))
                }
                if record.isCancelled {
                    let cancelledAt = record.history.last { $0.key == .isCancelled }?.time ?? record.startedAt ?? now
                    let since = now >= cancelledAt ? now - cancelledAt : 0
                    if since > model.configuration.cancelledStillExecuting {
                        result.append(Warning(operation: record.id, kind: .cancelledStillExecuting,
                                              message: "\(label) was cancelled \(DurationText.format(since)) ago and is still executing: does it check isCancelled?"))
                    }
                }
            }
            if record.state == .pending, !model.isInCycle(record.id), readiness.isStuckNotReady(record.id) {
                // Only what the stream shows: the removed dependency when the history has one,
                // else a condition the dashboard cannot see.
                if let removal = readiness.unfinishedDependencyRemoval(of: record) {
                    result.append(Warning(operation: record.id, kind: .notReadyWithoutDependencies,
                                          message: "\(label) is not ready: \(removal.label) was removed from its dependencies before it "
                                              + "finished; Foundation on Linux never releases it then, only cancel() does"))
                } else {
                    let why = record.dependencies.isEmpty ? "it lists no dependency" : "none of the dependencies it lists is unfinished"
                    result.append(Warning(operation: record.id, kind: .heldByCondition,
                                          message: "\(label) is not ready although \(why): \(ReadinessRules.conditionText)"))
                }
            }
            if let warning = neverEnqueuedWarning(record) { result.append(warning) }
        }
        return result
    }

    /// `#3 a waits on #4 b waits on #3 a`.
    /// A long cycle is shortened: its first operations, then how many there are in all.
    static func describe(cycle: [OperationID], in operations: OperationRecords) -> String {
        let label = { (id: OperationID) in operations[id]?.label ?? id.description }
        guard cycle.count > 9 else { return cycle.map(label).joined(separator: " waits on ") }
        return cycle.prefix(6).map(label).joined(separator: " waits on ")
            + " waits on … (a cycle of \(cycle.count - 1) operations, back to \(label(cycle[0])))"
    }

    /// One warning per live suspended queue with unstarted operations, in queue id order.
    func suspendedQueueWarnings() -> [Warning] {
        var result: [Warning] = []
        for id in model.queues.ids.sorted() {
            guard let queue = model.queues[id], queue.isSuspended, !queue.isReleased, queue.waiting > 0 else { continue }
            let waiting = queue.waiting
            let ready = queue.ready > 0 ? " (\(DurationText.grouped(queue.ready)) of them ready)" : ""
            let message = "queue \(id) '\(queue.name)' is suspended with \(DurationText.grouped(waiting)) operation\(waiting == 1 ? "" : "s") "
                + "waiting\(ready): none of them starts until it is resumed"
            result.append(Warning(operation: model.startOrder(of: id, limit: 1).first, queue: id, kind: .suspendedQueueWithWork, message: message))
        }
        return result
    }

    /// An unstarted operation in no queue that operations wait on, known for longer than
    /// `notReadyGrace` (an app may announce a dependency a moment before it enqueues it).
    func neverEnqueuedWarning(_ record: OperationRecord) -> Warning? {
        guard record.state < .executing, record.queue == nil, !record.isCancelled,
              now >= record.addedAt, now - record.addedAt > model.configuration.notReadyGrace else { return nil }
        var waiting: [OperationID] = []
        var count = 0
        var seen: Set<OperationID> = []
        for dependent in record.dependents where seen.insert(dependent).inserted {
            guard model.operations.read(dependent, { $0.state != .finished && !$0.isCancelled }) == true else { continue }
            count += 1
            if waiting.count < 3 { waiting.append(dependent) }
        }
        guard count > 0 else { return nil }
        let names = waiting.map { model.operations.read($0) { $0.label } ?? $0.description }.joined(separator: ", ")
        let more = count > waiting.count ? " and \(DurationText.grouped(count - waiting.count)) more" : ""
        return Warning(operation: record.id, kind: .dependencyNeverEnqueued,
                       message: "\(record.label) was never added to an observed queue, yet \(names)\(more) wait\(count == 1 ? "s" : "") on it: "
                           + "nothing starts it unless the app does")
    }
}
