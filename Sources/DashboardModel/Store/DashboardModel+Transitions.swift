import OperationEvents

extension DashboardModel {
    /// A new operation, or a known one announced again (a dependency-only operation that joined a
    /// queue, a sampled re-discovery, a snapshot).
    mutating func add(_ info: OperationInfo, time: UInt64, order: UInt64, source: EventOrigin) {
        if let state = operations.read(info.id, { $0.state }) {
            guard state != .finished else { return }
            reannounce(info, existing: operations[info.id]!)
            return
        }
        var record = OperationRecord(info: info, time: time, enqueueOrder: order)
        if info.isCancelled { record.readyAt = record.readyAt ?? time }
        // Room for a typical life (added, ready, executing, finished) in one allocation.
        record.history.reserveCapacity(min(6, configuration.historyLimit))
        record.history.append(KeyChange(time: time, key: .added, value: true, origin: source))
        let state = record.state
        operations[info.id] = record
        for dependency in info.dependencies { link(info.id, to: dependency) }
        if !awaited.isEmpty, let named = awaited.removeValue(forKey: info.id) {
            // Operations that named this one as a dependency before it was announced.
            operations[info.id]!.dependents += named
            cyclesDirty = true
        }
        if !info.dependencies.isEmpty || operations.read(info.id, { $0.dependents })!.count > 0 {
            operations[info.id]!.level = computedLevel(of: info.id)
        }
        count(info.id, in: info.queue, state: state, delta: 1)
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
        if operations.contains(dependency) {
            operations[dependency]!.dependents.append(id)
        } else {
            awaited[dependency, default: []].append(id)
        }
    }

    mutating func markReady(_ id: OperationID, _ isReady: Bool, time: UInt64, source: EventOrigin) {
        guard let current = operations.read(id, { $0.state }), current <= .ready else { return }
        let state: OperationState = isReady ? .ready : .pending
        if current != state {
            move(id, to: state)
            if isReady, operations.read(id, { $0.readyAt })! == nil { operations[id]!.readyAt = time }
        }
        remember(KeyChange(time: time, key: .isReady, value: isReady, origin: source), for: id)
    }

    mutating func markStarted(_ id: OperationID, time: UInt64, source: EventOrigin) {
        // Fields are read one by one: copying the whole record would retain its arrays and strings.
        guard let state = operations.read(id, { $0.state }), state < .executing else { return }
        if !operations.read(id, { $0.isCancelled })!, !operations.read(id, { $0.dependencies })!.isEmpty {
            // Foundation starts an operation only once all its dependencies finished: a finish the
            // events have not shown yet (hooked dependencies race their dependents) is implied.
            for dependency in operations.read(id, { $0.dependencies })! { impliedFinish(dependency, time: time) }
        }
        move(id, to: .executing)
        let (addedAt, queue, qos) = (operations.read(id, { $0.addedAt })!, operations.read(id, { $0.queue })!, operations.read(id, { $0.qualityOfService })!)
        operations[id]!.startedAt = time
        if operations.read(id, { $0.readyAt })! == nil { operations[id]!.readyAt = time }
        let wait = time >= addedAt ? time - addedAt : 0
        if let queue { queues[queue]?.latency.recordWait(nanoseconds: wait) }
        latencyByQoS[qos, default: LatencyStatistics()].recordWait(nanoseconds: wait)
        remember(KeyChange(time: time, key: .isExecuting, value: true, origin: source), for: id)
        dequeueFront(of: queue)
    }

    mutating func markFinished(_ id: OperationID, cancelled: Bool, time: UInt64, source: EventOrigin) {
        guard let state = operations.read(id, { $0.state }), state != .finished else { return }
        let wasCancelled = operations.read(id, { $0.isCancelled })!
        if !cancelled, !wasCancelled, !operations.read(id, { $0.dependencies })!.isEmpty {
            for dependency in operations.read(id, { $0.dependencies })! { impliedFinish(dependency, time: time) }
        }
        if cancelled { operations[id]!.isCancelled = true }
        let wasExecuting = state == .executing
        move(id, to: .finished)
        let (startedAt, queue, qos) = (operations.read(id, { $0.startedAt })!, operations.read(id, { $0.queue })!, operations.read(id, { $0.qualityOfService })!)
        operations[id]!.finishedAt = time
        if let startedAt {
            let run = time >= startedAt ? time - startedAt : 0
            if let queue { queues[queue]?.latency.recordRun(nanoseconds: run) }
            latencyByQoS[qos, default: LatencyStatistics()].recordRun(nanoseconds: run)
        }
        if let queue {
            queues[queue]?.finished += 1
            if cancelled || wasCancelled { queues[queue]?.cancelled += 1 }
            queues[queue]?.throughput.record(at: time)
        }
        if wasExecuting { remember(KeyChange(time: time, key: .isExecuting, value: false, origin: source), for: id) }
        remember(KeyChange(time: time, key: .isFinished, value: true, origin: source), for: id)
        finishedOrder.append(id)
        if !cycleMembers.isEmpty, cycleMembers.contains(id) { cyclesDirty = true }
        dequeueFront(of: queue)
    }

    /// A dependency must have finished: mark it so, once.
    private mutating func impliedFinish(_ id: OperationID, time: UInt64) {
        guard let state = operations.read(id, { $0.state }), state != .finished else { return }
        markFinished(id, cancelled: operations.read(id, { $0.isCancelled })!, time: time, source: .inferred)
    }

    mutating func markCancelled(_ id: OperationID, time: UInt64, source: EventOrigin) {
        guard let record = operations[id], !record.isCancelled else { return }
        operations[id]!.isCancelled = true
        remember(KeyChange(time: time, key: .isCancelled, value: true, origin: source), for: id)
        if !cycleMembers.isEmpty, cycleMembers.contains(id) { cyclesDirty = true }
    }

    mutating func addEdge(_ id: OperationID, dependsOn dependency: OperationID, time: UInt64, source: EventOrigin) {
        guard let record = operations[id], !record.dependencies.contains(dependency) else { return }
        operations[id]!.dependencies.append(dependency)
        link(id, to: dependency)
        remember(KeyChange(time: time, key: .dependencies, value: true, origin: source, detail: Int32(truncatingIfNeeded: dependency.rawValue)), for: id)
        if reaches(from: dependency, to: id) { cyclesDirty = true }
        relevel(from: id)
        structureVersion &+= 1
    }

    mutating func removeEdge(_ id: OperationID, dependsOn dependency: OperationID, time: UInt64, source: EventOrigin) {
        guard let record = operations[id], let slot = record.dependencies.firstIndex(of: dependency) else { return }
        operations[id]!.dependencies.remove(at: slot)
        if let at = operations.read(dependency, { $0.dependents })?.firstIndex(of: id) {
            operations[dependency]!.dependents.remove(at: at)
        }
        remember(KeyChange(time: time, key: .dependencies, value: false, origin: source, detail: Int32(truncatingIfNeeded: dependency.rawValue)), for: id)
        if !cycleMembers.isEmpty, cycleMembers.contains(id) { cyclesDirty = true }
        relevel(from: id)
        structureVersion &+= 1
    }

    mutating func changePriority(_ id: OperationID, _ priority: OperationPriority, _ effective: OperationPriority,
                                 time: UInt64, source: EventOrigin) {
        guard let record = operations[id], record.state != .finished else { return }
        operations[id]!.priority = priority
        operations[id]!.effectivePriority = effective
        remember(KeyChange(time: time, key: .queuePriority, value: true, origin: source, detail: Int32(priority.rawValue)), for: id)
        if record.effectivePriority != effective { enqueue(id) }
    }

    // MARK: Counts and scheduling lists

    /// Moves an operation to a new state, keeping its queue's counts right.
    mutating func move(_ id: OperationID, to state: OperationState) {
        guard let (old, queue) = operations.read(id, { ($0.state, $0.queue) }), old != state else { return }
        count(id, in: queue, state: old, delta: -1)
        operations[id]!.state = state
        count(id, in: queue, state: state, delta: 1)
    }

    private mutating func count(_ id: OperationID, in queue: QueueID?, state: OperationState, delta: Int) {
        guard let queue, queues.contains(queue) else { return }
        switch state {
        case .pending: queues[queue]!.pending += delta
        case .ready: queues[queue]!.ready += delta
        case .executing: queues[queue]!.executing += delta
        case .finished: break
        }
    }

    /// Appends an unstarted operation to its queue's list for its effective priority.
    mutating func enqueue(_ id: OperationID) {
        guard let state = operations.read(id, { $0.state }), state < .executing, let queue = operations.read(id, { $0.queue })!,
              queues.contains(queue) else { return }
        queues[queue]!.startLists[QueueRecord.listIndex(operations.read(id, { $0.effectivePriority })!)].append(id)
    }

    /// Drops started, finished and moved entries from the fronts of a queue's lists.
    mutating func dequeueFront(of queue: QueueID?) {
        guard let queue, queues.contains(queue) else { return }
        for index in OperationPriority.schedulingOrder.indices {
            while let first = queues[queue]!.startLists[index].first, !isLive(first, in: queue, list: index) {
                queues[queue]!.startLists[index].removeFirst()
            }
        }
    }

    /// True while `id` belongs at this place of the queue's start lists.
    func isLive(_ id: OperationID, in queue: QueueID, list index: Int) -> Bool {
        guard let state = operations.read(id, { $0.state }) else { return false }
        return state < .executing && operations.read(id, { $0.queue })! == queue
            && QueueRecord.listIndex(operations.read(id, { $0.effectivePriority })!) == index
    }
}
