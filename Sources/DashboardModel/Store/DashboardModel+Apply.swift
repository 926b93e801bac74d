import OperationEvents

extension DashboardModel {
    /// Applies one event. State only moves forward (pending → ready → executing → finished), so
    /// a late or duplicate event (after a re-sync, or from a sampled source) cannot undo a finish.
    public mutating func apply(_ event: MonitorEvent) {
        if event.sequence < sequenceFloor { return }
        if event.time > now { now = event.time }
        stateVersion &+= 1
        let time = event.time
        let source = event.origin
        switch event.change {
        case .queueAppeared(let info):
            if queues[info.id] != nil {
                queues[info.id]!.apply(info)
            } else {
                queues[info.id] = QueueRecord(info: info, throughputSeconds: configuration.throughputWindowSeconds)
            }
        case .queueSuspended(let queue, let suspended):
            queues[queue]?.isSuspended = suspended
        case .queueMaxConcurrency(let queue, let count):
            queues[queue]?.maxConcurrentOperationCount = count
        case .queueRenamed(let queue, let name):
            queues[queue]?.name = name
        case .queueQualityOfService(let queue, let qos):
            queues[queue]?.qualityOfService = qos
        case .queueCancelledAll:
            break
        case .queueDepth(let queue, let operations):
            queues[queue]?.sampledDepth = operations
        case .queueReleased(let queue):
            queues[queue]?.isReleased = true
        case .operationAdded(let info):
            add(info, time: time, order: event.sequence, source: source)
        case .ready(let id, let isReady):
            markReady(id, isReady, time: time, source: source)
        case .started(let id):
            markStarted(id, time: time, source: source)
        case .finished(let id, let cancelled):
            markFinished(id, cancelled: cancelled, time: time, source: source)
        case .cancelled(let id):
            markCancelled(id, time: time, source: source)
        case .dependencyAdded(let id, let dependency):
            addEdge(id, dependsOn: dependency, time: time, source: source)
        case .dependencyRemoved(let id, let dependency):
            removeEdge(id, dependsOn: dependency, time: time, source: source)
        case .priorityChanged(let id, let priority, let effective):
            changePriority(id, priority, effective, time: time, source: source)
        case .unsignalledFinish(let id):
            guard operations[id] != nil, operations.read(id, { $0.state })! != .finished else { return }
            operations[id]!.unsignalledFinish = true
            remember(KeyChange(time: time, key: .unsignalledFinish, value: true, origin: source), for: id)
        case .released(let id):
            guard let record = operations[id], record.state != .finished else { return }
            operations[id]!.vanished = true
            markFinished(id, cancelled: record.isCancelled, time: time, source: .inferred)
        }
    }

    /// Appends a history entry, keeping at most `historyLimit`.
    mutating func remember(_ change: KeyChange, for id: OperationID) {
        guard operations.contains(id) else { return }
        if operations.read(id, { $0.history })!.count >= configuration.historyLimit {
            operations[id]!.history.removeFirst()
        }
        operations[id]!.history.append(change)
    }
}
