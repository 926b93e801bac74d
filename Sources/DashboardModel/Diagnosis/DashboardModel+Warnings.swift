import OperationEvents

extension DashboardModel {
    /// A pending, uncancelled operation of a live queue that nothing it waits for can make
    /// ready, for longer than `notReadyGrace`. Without dependencies, counted from its add: a
    /// condition of its own (an `isReady` override, a gate that opens when the network is up)
    /// often holds it a moment, and a warning for each such moment would teach people to ignore
    /// the warning (its diagnosis says at once that nothing but its own `isReady` holds it).
    /// With dependencies that all finished, counted from the last finish: before, it is the
    /// moment before the ready event (sampled operations are left out, their readiness is seen
    /// late). Warnings and diagnoses both ask here.
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
        if count == 0 {
            let since = record.pointee.addedAt
            return now >= since && now - since > configuration.notReadyGrace
        }
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

    /// A ready, uncancelled operation that its queue could have started for a while and did
    /// not: the queue runs (not suspended, not released, not the main queue, whose turns depend
    /// on the main thread) with a free slot, and neither the operation's readiness nor the
    /// queue's room is newer than `readyNotStartedGrace`. Foundation starts a ready operation
    /// within a moment of either, so this one is not ready in the queue's eyes: its `isReady`
    /// turned true without `didChangeValue(forKey: "isReady")` (Foundation caches readiness), or
    /// the threads that run the queue's work are all busy. Warnings and diagnoses both ask here.
    func isReadyNotStarted(_ record: UnsafePointer<OperationRecord>, now: UInt64) -> Bool {
        readyNotStartedSince(record, now: now) != nil
    }

    /// Since when an operation `isReadyNotStarted(_:now:)` names has been startable (its
    /// readiness or its queue's last chance, the later); nil for any other.
    func readyNotStartedSince(_ record: UnsafePointer<OperationRecord>, now: UInt64) -> UInt64? {
        guard record.pointee.state == .ready, !record.pointee.isCancelled, !record.pointee.isBarrier,
              let queue = record.pointee.queue,
              let roomSince = stream.queues.withRecord(queue, { queue -> UInt64? in
                  let record = queue.pointee
                  return record.isReleased || record.isSuspended || record.isMainQueue || !record.hasFreeSlot ? nil : record.roomSince
              }) ?? nil
        else { return nil }
        let since = max(record.pointee.readyAt ?? record.pointee.addedAt, roomSince)
        return now >= since && now - since > configuration.readyNotStartedGrace ? since : nil
    }

    /// Whether `queue` runs (not suspended, not released, not the main queue) with a free slot it
    /// has had for longer than `readyNotStartedGrace`: a ready operation in it that has not started
    /// by then is not ready in the queue's eyes. Lets a view look for such operations only where
    /// they can be (the QoS lanes hold them).
    package func leavesRoomUnused(_ queue: QueueID, now: UInt64? = nil) -> Bool {
        let now = now ?? self.now
        return stream.queues.withRecord(queue) { queue -> Bool in
            let record = queue.pointee
            guard !record.isReleased, !record.isSuspended, !record.isMainQueue, record.hasFreeSlot else { return false }
            return now >= record.roomSince && now - record.roomSince > configuration.readyNotStartedGrace
        } ?? false
    }

    /// `isReadyNotStarted(_:now:)` by id, at the model's time unless `now` is given (the graph
    /// and the start order mark such an operation too).
    package func isReadyNotStarted(_ id: OperationID, now: UInt64? = nil) -> Bool {
        let now = now ?? self.now
        return operations.withRecord(id) { isReadyNotStarted($0, now: now) } ?? false
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
        // Ready operations their queue does not start, one warning per queue (a blocked queue
        // can hold thousands): the one waiting longest (then the lowest id) and how many more.
        var notStartedByQueue: [QueueID: (since: UInt64, first: OperationID, count: Int)] = [:]
        operations.forEach { record in
            let state = record.pointee.state
            let executingTooLong = state == .executing
                && ((record.pointee.runTime(now: now) ?? 0) > configuration.longExecution || record.pointee.isCancelled)
            let unsignalled = record.pointee.unsignalledFinish && state != .finished
            let notReady = state == .pending && isStuckNotReady(record, now: now)
            if state == .ready, let since = readyNotStartedSince(record, now: now), let queue = record.pointee.queue {
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
            let label = operations.read(overdue.first) { $0.label } ?? overdue.first.description
            let more = overdue.count > 1 ? " (nor have \(overdue.count - 1) more ready operations of \(queue))" : ""
            // The queue by its name too, as the diagnosis and the other queue warnings say it.
            let queueName = stream.queues.withRecord(queue) { " '\($0.pointee.info.name)'" } ?? ""
            result.append(Warning(operation: overdue.first, queue: queue, kind: .readyNotStarted,
                                  message: "\(label) is ready and queue \(queue)\(queueName) has a free slot, yet it has not started for "
                                      + "\(DurationText.format(now - overdue.since))\(more): did its isReady turn true without "
                                      + "didChangeValue(forKey: \"isReady\")? Foundation caches readiness"))
        }
        for id in flagged.sorted() {
            guard let record = operations[id] else { continue }
            let label = record.label
            if record.unsignalledFinish, record.state != .finished {
                result.append(Warning(operation: record.id, kind: .unsignalledFinish,
                                      message: "\(label) reads isFinished true but never sent didChangeValue(forKey: \"isFinished\"): its queue keeps it forever and its dependents never run"))
            }
            if record.state == .executing, let elapsed = record.runTime(now: now) {
                if elapsed > configuration.longExecution {
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
                    if since > configuration.cancelledStillExecuting {
                        result.append(Warning(operation: record.id, kind: .cancelledStillExecuting,
                                              message: "\(label) was cancelled \(DurationText.format(since)) ago and is still executing: does it check isCancelled?"))
                    }
                }
            }
            if record.state == .pending, !isInCycle(record.id), isStuckNotReady(record.id, now: now) {
                // Only what the stream shows: the removed dependency when the history has one,
                // else a condition the dashboard cannot see.
                if let removal = unfinishedDependencyRemoval(of: record) {
                    result.append(Warning(operation: record.id, kind: .notReadyWithoutDependencies,
                                          message: "\(label) is not ready: \(removal.label) was removed from its dependencies before it "
                                              + "finished; Foundation on Linux never releases it then, only cancel() does"))
                } else {
                    let why = record.dependencies.isEmpty ? "it lists no dependency" : "none of the dependencies it lists is unfinished"
                    result.append(Warning(operation: record.id, kind: .heldByCondition,
                                          message: "\(label) is not ready although \(why): \(Self.conditionText)"))
                }
            }
            if let warning = neverEnqueuedWarning(record, now: now) { result.append(warning) }
        }
        return result
    }
}
