import OperationEvents

extension DashboardModel {
    /// A pending, uncancelled operation of an observed queue whose dependencies have all finished,
    /// still not ready `notReadyGrace` after the last of them finished: Foundation lost count
    /// (or a custom `isReady` says no). Within the grace it is only the moment before the ready
    /// event. Warnings and diagnoses both ask here.
    func isStuckNotReady(_ id: OperationID, now: UInt64) -> Bool {
        guard let (state, cancelled, observation, queue, addedAt, dependencies) = operations.read(id, {
            ($0.state, $0.isCancelled, $0.observation, $0.queue, $0.addedAt, $0.dependencies)
        }), state == .pending, !cancelled, observation != .sampled, queue != nil else { return false }
        var since = addedAt
        for dependency in dependencies {
            // A dependency the model never saw (announced before it attached, or expired) is
            // not assumed finished: its finish may simply not have been reported yet.
            guard let (dependencyState, finishedAt) = operations.read(dependency, { ($0.state, $0.finishedAt) }) else { return false }
            if dependencyState != .finished { return false }
            since = max(since, finishedAt ?? since)
        }
        return now >= since && now - since > configuration.notReadyGrace
    }

    /// The current warnings: cycles and dropped events first, then per operation in id order.
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
        // One pass without copying records; only the few that warn are looked at again.
        var flagged: [OperationID] = []
        operations.forEach { record in
            let executingTooLong = record.pointee.state == .executing
                && ((record.pointee.isAsynchronous && (record.pointee.runTime(now: now) ?? 0) > configuration.longAsynchronousExecution)
                    || record.pointee.isCancelled)
            let unsignalled = record.pointee.unsignalledFinish && record.pointee.state != .finished
            let notReady = record.pointee.state == .pending && isStuckNotReady(record.pointee.id, now: now)
            if executingTooLong || unsignalled || notReady { flagged.append(record.pointee.id) }
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
                result.append(Warning(operation: record.id, kind: .notReadyWithoutDependencies,
                                      message: "\(label) is not ready although none of its dependencies is unfinished (a custom isReady, or Foundation lost count after removeDependency)"))
            }
        }
        return result
    }
}
