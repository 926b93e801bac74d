import OperationEvents

extension DashboardModel {
    /// Applies one event to the stream state and keeps the derived facts up to date with what
    /// it changed; returns true when the sequence numbers jumped (events were missed).
    @discardableResult
    mutating func applyEvent(_ event: UnsafePointer<MonitorEvent>) -> Bool {
        let time = event.pointee.time
        if time > now { now = time }
        let change = stream.apply(event)
        react(to: change, time: time)
        return change.missedEvents > 0
    }

    /// `applyEvent(_:)` of an event passed by value.
    @discardableResult
    mutating func applyEvent(_ event: MonitorEvent) -> Bool {
        if event.time > now { now = event.time }
        let change = stream.apply(event)
        react(to: change, time: event.time)
        return change.missedEvents > 0
    }

    /// Updates levels, start lists, cycles and statistics after a change of the stream state.
    /// Bounded work: what cannot be followed within a small budget is marked for the batch's end.
    mutating func react(to change: StreamChange, time: UInt64) {
        if change.effect != .none || change.revived || change.releasedAny { stateVersion &+= 1 }
        switch change.effect {
        case .operationAdded, .operationUpdated, .dependencyAdded, .dependencyRemoved, .queueAppeared, .queueReleased:
            structureVersion &+= 1
        default:
            if change.revived || change.impliesFinishes { structureVersion &+= 1 }
        }
        if change.impliesFinishes {
            for id in change.impliedFinishes { finished(id, time: time) }
        }
        if change.revived, let id = change.operation { revived(id) }
        switch change.effect {
        case .none, .readinessChanged, .unsignalledFinish, .noted, .queueChanged:
            break
        case .finishConfirmed(let id):
            cancellationMayHaveChanged(id)
        case .queueAppeared(let id, _):
            if !queueFacts.contains(id) {
                queueFacts[id] = QueueFacts(id: id, throughputSeconds: configuration.throughputWindowSeconds)
            }
            // Operations announced before their queue could not be listed for it.
            if !queuesAwaited.isEmpty, queuesAwaited.remove(id) != nil { rebuildStartLists() }
        case .queueReleased(let id, let forgotten):
            if forgotten { queueFacts[id] = nil }
        case .operationAdded(let id):
            added(id)
            if change.anomaly == .unknownQueue, let queue = operations.read(id, { $0.queue }) ?? nil {
                queuesAwaited.insert(queue)
            }
        case .operationUpdated(let id, let queueChanged, let gainedDependencies):
            if queueChanged { enqueue(id, again: true) }
            if gainedDependencies {
                refreshBlocker(of: id)
                relevel(from: id)
                loopsDirty = true
                cyclesDirty = true
            }
        case .started(let id):
            started(id, time: time)
        case .finished(let id):
            finished(id, time: time)
            cancellationMayHaveChanged(id)
        case .cancelled(let id):
            if cycleMembers.contains(id) { cyclesDirty = true }
            cancellationMayHaveChanged(id)
        case .dependencyAdded(let id, let dependency):
            refreshBlocker(of: id)
            relevel(from: id)
            mayCloseLoop(id, through: dependency)
        case .dependencyRemoved(let id, let dependency):
            refreshBlocker(of: id)
            if loopMembers.contains(id), loopMembers.contains(dependency) {
                loopsDirty = true
                cyclesDirty = true
            }
            relevel(from: id)
        case .priorityChanged(let id, let effectiveChanged):
            if effectiveChanged { enqueue(id, again: true) }
        }
        if change.releasedAny {
            for released in change.released { react(to: released.change, time: released.event.time) }
        }
    }

    private mutating func added(_ id: OperationID) {
        enqueue(id, again: false)
        guard let (dependencies, dependents) = operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.dependents.count) }),
              !dependencies.isEmpty || dependents > 0 else { return }
        if dependencies.isEmpty {
            stream.setLevel(computedLevel(of: id), of: id)
        } else {
            let (level, blocker) = levelAndBlocker(of: id)
            stream.setLevel(level, blocker: blocker, of: id)
        }
        guard dependents > 0 else { return }
        // Operations named it before it was announced: their levels move, and it may close a loop.
        relevel(from: id)
        for dependency in dependencies { mayCloseLoop(id, through: dependency) }
    }

    private mutating func started(_ id: OperationID, time: UInt64) {
        guard let (addedAt, late, queue, qos) = operations.withRecord(id, {
            ($0.pointee.addedAt, $0.pointee.firstSeenLate, $0.pointee.queue, $0.pointee.qualityOfService)
        })
        else { return }
        // Seen late, it was added at an unknown earlier time: its wait is not known.
        let wait: UInt64? = late ? nil : (time >= addedAt ? time - addedAt : 0)
        if let wait { recordLatency(qos) { $0.recordWait(nanoseconds: wait) } }
        guard let queue else { return }
        // One visit to the queue's facts: the statistics and the start lists together.
        Self.updateFacts(&queueFacts, of: queue, stream.operations) { facts, table in
            if let wait { facts.latency.recordWait(nanoseconds: wait) }
            Self.dequeueFront(&facts, table)
        }
    }

    private mutating func finished(_ id: OperationID, time: UInt64) {
        if !cycleMembers.isEmpty, cycleMembers.contains(id) { cyclesDirty = true }
        guard let (started, added, late, queue, qos) = operations.withRecord(id, {
            ($0.pointee.startedAt, $0.pointee.addedAt, $0.pointee.firstSeenLate, $0.pointee.queue, $0.pointee.qualityOfService)
        }) else { return }
        var run: UInt64?
        if let startedAt = OperationRecord.knownStart(startedAt: started, addedAt: added, firstSeenLate: late) {
            run = time >= startedAt ? time - startedAt : 0
        }
        if let run { recordLatency(qos) { $0.recordRun(nanoseconds: run) } }
        guard let queue else { return }
        Self.updateFacts(&queueFacts, of: queue, stream.operations) { facts, table in
            if let run { facts.latency.recordRun(nanoseconds: run) }
            facts.throughput.record(at: time)
            Self.dequeueFront(&facts, table)
        }
    }

    /// A cancelled operation waits for nothing: its level drops, and a loop through it opens.
    private mutating func cancellationMayHaveChanged(_ id: OperationID) {
        guard let (cancelled, level) = operations.withRecord(id, { ($0.pointee.isCancelled, $0.pointee.level) }), cancelled else { return }
        if loopMembers.contains(id) { loopsDirty = true }
        if level != 0 { relevel(from: id) }
    }

    /// A deduced finish was undone: the operation waits again, and may be part of a cycle.
    private mutating func revived(_ id: OperationID) {
        enqueue(id, again: true)
        cyclesDirty = true
    }
}
