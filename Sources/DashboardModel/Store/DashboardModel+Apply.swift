import OperationEvents

extension DashboardModel {
    /// Applies one event to the stream state and keeps the derived facts up to date with what
    /// it changed; returns true when the sequence numbers jumped (events were missed).
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
        if change.effect != .none || change.revived || !change.released.isEmpty { stateVersion &+= 1 }
        switch change.effect {
        case .operationAdded, .operationUpdated, .dependencyAdded, .dependencyRemoved, .queueAppeared, .queueReleased:
            structureVersion &+= 1
        default:
            if change.revived || !change.impliedFinishes.isEmpty { structureVersion &+= 1 }
        }
        for id in change.impliedFinishes { finished(id, time: time) }
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
            relevel(from: id)
            mayCloseLoop(id, through: dependency)
        case .dependencyRemoved(let id, let dependency):
            if loopMembers.contains(id), loopMembers.contains(dependency) {
                loopsDirty = true
                cyclesDirty = true
            }
            relevel(from: id)
        case .priorityChanged(let id, let effectiveChanged):
            if effectiveChanged { enqueue(id, again: true) }
        }
        for released in change.released { react(to: released.change, time: released.event.time) }
    }

    private mutating func added(_ id: OperationID) {
        enqueue(id, again: false)
        guard let (dependencies, dependents) = operations.read(id, { ($0.dependencies, $0.dependents.count) }),
              !dependencies.isEmpty || dependents > 0 else { return }
        stream.setLevel(computedLevel(of: id), of: id)
        guard dependents > 0 else { return }
        // Operations named it before it was announced: their levels move, and it may close a loop.
        relevel(from: id)
        for dependency in dependencies { mayCloseLoop(id, through: dependency) }
    }

    private mutating func started(_ id: OperationID, time: UInt64) {
        guard let (addedAt, late, queue, qos) = operations.read(id, { ($0.addedAt, $0.firstSeenLate, $0.queue, $0.qualityOfService) })
        else { return }
        // Seen late, it was added at an unknown earlier time: its wait is not known.
        if !late {
            let wait = time >= addedAt ? time - addedAt : 0
            if let queue { queueFacts.update(queue) { $0.latency.recordWait(nanoseconds: wait) } }
            latencyByQoS[qos, default: LatencyStatistics()].recordWait(nanoseconds: wait)
        }
        dequeueFront(of: queue)
    }

    private mutating func finished(_ id: OperationID, time: UInt64) {
        if cycleMembers.contains(id) { cyclesDirty = true }
        guard let (started, added, late, queue, qos) = operations.read(id, {
            ($0.startedAt, $0.addedAt, $0.firstSeenLate, $0.queue, $0.qualityOfService)
        }) else { return }
        if let startedAt = OperationRecord.knownStart(startedAt: started, addedAt: added, firstSeenLate: late) {
            let run = time >= startedAt ? time - startedAt : 0
            if let queue { queueFacts.update(queue) { $0.latency.recordRun(nanoseconds: run) } }
            latencyByQoS[qos, default: LatencyStatistics()].recordRun(nanoseconds: run)
        }
        if let queue { queueFacts.update(queue) { $0.throughput.record(at: time) } }
        dequeueFront(of: queue)
    }

    /// A cancelled operation waits for nothing: its level drops, and a loop through it opens.
    private mutating func cancellationMayHaveChanged(_ id: OperationID) {
        guard let (cancelled, level) = operations.read(id, { ($0.isCancelled, $0.level) }), cancelled else { return }
        if loopMembers.contains(id) { loopsDirty = true }
        if level != 0 { relevel(from: id) }
    }

    /// A deduced finish was undone: the operation waits again, and may be part of a cycle.
    private mutating func revived(_ id: OperationID) {
        enqueue(id, again: true)
        cyclesDirty = true
    }
}
