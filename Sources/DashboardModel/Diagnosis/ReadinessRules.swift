import OperationEvents

/// Whether an unstarted operation is held for a reason of its own: not ready with nothing left
/// to wait for, or ready and not started by a queue with room. Warnings, diagnoses, the graph's
/// root marks and the start order all ask here, so that they agree.
struct ReadinessRules {
    let model: DashboardModel
    /// The time the rules are judged at.
    let now: UInt64

    /// A pending, uncancelled operation of a live queue that nothing it waits for can make
    /// ready. Without dependencies, for longer than `conditionGrace` from its add: a condition
    /// of its own (an `isReady` override, a gate that opens when the network is up) is the
    /// pattern and holds it for a while, and a warning for each such while would teach people
    /// to ignore the warning (its diagnosis says at once that nothing but its own `isReady`
    /// holds it); one whose unfinished dependency was removed, for longer than `notReadyGrace`.
    /// With dependencies, for longer than `notReadyGrace`.
    /// With dependencies that all finished, counted from the last finish: before, it is the
    /// moment before the ready event (sampled operations are left out, their readiness is seen
    /// late). Warnings and diagnoses both ask here.
    func isStuckNotReady(_ id: OperationID) -> Bool {
        model.operations.withRecord(id) { isStuckNotReady($0) } ?? false
    }

    /// `isStuckNotReady(_:)` of a record in the table. Fields are read through the pointer:
    /// this runs for every pending operation in every frame, and a queue's record as the model
    /// states it (`queues[id]`) copies its statistics.
    func isStuckNotReady(_ record: UnsafePointer<OperationRecord>) -> Bool {
        guard record.pointee.state == .pending, !record.pointee.isCancelled, !record.pointee.isBarrier, let queue = record.pointee.queue,
              model.stream.queues.withRecord(queue, { !$0.pointee.isReleased }) == true else { return false }
        // Most pending operations still wait for the dependency the model last saw unfinished:
        // one lookup says so, without reading the dependency list (a cache miss per operation).
        if let blocker = record.pointee.blocker, model.operations.withRecord(blocker, { $0.pointee.state != .finished }) == true {
            return false
        }
        let count = record.pointee.info.dependencies.count
        if count == 0 {
            let since = record.pointee.addedAt
            guard now >= since else { return false }
            let waited = now - since
            if waited > model.configuration.conditionGrace { return true }
            // A dependency removed before it finished is Foundation's trap, not a condition: it
            // is warned about after the shorter grace.
            return waited > model.configuration.notReadyGrace && unfinishedDependencyRemoval(of: record.pointee) != nil
        }
        guard record.pointee.observation != .sampled else { return false }
        var since = record.pointee.addedAt
        for index in 0..<count {
            // A dependency the model never saw (announced before it attached, or expired) is
            // not assumed finished: its finish may simply not have been reported yet.
            let dependency = record.pointee.info.dependencies[index]
            guard let (dependencyState, finishedAt) = model.operations.withRecord(dependency, { ($0.pointee.state, $0.pointee.finishedAt) })
            else { return false }
            if dependencyState != .finished { return false }
            since = max(since, finishedAt ?? since)
        }
        return now >= since && now - since > model.configuration.notReadyGrace
    }

    /// A ready, uncancelled operation that its queue could have started for a while and did
    /// not: the queue runs (not suspended, not released, not the main queue, whose turns depend
    /// on the main thread) with a free slot, and neither the operation's readiness nor the
    /// queue's room is newer than `readyNotStartedGrace`. Foundation starts a ready operation
    /// within a moment of either, so this one is not ready in the queue's eyes: its `isReady`
    /// turned true without `didChangeValue(forKey: "isReady")` (Foundation caches readiness), or
    /// the threads that run the queue's work are all busy. Warnings and diagnoses both ask here.
    func isReadyNotStarted(_ record: UnsafePointer<OperationRecord>) -> Bool {
        readyNotStartedSince(record) != nil
    }

    /// Since when an operation `isReadyNotStarted(_:)` names has been startable (its
    /// readiness or its queue's last chance, the later); nil for any other.
    func readyNotStartedSince(_ record: UnsafePointer<OperationRecord>) -> UInt64? {
        guard record.pointee.state == .ready, !record.pointee.isCancelled, !record.pointee.isBarrier,
              let queue = record.pointee.queue,
              let roomSince = model.stream.queues.withRecord(queue, { queue -> UInt64? in
                  let record = queue.pointee
                  return record.isReleased || record.isSuspended || record.isMainQueue || !record.hasFreeSlot ? nil : record.roomSince
              }) ?? nil
        else { return nil }
        let since = max(record.pointee.readyAt ?? record.pointee.addedAt, roomSince)
        return now >= since && now - since > model.configuration.readyNotStartedGrace ? since : nil
    }

    /// Whether `queue` runs (not suspended, not released, not the main queue) with a free slot it
    /// has had for longer than `readyNotStartedGrace`: a ready operation in it that has not started
    /// by then is not ready in the queue's eyes. Lets a view look for such operations only where
    /// they can be (the QoS lanes hold them).
    func leavesRoomUnused(_ queue: QueueID) -> Bool {
        return model.stream.queues.withRecord(queue) { queue -> Bool in
            let record = queue.pointee
            guard !record.isReleased, !record.isSuspended, !record.isMainQueue, record.hasFreeSlot else { return false }
            return now >= record.roomSince && now - record.roomSince > model.configuration.readyNotStartedGrace
        } ?? false
    }

    /// `isReadyNotStarted(_:)` by id (the graph and the start order mark such an
    /// operation too).
    func isReadyNotStarted(_ id: OperationID) -> Bool {
        return model.operations.withRecord(id) { isReadyNotStarted($0) } ?? false
    }

    /// The latest dependency removed from an operation before that dependency finished (its
    /// label), with the removal's time. Foundation on Linux counts an operation's unfinished dependencies and
    /// `removeDependency` does not take one off that count, so the operation is never made ready
    /// (only `cancel()` releases it). Nil when no such removal is in the operation's kept history,
    /// or the removed dependency is no longer retained (its finish is then unknown).
    package func unfinishedDependencyRemoval(of record: borrowing OperationRecord) -> (label: String, time: UInt64)? {
        for change in record.history.reversed() where change.key == .dependencies && !change.value {
            guard let (finished, label) = model.operations.read(OperationID(Int(change.detail)), { ($0.finishedAt, $0.label) }) else { continue }
            if finished.map({ $0 > change.time }) ?? true { return (label, change.time) }
        }
        return nil
    }

    /// What holds an operation that is not ready with no unfinished dependency and no removal in
    /// its history: only what is known, as the stream cannot see the condition itself.
    package static let conditionText = "isReady says false, so a condition of its own (an isReady override) or of "
        + "its framework (a dependency its dependencies override hides) holds it"

    /// Why an operation with no unfinished dependency is not ready, in words, when the stream
    /// shows the cause: the removed dependency `unfinishedDependencyRemoval(of:)` finds. Nil
    /// otherwise (see `conditionText`).
    package func notReadyExplanation(of record: borrowing OperationRecord) -> String? {
        guard let removal = unfinishedDependencyRemoval(of: record) else { return nil }
        let after = removal.time >= record.addedAt ? " \(DurationText.format(removal.time - record.addedAt)) after the add" : ""
        return "\(removal.label) was removed from its dependencies\(after), before it finished: on Linux Foundation "
            + "never takes a removed unfinished dependency off its count, so it stays not ready; only cancel() releases it"
    }
}
