import OperationEvents

extension DashboardModel {
    /// A pending, uncancelled operation of a live queue that nothing it waits for can make
    /// ready. Without dependencies that is so at once (no finish is on its way). With
    /// dependencies that all finished, only `notReadyGrace` after the last of them finished:
    /// before, it is the moment before the ready event (sampled operations are left out, their
    /// readiness is seen late). Warnings and diagnoses both ask here.
    func isStuckNotReady(_ id: OperationID, now: UInt64) -> Bool {
        operations.withRecord(id) { isStuckNotReady($0, now: now) } ?? false
    }

    /// `isStuckNotReady(_:now:)` of a record in the table. Fields are read through the pointer:
    /// this runs for every pending operation in every frame, and a queue's record as the model
    /// states it (`queues[id]`) copies its statistics.
    func isStuckNotReady(_ record: UnsafePointer<OperationRecord>, now: UInt64) -> Bool {
        guard record.pointee.state == .pending, !record.pointee.isCancelled, !record.pointee.isBarrier, let queue = record.pointee.queue,
              stream.queues.withRecord(queue, { !$0.pointee.isReleased }) == true else { return false }
        // Most pending operations still wait for the dependency the model last saw unfinished:
        // one lookup says so, without reading the dependency list (a cache miss per operation).
        if let blocker = record.pointee.blocker, operations.withRecord(blocker, { $0.pointee.state != .finished }) == true {
            return false
        }
        let count = record.pointee.info.dependencies.count
        if count == 0 { return true }
        guard record.pointee.observation != .sampled else { return false }
        var since = record.pointee.addedAt
        for index in 0..<count {
            // A dependency the model never saw (announced before it attached, or expired) is
            // not assumed finished: its finish may simply not have been reported yet.
            let dependency = record.pointee.info.dependencies[index]
            guard let (dependencyState, finishedAt) = operations.withRecord(dependency, { ($0.pointee.state, $0.pointee.finishedAt) })
            else { return false }
            if dependencyState != .finished { return false }
            since = max(since, finishedAt ?? since)
        }
        return now >= since && now - since > configuration.notReadyGrace
    }

    /// The current warnings: cycles and dropped events first, then queues in id order, then per
    /// operation in id order. One pass over the operations; bounded work per operation.
    public func warnings(now: UInt64? = nil) -> [Warning] {
        let now = now ?? self.now
        var result: [Warning] = cycles.map { cycle in
            Warning(operation: cycle.first, kind: .cycle,
                    message: "dependency cycle, these operations can never start: \(cycleDescription(cycle))")
        }
        if droppedEvents > 0 {
            result.append(Warning(operation: nil, kind: .droppedEvents,
                                  message: "\(droppedEvents) events were dropped (the consumer fell behind); the view was re-synchronised from a snapshot"))
        }
        result += suspendedQueueWarnings()
        // One pass without copying records; only the few that warn are looked at again.
        var flagged: [OperationID] = []
        operations.forEach { record in
            let state = record.pointee.state
            let executingTooLong = state == .executing
                && ((record.pointee.isAsynchronous && (record.pointee.runTime(now: now) ?? 0) > configuration.longAsynchronousExecution)
                    || record.pointee.isCancelled)
            let unsignalled = record.pointee.unsignalledFinish && state != .finished
            let notReady = state == .pending && isStuckNotReady(record, now: now)
            let unqueued = state < .executing && record.pointee.queue == nil && !record.pointee.dependents.isEmpty
            if executingTooLong || unsignalled || notReady || unqueued { flagged.append(record.pointee.id) }
        }
        for id in flagged.sorted() {
            guard let record = operations[id] else { continue }
            let label = record.label
            if record.unsignalledFinish, record.state != .finished {
                result.append(Warning(operation: record.id, kind: .unsignalledFinish,
                                      message: "\(label) reads isFinished true but never sent didChangeValue(forKey: \"isFinished\"): its queue keeps it forever and its dependents never run"))
            }
            if record.state == .executing, let elapsed = record.runTime(now: now) {
                if record.isAsynchronous, elapsed > configuration.longAsynchronousExecution {
                    result.append(Warning(operation: record.id, kind: .longRunningAsynchronous,
                                          message: "\(label) (asynchronous) has been executing for \(DurationText.format(elapsed)): does its work ever call finish()?"))
                }
                if record.isCancelled {
                    let cancelledAt = record.history.last { $0.key == .isCancelled }?.time ?? record.startedAt ?? now
                    let since = now >= cancelledAt ? now - cancelledAt : 0
                    if since > configuration.cancelledStillExecuting {
                        result.append(Warning(operation: record.id, kind: .cancelledStillExecuting,
                                              message: "\(label) was cancelled \(DurationText.format(since)) ago and is still executing: does it check isCancelled?"))
                    }
                }
            }
            if record.state == .pending, !isInCycle(record.id), isStuckNotReady(record.id, now: now) {
                let why = record.dependencies.isEmpty ? "has no dependencies" : "none of its dependencies is unfinished"
                result.append(Warning(operation: record.id, kind: .notReadyWithoutDependencies,
                                      message: "\(label) is not ready although \(why) (a custom isReady, or Foundation lost count after removeDependency)"))
            }
            if let warning = neverEnqueuedWarning(record, now: now) { result.append(warning) }
        }
        return result
    }
}
