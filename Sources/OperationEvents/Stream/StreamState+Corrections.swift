/// Catching up with a live snapshot after events were lost: the corrections that make the
/// state agree with it, and applying them.
extension StreamState {
    /// The events that, applied in order, make this state agree with a live snapshot read after
    /// events were lost: queues that appeared, changed or were released; operations it holds
    /// as unfinished that the snapshot no longer lists (they finished unseen: `released`);
    /// operations it
    /// does not know; and, for the others, every key that differs.
    ///
    /// The events are numbered from `nextSequence` and stamped `time` (default: the snapshot's),
    /// so that a hub can apply them to its own state and emit them into its stream at once:
    /// every consumer then converges the same way. Facts read from the snapshot are `sampled`,
    /// deduced finishes `inferred`.
    public func corrections(toMatch snapshot: MonitorSnapshot, time: UInt64? = nil) -> [MonitorEvent] {
        let time = time ?? snapshot.time
        var changes: [(MonitorEvent.Change, EventOrigin)] = []
        queueCorrections(snapshot, into: &changes)
        // Gone first: a dependent's start below must not deduce anything about them. They are
        // reported released (finished, unseen), which says nothing about their dependencies.
        let listed = Set(snapshot.operations.map(\.id))
        var vanished: [OperationID] = []
        operations.forEach { record in
            if record.pointee.state != .finished, !listed.contains(record.pointee.id) { vanished.append(record.pointee.id) }
        }
        for id in vanished.sorted() { changes.append((.released(operation: id), .inferred)) }
        for info in snapshot.operations {
            operationCorrections(info, into: &changes)
        }
        var sequence = nextSequence
        return changes.map { change, origin in
            defer { sequence &+= 1 }
            return MonitorEvent(sequence: sequence, time: time, origin: origin, change: change)
        }
    }

    private func queueCorrections(_ snapshot: MonitorSnapshot, into changes: inout [(MonitorEvent.Change, EventOrigin)]) {
        for info in snapshot.queues {
            guard let known = queues[info.id], !known.isReleased else {
                changes.append((.queueAppeared(info), .sampled))
                continue
            }
            let id = info.id
            if known.info.isSuspended != info.isSuspended { changes.append((.queueSuspended(queue: id, suspended: info.isSuspended), .sampled)) }
            if known.info.maxConcurrentOperationCount != info.maxConcurrentOperationCount {
                changes.append((.queueMaxConcurrency(queue: id, count: info.maxConcurrentOperationCount), .sampled))
            }
            if known.info.name != info.name { changes.append((.queueRenamed(queue: id, name: info.name), .sampled)) }
            if known.info.qualityOfService != info.qualityOfService {
                changes.append((.queueQualityOfService(queue: id, qos: info.qualityOfService), .sampled))
            }
            if known.info.isMainQueue != info.isMainQueue || known.info.observation != info.observation {
                changes.append((.queueAppeared(info), .sampled))
            }
        }
        let alive = Set(snapshot.queues.map(\.id))
        for id in queues.ids.sorted() where !alive.contains(id) && queues[id]?.isReleased == false {
            changes.append((.queueReleased(queue: id), .sampled))
        }
    }

    private func operationCorrections(_ info: OperationInfo, into changes: inout [(MonitorEvent.Change, EventOrigin)]) {
        let id = info.id
        guard let known = operations[id] else {
            changes.append((.operationAdded(info), .sampled))
            return
        }
        if known.state == .finished {
            // An exact finish is final; a deduced one is undone by the announcement, and the
            // keys below are then compared with what the record says after it.
            guard known.finishWasInferred else { return }
            changes.append((.operationAdded(info), .sampled))
        } else if known.info.queue != info.queue || known.info.name != info.name || known.info.typeNameStorage != info.typeNameStorage
                    || known.info.qualityOfService != info.qualityOfService || known.info.observation != info.observation
                    || known.info.isAsynchronous != info.isAsynchronous || known.info.isBarrier != info.isBarrier
                    || known.info.priorityIsExplicit != info.priorityIsExplicit {
            changes.append((.operationAdded(info), .sampled))
        }
        for dependency in known.dependencies where !info.dependencies.contains(dependency) {
            changes.append((.dependencyRemoved(operation: id, dependency: dependency), .sampled))
        }
        for dependency in info.dependencies where !known.dependencies.contains(dependency) {
            changes.append((.dependencyAdded(operation: id, dependency: dependency), .sampled))
        }
        if known.priority != info.priority || known.effectivePriority != info.effectivePriority {
            changes.append((.priorityChanged(operation: id, priority: info.priority, effective: info.effectivePriority), .sampled))
        }
        if info.isCancelled, !known.isCancelled { changes.append((.cancelled(operation: id), .sampled)) }
        // After a revival the record's keys are what it had before its deduced finish.
        let state: OperationState = known.info.isExecuting ? .executing : (known.info.isReady ? .ready : .pending)
        if info.isExecuting {
            if state != .executing { changes.append((.started(operation: id), .sampled)) }
        } else if state != .executing, (state == .ready) != info.isReady {
            changes.append((.ready(operation: id, isReady: info.isReady), .sampled))
        }
    }

    /// Makes this state agree with a live snapshot read after events were lost, and expect the
    /// events that follow it: the corrections are applied (not numbered) and `nextSequence`
    /// moves to the snapshot's. Returns each correction with what it changed.
    ///
    /// Events held for operations not announced yet are dropped first (counted as stale): the
    /// snapshot, read after they arrived, reflects them.
    public mutating func catchUp(to snapshot: MonitorSnapshot) -> [(event: MonitorEvent, change: StreamChange)] {
        let corrections = prepareCatchUp(to: snapshot)
        var result: [(event: MonitorEvent, change: StreamChange)] = []
        for event in corrections {
            result.append((event, apply(event.change, time: event.time, origin: event.origin)))
        }
        finishCatchUp(at: snapshot)
        return result
    }

    /// The first half of `catchUp(to:)`, for a consumer that reacts to each correction as it
    /// is applied: drops the held events and returns the corrections to apply (unnumbered).
    package mutating func prepareCatchUp(to snapshot: MonitorSnapshot) -> [MonitorEvent] {
        noteEventsLost(total: snapshot.droppedEvents)
        for _ in 0..<held.count { counters.count(.stale) }
        held = HeldEvents()
        return corrections(toMatch: snapshot)
    }

    /// The second half of `catchUp(to:)`: the state now expects the events after the snapshot.
    package mutating func finishCatchUp(at snapshot: MonitorSnapshot) {
        nextSequence = snapshot.sequence
        if snapshot.time > time { time = snapshot.time }
    }
}
