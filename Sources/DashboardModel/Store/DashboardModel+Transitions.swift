import OperationEvents

extension DashboardModel {
    /// A new operation, or a known one announced again (a dependency-only operation that joined a
    /// queue, a sampled re-discovery, a snapshot).
    mutating func add(_ info: OperationInfo, time: UInt64, order: UInt64, source: EventSource) {
        if let existing = operations[info.id] {
            guard existing.state != .finished else { return }
            reannounce(info, existing: existing)
            return
        }
        var record = OperationRecord(info: info, time: time, enqueueOrder: order)
        if info.isCancelled { record.readyAt = record.readyAt ?? time }
        record.history.append(KeyChange(time: time, key: .added, value: true, source: source))
        operations[info.id] = record
        for dependency in info.dependencies { link(info.id, to: dependency) }
        if let named = awaited.removeValue(forKey: info.id) {
            // Operations that named this one as a dependency before it was announced.
            operations[info.id]!.dependents += named
            cyclesDirty = true
        }
        operations[info.id]!.level = computedLevel(of: info.id)
        count(info.id, in: info.queue, state: record.state, delta: 1)
        enqueue(info.id)
        structureVersion &+= 1
    }

    private mutating func reannounce(_ info: OperationInfo, existing: OperationRecord) {
        let id = info.id
        if existing.queue != info.queue {
            count(id, in: existing.queue, state: existing.state, delta: -1)
            operations[id]!.queue = info.queue
            count(id, in: info.queue, state: existing.state, delta: 1)
            enqueue(id)
        }
        operations[id]!.name = info.name
        operations[id]!.typeName = info.typeName
        operations[id]!.priority = info.priority
        operations[id]!.effectivePriority = info.effectivePriority
        operations[id]!.qualityOfService = info.qualityOfService
        operations[id]!.observation = info.observation
        operations[id]!.isAsynchronous = info.isAsynchronous
        var gainedDependency = false
        for dependency in info.dependencies where !existing.dependencies.contains(dependency) {
            link(id, to: dependency)
            operations[id]!.dependencies.append(dependency)
            if reaches(from: dependency, to: id) { cyclesDirty = true }
            gainedDependency = true
        }
        if gainedDependency { relevel(from: id) }
        structureVersion &+= 1
    }

    /// Records that `id` depends on `dependency` (on the dependency's side).
    private mutating func link(_ id: OperationID, to dependency: OperationID) {
        if operations[dependency] != nil {
            operations[dependency]!.dependents.append(id)
        } else {
            awaited[dependency, default: []].append(id)
        }
    }

    mutating func markReady(_ id: OperationID, _ isReady: Bool, time: UInt64, source: EventSource) {
        guard let record = operations[id], record.state <= .ready else { return }
        let state: OperationState = isReady ? .ready : .pending
        if record.state != state {
            move(id, to: state)
            if isReady, operations[id]!.readyAt == nil { operations[id]!.readyAt = time }
        }
        remember(KeyChange(time: time, key: .isReady, value: isReady, source: source), for: id)
    }

    mutating func markStarted(_ id: OperationID, time: UInt64, source: EventSource) {
        guard let record = operations[id], record.state < .executing else { return }
        if !record.isCancelled {
            // Foundation starts an operation only once all its dependencies finished: a finish the
            // events have not shown yet (hooked dependencies race their dependents) is implied.
            for dependency in record.dependencies { impliedFinish(dependency, time: time) }
        }
        move(id, to: .executing)
        operations[id]!.startedAt = time
        if operations[id]!.readyAt == nil { operations[id]!.readyAt = time }
        let wait = time >= record.addedAt ? time - record.addedAt : 0
        if let queue = record.queue { queues[queue]?.latency.recordWait(nanoseconds: wait) }
        latencyByQoS[record.qualityOfService, default: LatencyStatistics()].recordWait(nanoseconds: wait)
        remember(KeyChange(time: time, key: .isExecuting, value: true, source: source), for: id)
        dequeueFront(of: record.queue)
    }

    mutating func markFinished(_ id: OperationID, cancelled: Bool, time: UInt64, source: EventSource) {
        guard let record = operations[id], record.state != .finished else { return }
        if !cancelled, !record.isCancelled {
            for dependency in record.dependencies { impliedFinish(dependency, time: time) }
        }
        if cancelled { operations[id]!.isCancelled = true }
        let wasExecuting = record.state == .executing
        move(id, to: .finished)
        operations[id]!.finishedAt = time
        if let startedAt = record.startedAt {
            let run = time >= startedAt ? time - startedAt : 0
            if let queue = record.queue { queues[queue]?.latency.recordRun(nanoseconds: run) }
            latencyByQoS[record.qualityOfService, default: LatencyStatistics()].recordRun(nanoseconds: run)
        }
        if let queue = record.queue {
            queues[queue]?.finished += 1
            if cancelled || record.isCancelled { queues[queue]?.cancelled += 1 }
            queues[queue]?.throughput.record(at: time)
        }
        if wasExecuting { remember(KeyChange(time: time, key: .isExecuting, value: false, source: source), for: id) }
        remember(KeyChange(time: time, key: .isFinished, value: true, source: source), for: id)
        finishedOrder.append(id)
        if cycleMembers.contains(id) { cyclesDirty = true }
        dequeueFront(of: record.queue)
    }

    /// A dependency must have finished: mark it so, once.
    private mutating func impliedFinish(_ id: OperationID, time: UInt64) {
        guard let record = operations[id], record.state != .finished else { return }
        markFinished(id, cancelled: record.isCancelled, time: time, source: .inferred)
    }

    mutating func markCancelled(_ id: OperationID, time: UInt64, source: EventSource) {
        guard let record = operations[id], !record.isCancelled else { return }
        operations[id]!.isCancelled = true
        remember(KeyChange(time: time, key: .isCancelled, value: true, source: source), for: id)
        if cycleMembers.contains(id) { cyclesDirty = true }
    }

    mutating func addEdge(_ id: OperationID, dependsOn dependency: OperationID, time: UInt64, source: EventSource) {
        guard let record = operations[id], !record.dependencies.contains(dependency) else { return }
        operations[id]!.dependencies.append(dependency)
        link(id, to: dependency)
        remember(KeyChange(time: time, key: .dependencies, value: true, source: source, detail: Int32(truncatingIfNeeded: dependency.rawValue)), for: id)
        if reaches(from: dependency, to: id) { cyclesDirty = true }
        relevel(from: id)
        structureVersion &+= 1
    }

    mutating func removeEdge(_ id: OperationID, dependsOn dependency: OperationID, time: UInt64, source: EventSource) {
        guard let record = operations[id], let slot = record.dependencies.firstIndex(of: dependency) else { return }
        operations[id]!.dependencies.remove(at: slot)
        if let at = operations[dependency]?.dependents.firstIndex(of: id) {
            operations[dependency]!.dependents.remove(at: at)
        }
        remember(KeyChange(time: time, key: .dependencies, value: false, source: source, detail: Int32(truncatingIfNeeded: dependency.rawValue)), for: id)
        if cycleMembers.contains(id) { cyclesDirty = true }
        relevel(from: id)
        structureVersion &+= 1
    }

    mutating func changePriority(_ id: OperationID, _ priority: OperationPriority, _ effective: OperationPriority,
                                 time: UInt64, source: EventSource) {
        guard let record = operations[id], record.state != .finished else { return }
        operations[id]!.priority = priority
        operations[id]!.effectivePriority = effective
        remember(KeyChange(time: time, key: .queuePriority, value: true, source: source, detail: Int32(priority.rawValue)), for: id)
        if record.effectivePriority != effective { enqueue(id) }
    }

    // MARK: Counts and scheduling lists

    /// Moves an operation to a new state, keeping its queue's counts right.
    mutating func move(_ id: OperationID, to state: OperationState) {
        guard let record = operations[id], record.state != state else { return }
        count(id, in: record.queue, state: record.state, delta: -1)
        operations[id]!.state = state
        count(id, in: record.queue, state: state, delta: 1)
    }

    private mutating func count(_ id: OperationID, in queue: QueueID?, state: OperationState, delta: Int) {
        guard let queue, queues[queue] != nil else { return }
        switch state {
        case .pending: queues[queue]!.pending += delta
        case .ready: queues[queue]!.ready += delta
        case .executing: queues[queue]!.executing += delta
        case .finished: break
        }
    }

    /// Appends an unstarted operation to its queue's list for its effective priority.
    mutating func enqueue(_ id: OperationID) {
        guard let record = operations[id], record.state < .executing, let queue = record.queue,
              queues[queue] != nil else { return }
        queues[queue]!.startLists[QueueRecord.listIndex(record.effectivePriority)].append(id)
    }

    /// Drops started, finished and moved entries from the fronts of a queue's lists.
    mutating func dequeueFront(of queue: QueueID?) {
        guard let queue, queues[queue] != nil else { return }
        for index in OperationPriority.schedulingOrder.indices {
            while let first = queues[queue]!.startLists[index].first, !isLive(first, in: queue, list: index) {
                queues[queue]!.startLists[index].removeFirst()
            }
        }
    }

    /// True while `id` belongs at this place of the queue's start lists.
    func isLive(_ id: OperationID, in queue: QueueID, list index: Int) -> Bool {
        guard let record = operations[id] else { return false }
        return record.state < .executing && record.queue == queue
            && QueueRecord.listIndex(record.effectivePriority) == index
    }
}
