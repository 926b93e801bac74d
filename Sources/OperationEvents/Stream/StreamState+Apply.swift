extension StreamState {
    /// Applies the next event of the stream and says what changed.
    ///
    /// An event whose sequence number is below `nextSequence` is already reflected (a repeat, or
    /// from before the keyframe or snapshot this state started from): it is counted as stale and
    /// skipped. A number above it means events were missed: the gap is counted and reported in
    /// `missedEvents`, and the event is applied.
    @discardableResult
    public mutating func apply(_ event: MonitorEvent) -> StreamChange {
        guard let missed = takeSequence(event.sequence) else { return StreamChange(.none, anomaly: .stale) }
        var change = apply(event.change, time: event.time, origin: event.origin)
        change.missedEvents = missed
        return change
    }

    /// `apply(_:)` of the event at `event` (a batch's storage, read in place): the event is not
    /// copied out of the batch first, as passing it by value from there makes the caller do.
    @discardableResult
    package mutating func apply(_ event: UnsafePointer<MonitorEvent>) -> StreamChange {
        guard let missed = takeSequence(event.pointee.sequence) else { return StreamChange(.none, anomaly: .stale) }
        var change = apply(event.pointee.change, time: event.pointee.time, origin: event.pointee.origin)
        change.missedEvents = missed
        return change
    }

    /// `apply(_:)` of an event the caller gives up (an entry of the hub's log, folded once).
    ///
    /// Taken by value, the event's payload (an announcement's box) is released here, once.
    /// Read in place from the log's storage instead, the call retained the payload for itself
    /// and released it, and destroying the log released it a third time: two atomic operations
    /// per announcement, on a box the adding thread wrote last (in a profile of `opscope-bench
    /// bridge`, the retain alone was 126 of the hub's thread's 2,697 samples; BENCHMARKS.md).
    @discardableResult
    package mutating func apply(taking event: consuming MonitorEvent) -> StreamChange {
        guard let missed = takeSequence(event.sequence) else { return StreamChange(.none, anomaly: .stale) }
        var change = apply(event.change, time: event.time, origin: event.origin)
        change.missedEvents = missed
        return change
    }

    /// Takes `sequence` as the stream's next number: nil when it is stale (counted), else how
    /// many numbers were skipped (counted as a gap when any were).
    @inline(__always)
    private mutating func takeSequence(_ sequence: UInt64) -> UInt64? {
        if sequence < nextSequence {
            counters.count(.stale)
            return nil
        }
        let missed = sequence - nextSequence
        if missed > 0 {
            counters.sequenceGaps += 1
            counters.missedEvents &+= missed
        }
        nextSequence = sequence &+ 1
        return missed
    }

    /// Applies a change that is not part of the numbered stream (a correction computed from a
    /// snapshot and applied locally): no sequence number is checked or consumed.
    @discardableResult
    public mutating func apply(_ change: MonitorEvent.Change, time: UInt64, origin: EventOrigin) -> StreamChange {
        if time > self.time { self.time = time }
        if let held = holdIfUnannounced(change, time: time, origin: origin) { return held }
        var result: StreamChange
        switch change {
        case .queueAppeared(let info):
            result = queueAppeared(info, time: time)
        case .queueSuspended(let queue, let suspended):
            result = updateQueue(queue) {
                $0.info.isSuspended = suspended
                $0.roomSince = max($0.roomSince, time)
            }
        case .queueMaxConcurrency(let queue, let count):
            result = updateQueue(queue) {
                $0.info.maxConcurrentOperationCount = count
                $0.roomSince = max($0.roomSince, time)
            }
        case .queueRenamed(let queue, let name):
            result = updateQueue(queue) { $0.info.name = name }
        case .queueQualityOfService(let queue, let qos):
            result = updateQueue(queue) { $0.info.qualityOfService = qos }
        case .queueCancelledAll(let queue):
            // The cancellations themselves arrive as events of their own.
            result = queues.contains(queue) ? StreamChange(.none) : anomaly(.unknownQueue)
        case .queueDepth(let queue, let operations):
            result = updateQueue(queue) { $0.sampledDepth = operations }
        case .queueReleased(let queue):
            result = releaseQueue(queue)
        case .operationAdded(let info):
            result = add(info, time: time, origin: origin)
        case .ready(let id, let isReady):
            result = markReady(id, isReady, time: time, origin: origin)
        case .started(let id):
            guard let slot = operations.slot(of: id) else {
                return hold(MonitorEvent(time: time, origin: origin, change: change), for: .operation(id))
            }
            result = markStarted(id, at: slot, time: time, origin: origin)
        case .finished(let id, let cancelled):
            guard let slot = operations.slot(of: id) else {
                return hold(MonitorEvent(time: time, origin: origin, change: change), for: .operation(id))
            }
            result = markFinished(id, at: slot, cancelled: cancelled, time: time, origin: origin)
        case .cancelled(let id):
            result = markCancelled(id, time: time, origin: origin)
        case .dependencyAdded(let id, let dependency):
            result = addDependency(id, dependency, time: time, origin: origin)
        case .dependencyRemoved(let id, let dependency):
            result = removeDependency(id, dependency, time: time, origin: origin)
        case .priorityChanged(let id, let priority, let effective):
            result = changePriority(id, priority, effective, time: time, origin: origin)
        case .unsignalledFinish(let id):
            result = markUnsignalledFinish(id, time: time, origin: origin)
        case .released(let id):
            result = markReleased(id, time: time)
        }
        if retainedFinished > retention.maximumFinished { trimExcess() }
        return result
    }

    /// Holds an event that names an operation or queue not announced yet (see `HeldEvents`).
    private mutating func holdIfUnannounced(_ change: MonitorEvent.Change, time: UInt64, origin: EventOrigin) -> StreamChange? {
        switch change {
        case .operationAdded, .queueAppeared:
            return nil
        case .started, .finished:
            // Most events are starts and finishes: their own case holds them, with the one
            // lookup its transition then works on.
            return nil
        default:
            if let id = change.operation, !operations.contains(id) {
                return hold(MonitorEvent(time: time, origin: origin, change: change), for: .operation(id))
            }
            if let id = change.queue, !queues.contains(id) {
                return hold(MonitorEvent(time: time, origin: origin, change: change), for: .queue(id))
            }
            return nil
        }
    }

    /// Counts an anomaly and says nothing changed.
    mutating func anomaly(_ kind: StreamAnomaly) -> StreamChange {
        counters.count(kind)
        return StreamChange(.none, anomaly: kind)
    }

    // MARK: Queues

    private mutating func queueAppeared(_ info: QueueInfo, time: UInt64) -> StreamChange {
        if queues.contains(info.id) {
            queues[info.id]!.info = info
            queues[info.id]!.isReleased = false
            queues[info.id]!.roomSince = max(queues[info.id]!.roomSince, time)
            return StreamChange(.queueAppeared(info.id, isNew: false))
        }
        queues[info.id] = StreamQueue(info: info, time: time)
        if !unseenQueues.isEmpty, unseenQueues.remove(info.id) != nil { recount(info.id) }
        var change = StreamChange(.queueAppeared(info.id, isNew: true))
        change.released = releaseHeld(for: .queue(info.id))
        return change
    }

    private mutating func updateQueue(_ id: QueueID, _ body: (inout StreamQueue) -> Void) -> StreamChange {
        guard queues.contains(id) else { return anomaly(.unknownQueue) }
        body(&queues[id]!)
        return StreamChange(.queueChanged(id))
    }

    private mutating func releaseQueue(_ id: QueueID) -> StreamChange {
        guard let (released, retained) = queues.read(id, { ($0.isReleased, $0.retained) }) else { return anomaly(.unknownQueue) }
        if released { return anomaly(.duplicate) }
        queues[id]!.isReleased = true
        // A released queue is part of the past while operations of it are retained.
        if retained == 0 { queues[id] = nil }
        return StreamChange(.queueReleased(id, forgotten: retained == 0))
    }

    /// Counts a new queue's operations that were announced before it (a stream out of order).
    private mutating func recount(_ id: QueueID) {
        var counts = (pending: 0, ready: 0, executing: 0, finished: 0, cancelled: 0, retained: 0)
        operations.forEach { record in
            guard record.pointee.queue == id else { return }
            counts.retained += 1
            switch record.pointee.state {
            case .pending: counts.pending += 1
            case .ready: counts.ready += 1
            case .executing: counts.executing += 1
            case .finished:
                counts.finished += 1
                if record.pointee.isCancelled { counts.cancelled += 1 }
            }
        }
        queues[id]!.pending = counts.pending
        queues[id]!.ready = counts.ready
        queues[id]!.executing = counts.executing
        queues[id]!.finished = counts.finished
        queues[id]!.cancelled = counts.cancelled
        queues[id]!.retained = counts.retained
    }

    // MARK: Counting

    /// Counts an operation in (`delta` 1) or out (-1) of its queue in `state`.
    mutating func count(in queue: QueueID?, _ state: OperationState, _ delta: Int) {
        guard let queue else { return }
        queues.update(queue) { $0.count(state, delta) }
    }

    /// Counts a state change of an operation of `queue`.
    mutating func move(in queue: QueueID?, from old: OperationState, to new: OperationState) {
        guard old != new, let queue else { return }
        queues.update(queue) { record in
            record.count(old, -1)
            record.count(new, 1)
        }
    }

    /// Appends a key change to an operation's history.
    mutating func remember(_ id: OperationID, _ key: KeyChange.Key, _ value: Bool, time: UInt64, origin: EventOrigin,
                           detail: Int32 = 0) {
        let limit = retention.historyLimit
        operations.update(id) { $0.remember(key, value, time: time, origin: origin, detail: detail, limit: limit) }
    }
}
