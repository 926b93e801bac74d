/// The transitions of an operation's life. Each is total (an unknown id, a repeat, a step that
/// comes too late is counted and handled) and does a bounded amount of work: a finish deduced
/// from a dependent reaches only that dependent's direct dependencies, never further, so no
/// chain or cycle can make one event walk the graph.
extension StreamState {
    /// A new operation, or a known one announced again (a dependency-only operation that joined
    /// a queue, a sampled re-discovery, a correction).
    mutating func add(_ info: OperationInfo, time: UInt64, origin: EventOrigin) -> StreamChange {
        let id = info.id
        if let (state, inferred) = operations.read(id, { ($0.state, $0.finishWasInferred) }) {
            var revived = false
            if state == .finished {
                guard inferred else { return anomaly(.afterFinish) }
                revive(id)
                revived = true
            }
            var change = reannounce(info, revived: revived)
            change.revived = revived
            return change
        }
        var record = OperationRecord(info: info, time: time, enqueueOrder: takeEnqueueOrder(), origin: origin)
        // An operation of an observed queue is announced exactly when it is added; announced any
        // other way (a snapshot read after events were lost), it was added before, unseen.
        let late = origin != .exact && (info.observation == .instrumented || info.observation == .hooked)
        if late { record.flags.insert(.firstSeenLate) }
        if retention.historyLimit > 0 {
            let change = late ? KeyChange.firstSeen(info, time: time, origin: origin)
                : KeyChange(time: time, key: .added, value: true, origin: origin)
            record.changes.append(change, base: time, limit: retention.historyLimit)
        }
        let state = record.state
        operations.insert(consume record)
        for dependency in info.dependencies { link(id, to: dependency) }
        if !awaited.isEmpty, let named = awaited.removeValue(forKey: id) {
            // Operations that named this one as a dependency before it was announced.
            awaitedEntries -= named.count
            operations.update(id) { $0.dependents += named }
        }
        var change = StreamChange(.operationAdded(id))
        if let queue = info.queue {
            let counted: Void? = queues.update(queue) { record in
                record.count(state, 1)
                record.retained += 1
            }
            if counted == nil {
                unseenQueues.insert(queue)
                counters.count(.unknownQueue)
                change.anomaly = .unknownQueue
            }
        }
        change.released = releaseHeld(for: .operation(id))
        return change
    }

    /// Takes what a new announcement says about a known operation: its queue, its names and
    /// priorities, and any dependencies it did not have. Its readiness, execution and
    /// cancellation come with events of their own, so a stale announcement cannot undo them.
    private mutating func reannounce(_ info: OperationInfo, revived: Bool) -> StreamChange {
        let id = info.id
        guard let old = operations[id] else { return anomaly(.unknownOperation) }
        var updated = info
        updated.isReady = old.info.isReady
        updated.isExecuting = old.info.isExecuting
        updated.isCancelled = old.info.isCancelled
        updated.dependencies = old.info.dependencies
        let gained = info.dependencies.filter { !old.info.dependencies.contains($0) }
        updated.dependencies += gained
        let queueChanged = old.info.queue != info.queue
        let state = old.state
        if queueChanged {
            if let queue = old.info.queue, queues.contains(queue) {
                queues[queue]!.count(state, -1)
                queues[queue]!.retained -= 1
            }
            if let queue = info.queue {
                if queues.contains(queue) {
                    queues[queue]!.count(state, 1)
                    queues[queue]!.retained += 1
                } else {
                    unseenQueues.insert(queue)
                }
            }
            operations[id]!.enqueueOrder = takeEnqueueOrder()
        }
        operations[id]!.info = updated
        for dependency in gained { link(id, to: dependency) }
        // Coming back to life is news even when nothing else is.
        if old.info == updated, !revived { return anomaly(.duplicate) }
        return StreamChange(.operationUpdated(id, queueChanged: queueChanged, gainedDependencies: !gained.isEmpty))
    }

    /// Records that `id` depends on `dependency`, on the dependency's side.
    mutating func link(_ id: OperationID, to dependency: OperationID) {
        let linked: Void? = operations.update(dependency) { $0.dependents.append(id) }
        if linked == nil {
            awaited[dependency, default: []].append(id)
            awaitedEntries += 1
            if awaitedEntries > 4 * operations.count + 1_024 { pruneAwaited() }
        }
    }

    mutating func markReady(_ id: OperationID, _ isReady: Bool, time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let (state, inferred, queue) = operations.read(id, { ($0.state, $0.finishWasInferred, $0.queue) }) else {
            return anomaly(.unknownOperation)
        }
        var revived = false
        switch state {
        case .finished:
            guard inferred else { return anomaly(.afterFinish) }
            revive(id)
            revived = true
        case .executing:
            return anomaly(.outOfOrder)
        case .pending, .ready:
            if (state == .ready) == isReady { return anomaly(.duplicate) }
        }
        let limit = retention.historyLimit
        let current = operations.update(id) { record -> OperationState in
            let current = record.state
            record.info.isReady = isReady
            if isReady, record.readyTime == OperationRecord.never {
                record.readyTime = time
                record.setOrigin(origin, of: .ready)
            }
            record.remember(.isReady, isReady, time: time, origin: origin, limit: limit)
            return current
        }!
        move(in: queue, from: current, to: isReady ? .ready : .pending)
        var change = StreamChange(.readinessChanged(id))
        change.revived = revived
        return change
    }

    /// The start of the operation at `slot` of the table (found by the caller; the transition
    /// inserts and removes no record, so the slot stays valid throughout).
    mutating func markStarted(_ id: OperationID, at slot: Int, time: UInt64, origin: EventOrigin) -> StreamChange {
        let (state, inferred, cancelled, queue, hasDependencies) = operations.read(slot: slot) {
            ($0.state, $0.finishWasInferred, $0.isCancelled, $0.queue, !$0.dependencies.isEmpty)
        }
        var change = StreamChange(.started(id))
        switch state {
        case .finished:
            guard inferred else { return anomaly(.afterFinish) }
            revive(id)
            change.revived = true
        case .executing:
            return anomaly(.duplicate)
        case .pending, .ready:
            break
        }
        if !cancelled, hasDependencies {
            // Foundation starts an operation only once all its dependencies finished: a finish
            // not seen yet (a sampled or external dependency, an older stream) is deduced.
            change.impliedFinishes = finishDependencies(of: id, time: time)
        }
        let limit = retention.historyLimit
        let current = operations.update(slot: slot) { record -> OperationState in
            let current = record.state
            record.info.isExecuting = true
            record.startTime = time
            record.setOrigin(origin, of: .started)
            if record.readyTime == OperationRecord.never {
                // Not seen becoming ready: Foundation starts only ready operations.
                record.readyTime = time
                record.setOrigin(.inferred, of: .ready)
            }
            record.remember(.isExecuting, true, time: time, origin: origin, limit: limit)
            return current
        }
        move(in: queue, from: current, to: .executing)
        return change
    }

    /// The finish of the operation at `slot` (see `markStarted`).
    mutating func markFinished(_ id: OperationID, at slot: Int, cancelled: Bool, time: UInt64, origin: EventOrigin) -> StreamChange {
        let (state, inferred, wasCancelled, queue, hasDependencies) = operations.read(slot: slot) {
            ($0.state, $0.finishWasInferred, $0.isCancelled, $0.queue, !$0.dependencies.isEmpty)
        }
        if state == .finished {
            guard inferred, origin != .inferred else { return anomaly(.duplicate) }
            confirmFinish(id, cancelled: cancelled, time: time, origin: origin)
            return StreamChange(.finishConfirmed(id))
        }
        var change = StreamChange(.finished(id))
        guard hasDependencies else {
            // Nothing else can have changed it since it was read: finished without reading it
            // again (the usual case, one lookup fewer per finish).
            finish(id, at: slot, from: state, wasCancelled: wasCancelled, queue: queue, cancelled: cancelled, time: time,
                   origin: origin, inferred: origin == .inferred)
            return change
        }
        if !cancelled, !wasCancelled {
            change.impliedFinishes = finishDependencies(of: id, time: time)
        }
        // Read again: if it depends on itself, it may have been finished, deduced, with the others.
        finish(id, cancelled: cancelled, time: time, origin: origin, inferred: origin == .inferred)
        return change
    }

    mutating func markReleased(_ id: OperationID, time: UInt64) -> StreamChange {
        guard let (state, cancelled) = operations.read(id, { ($0.state, $0.isCancelled) }) else {
            return anomaly(.unknownOperation)
        }
        guard state != .finished else { return anomaly(.duplicate) }
        operations[id]!.flags.insert(.vanished)
        finish(id, cancelled: cancelled, time: time, origin: .inferred, inferred: true)
        return StreamChange(.finished(id))
    }

    mutating func markCancelled(_ id: OperationID, time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let (state, inferred, cancelled, queue) = operations.read(id, {
            ($0.state, $0.finishWasInferred, $0.isCancelled, $0.queue)
        }) else { return anomaly(.unknownOperation) }
        if cancelled { return anomaly(.duplicate) }
        if state == .finished {
            // A deduced finish did not know of the cancellation; an exact one said it was not.
            guard inferred else { return anomaly(.afterFinish) }
            if let queue, queues.contains(queue) { queues[queue]!.cancelled += 1 }
        }
        operations[id]!.info.isCancelled = true
        remember(id, .isCancelled, true, time: time, origin: origin)
        return StreamChange(.cancelled(id))
    }

    mutating func addDependency(_ id: OperationID, _ dependency: OperationID, time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let (dependencies, state, inferred) = operations.read(id, { ($0.dependencies, $0.state, $0.finishWasInferred) }) else {
            return anomaly(.unknownOperation)
        }
        if dependencies.contains(dependency) { return anomaly(.duplicate) }
        operations[id]!.info.dependencies.append(dependency)
        link(id, to: dependency)
        remember(id, .dependencies, true, time: time, origin: origin, detail: Int32(truncatingIfNeeded: dependency.rawValue))
        // The graph is kept whole even so: a finish seen too early must not lose an edge.
        var change = StreamChange(.dependencyAdded(id, dependency: dependency))
        if state == .finished, !inferred {
            counters.count(.afterFinish)
            change.anomaly = .afterFinish
        }
        return change
    }

    mutating func removeDependency(_ id: OperationID, _ dependency: OperationID, time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let slot = operations.read(id, { $0.dependencies.firstIndex(of: dependency) }) else {
            return anomaly(.unknownOperation)
        }
        guard let slot else { return anomaly(.duplicate) }
        operations[id]!.info.dependencies.remove(at: slot)
        if let at = operations.read(dependency, { $0.dependents.firstIndex(of: id) }), let at {
            operations[dependency]!.dependents.remove(at: at)
        } else if awaited[dependency] != nil, let at = awaited[dependency]!.firstIndex(of: id) {
            awaited[dependency]!.remove(at: at)
            awaitedEntries -= 1
            if awaited[dependency]!.isEmpty { awaited[dependency] = nil }
        }
        remember(id, .dependencies, false, time: time, origin: origin, detail: Int32(truncatingIfNeeded: dependency.rawValue))
        return StreamChange(.dependencyRemoved(id, dependency: dependency))
    }

    mutating func changePriority(_ id: OperationID, _ priority: OperationPriority, _ effective: OperationPriority,
                                 time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let (state, old) = operations.read(id, { ($0.state, $0.effectivePriority) }) else {
            return anomaly(.unknownOperation)
        }
        guard state != .finished else { return anomaly(.afterFinish) }
        operations[id]!.info.priority = priority
        operations[id]!.info.effectivePriority = effective
        remember(id, .queuePriority, true, time: time, origin: origin, detail: Int32(priority.rawValue))
        return StreamChange(.priorityChanged(id, effectiveChanged: old != effective))
    }

    mutating func markUnsignalledFinish(_ id: OperationID, time: UInt64, origin: EventOrigin) -> StreamChange {
        guard let (state, flagged) = operations.read(id, { ($0.state, $0.unsignalledFinish) }) else {
            return anomaly(.unknownOperation)
        }
        guard state != .finished else { return anomaly(.afterFinish) }
        if flagged { return anomaly(.duplicate) }
        operations[id]!.flags.insert(.unsignalledFinish)
        remember(id, .unsignalledFinish, true, time: time, origin: origin)
        return StreamChange(.unsignalledFinish(id))
    }

    // MARK: Finishing

    /// Marks finished, deduced, every unfinished direct dependency of `id` (and nothing
    /// further): returns them. Instrumented dependencies are left as they are: their finish is
    /// reported exactly and comes first in a sequenced stream, so one still unfinished here was
    /// run ahead of (an `isReady` override that ignores dependencies), not missed.
    private mutating func finishDependencies(of id: OperationID, time: UInt64) -> [OperationID] {
        guard let dependencies = operations.read(id, { $0.dependencies }), !dependencies.isEmpty else { return [] }
        var implied: [OperationID] = []
        for dependency in dependencies {
            guard let (state, cancelled, observation) = operations.read(dependency, {
                ($0.state, $0.isCancelled, $0.observation)
            }), state != .finished, observation != .instrumented else { continue }
            finish(dependency, cancelled: cancelled, time: time, origin: .inferred, inferred: true)
            implied.append(dependency)
        }
        return implied
    }

    /// Moves an unfinished operation to finished.
    private mutating func finish(_ id: OperationID, cancelled: Bool, time: UInt64, origin: EventOrigin, inferred: Bool) {
        guard let slot = operations.slot(of: id) else { return }
        let (state, wasCancelled, queue) = operations.read(slot: slot) { ($0.state, $0.isCancelled, $0.queue) }
        guard state != .finished else { return }
        finish(id, at: slot, from: state, wasCancelled: wasCancelled, queue: queue, cancelled: cancelled, time: time,
               origin: origin, inferred: inferred)
    }

    /// `finish` of the operation at `slot`, just read to be unfinished, in `state`.
    private mutating func finish(_ id: OperationID, at slot: Int, from state: OperationState, wasCancelled: Bool,
                                 queue: QueueID?, cancelled: Bool, time: UInt64, origin: EventOrigin, inferred: Bool) {
        let limit = retention.historyLimit
        operations.update(slot: slot) { record in
            if cancelled { record.info.isCancelled = true }
            record.info.isExecuting = false
            record.finishTime = time
            record.setOrigin(inferred ? .inferred : origin, of: .finished)
            if inferred { record.flags.insert(.finishInferred) }
            if state == .executing { record.remember(.isExecuting, false, time: time, origin: origin, limit: limit) }
            record.remember(.isFinished, true, time: time, origin: origin, limit: limit)
        }
        if let queue {
            queues.update(queue) { record in
                record.count(state, -1)
                record.finished += 1
                if cancelled || wasCancelled { record.cancelled += 1 }
                record.roomSince = max(record.roomSince, time)
            }
        }
        finishedOrder.append(id)
        retainedFinished += 1
    }

    /// An exact (or sampled) finish of an operation whose finish was deduced: its time and
    /// cancellation are taken, counted once.
    private mutating func confirmFinish(_ id: OperationID, cancelled: Bool, time: UInt64, origin: EventOrigin) {
        let (wasCancelled, queue) = operations.read(id, { ($0.isCancelled, $0.queue) })!
        operations[id]!.flags.remove(.finishInferred)
        operations[id]!.finishTime = time
        operations[id]!.setOrigin(origin, of: .finished)
        if cancelled, !wasCancelled {
            operations[id]!.info.isCancelled = true
            if let queue, queues.contains(queue) { queues[queue]!.cancelled += 1 }
        }
        remember(id, .isFinished, true, time: time, origin: origin)
    }

    /// Undoes a deduced finish: the operation showed it is alive. It goes back to what its keys
    /// say (pending, ready) and is counted unfinished again.
    mutating func revive(_ id: OperationID) {
        guard let (cancelled, queue) = operations.read(id, { ($0.isCancelled, $0.queue) }) else { return }
        operations[id]!.flags.remove(.finishInferred)
        operations[id]!.finishTime = OperationRecord.never
        retainedFinished -= 1
        let state = operations.read(id, { $0.state })!
        if let queue, queues.contains(queue) {
            queues[queue]!.finished -= 1
            if cancelled { queues[queue]!.cancelled -= 1 }
            queues[queue]!.count(state, 1)
        }
    }
}
