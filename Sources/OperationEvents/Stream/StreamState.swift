/// The state of an event stream, defined once: every queue and every retained operation with
/// the bridge's description of it, its state, its times and its recent key changes, plus the
/// counters (finished, cancelled and trimmed per queue; anomalies; events lost; sequence gaps).
///
/// It is the fold of the stream: `apply(_:)` takes one event in O(1) amortised time, never
/// recurses and never traps — an event about an unknown operation or queue, a repeat, or one out
/// of order is counted as an anomaly and handled. It returns what changed, so that consumers
/// keep what they derive incremental.
///
/// It is also the **keyframe**: `Codable` with stable, readable field names, `Equatable`. A
/// consumer that starts late, a replay that seeks, or a console that attaches loads one
/// (`adopt(_:)`) and applies the events that follow it (from `nextSequence` on).
public struct StreamState: Sendable {
    /// Every retained operation: all unfinished ones, and finished ones within the retention.
    public internal(set) var operations = OperationRecords()
    /// Every queue seen and not yet forgotten (a released queue stays while it has operations).
    public internal(set) var queues = StreamQueues()
    /// Anomalies, losses, gaps and trimmed totals.
    public internal(set) var counters = StreamCounters()
    /// The sequence number of the next event this state expects: every event before it is
    /// reflected here.
    public internal(set) var nextSequence: UInt64 = 0
    /// The latest time seen (monitor clock, ns), from events or `trim(now:)`.
    public internal(set) var time: UInt64 = 0
    /// What is kept of the past.
    public internal(set) var retention: StreamRetention {
        didSet { operations.growthTarget = Self.expectedSize(retention) }
    }
    /// Finished operations currently retained.
    public internal(set) var retainedFinished = 0

    /// Finished operations in the order they finished, for trimming. Entries whose operation
    /// is no longer finished and retained are skipped when they reach the front.
    var finishedOrder = FIFO<OperationID>()
    /// Dependencies named before they were announced, and who named them.
    var awaited = AwaitedDependencies()
    /// Queues that operations named before the queue appeared: its counts are rebuilt then.
    var unseenQueues: Set<QueueID> = []
    /// The next operation's place in the add order (`OperationRecord.enqueueOrder`).
    var nextEnqueueOrder: UInt64 = 0
    /// Events about operations and queues not announced yet (see `HeldEvents`).
    var held = HeldEvents()

    /// An empty state.
    public init(retention: StreamRetention = .dashboard) {
        self.retention = retention
        operations.growthTarget = Self.expectedSize(retention)
    }

    /// The operations a state with this retention is expected to hold once a program has run
    /// for a while: its finished operations, and an eighth more for those in flight; at most
    /// 65,536 (a retention of millions, or of everything, grows there by steps as it fills).
    static func expectedSize(_ retention: StreamRetention) -> Int {
        // Clamped below too: a decoded retention is not clamped by `StreamRetention.init`.
        let finished = max(0, min(retention.maximumFinished, 1 << 16))
        return min(finished + finished / 8, 1 << 16)
    }

    /// The operation, if retained.
    public subscript(id: OperationID) -> OperationRecord? { operations[id] }

    /// The queue, if held.
    public subscript(queue id: QueueID) -> StreamQueue? { queues[id] }

    /// Replaces this state with a keyframe's, keeping this state's retention (and trimming to
    /// it) and the larger count of lost events.
    public mutating func adopt(_ keyframe: StreamState) {
        let retention = self.retention
        let lost = max(counters.eventsLost, keyframe.counters.eventsLost)
        self = keyframe
        counters.eventsLost = lost
        if self.retention != retention {
            self.retention = retention
            trim(now: time)
        }
        // The keyframe's table may come from a decoder or another state: grow it as ours, whether
        // or not the retention changed.
        operations.growthTarget = Self.expectedSize(retention)
    }

    /// Changes what is kept of the past, trimming at once to the new bounds.
    public mutating func setRetention(_ retention: StreamRetention) {
        self.retention = retention
        trim(now: time)
    }

    /// Records the total of events lost before they reached this state (from a batch's
    /// `droppedTotal`); returns true when it grew.
    @discardableResult
    public mutating func noteEventsLost(total: Int) -> Bool {
        guard total > counters.eventsLost else { return false }
        counters.eventsLost = total
        return true
    }

    /// The next place in the add order.
    mutating func takeEnqueueOrder() -> UInt64 {
        defer { nextEnqueueOrder &+= 1 }
        return nextEnqueueOrder
    }
}

extension StreamState {
    /// Sets the level a consumer derives for an operation (see `OperationRecord.level`).
    package mutating func setLevel(_ level: Int, of id: OperationID) {
        guard operations.contains(id) else { return }
        operations[id]!.setLevel(level)
    }

    /// Sets what a consumer derives for an operation from its dependencies: its level, and a
    /// dependency it found unfinished (see `OperationRecord.blocker`).
    package mutating func setLevel(_ level: Int, blocker: OperationID?, of id: OperationID) {
        operations.update(id) { record in
            record.setLevel(level)
            record.setBlocker(blocker)
        }
    }

    /// Sets the dependency a consumer found unfinished (see `OperationRecord.blocker`).
    package mutating func setBlocker(_ blocker: OperationID?, of id: OperationID) {
        operations.update(id) { $0.setBlocker(blocker) }
    }

    /// Rewrites the levels of every operation in one pass: `body` gets each record's dense slot
    /// and returns its level.
    package mutating func updateLevels(_ body: (Int, borrowing OperationRecord) -> Int) {
        operations.updateEach { slot, record in record.setLevel(body(slot, record)) }
    }
}

// MARK: Applying events

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
        case .ready(let id, _), .cancelled(let id), .dependencyAdded(let id, _), .dependencyRemoved(let id, _),
             .priorityChanged(let id, _, _), .unsignalledFinish(let id), .released(let id):
            guard !operations.contains(id) else { return nil }
            return hold(MonitorEvent(time: time, origin: origin, change: change), for: .operation(id))
        case .queueSuspended(let id, _), .queueMaxConcurrency(let id, _), .queueRenamed(let id, _),
             .queueQualityOfService(let id, _), .queueCancelledAll(let id), .queueDepth(let id, _),
             .queueReleased(let id):
            guard !queues.contains(id) else { return nil }
            return hold(MonitorEvent(time: time, origin: origin, change: change), for: .queue(id))
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

    // MARK: Held events

    /// Holds an event about an operation or queue not announced yet; says nothing changed.
    mutating func hold(_ event: MonitorEvent, for key: HeldEvents.Key) -> StreamChange {
        for (key, dropped) in held.hold(event, for: key) {
            for _ in 0..<dropped {
                switch key {
                case .operation: counters.count(.unknownOperation)
                case .queue: counters.count(.unknownQueue)
                }
            }
        }
        return StreamChange(.none)
    }

    /// Applies what was held for an operation or queue just announced.
    mutating func releaseHeld(for key: HeldEvents.Key) -> [ReleasedEvent] {
        guard !held.isEmpty else { return [] }
        return held.take(key).map { event in
            ReleasedEvent(event: event, change: apply(event.change, time: event.time, origin: event.origin))
        }
    }
}

// MARK: Operations

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
        if !awaited.isEmpty, let named = awaited.take(id) {
            // Operations that named this one as a dependency before it was announced.
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
            awaited.add(id, awaiting: dependency)
            if awaited.entries > 4 * operations.count + 1_024 { pruneAwaited() }
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
        } else {
            awaited.remove(id, awaiting: dependency)
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

// MARK: Retention

/// Trimming what the retention no longer keeps.
extension StreamState {
    /// Trims finished operations beyond the retention's count and, with `now`, older than its
    /// age, oldest first; returns how many were trimmed. They stay counted in their queue's
    /// `finished` and `trimmed` totals.
    @discardableResult
    public mutating func trim(now: UInt64) -> Int {
        if now > time { time = now }
        var trimmed = trimExcess()
        guard let age = retention.maximumAge else { return trimmed }
        while let oldest = finishedOrder.first {
            guard let finishedAt = operations.read(oldest, { $0.finishedAt }), let finishedAt else {
                // No longer retained, or alive again: not this entry's to trim.
                finishedOrder.removeFirst()
                continue
            }
            guard finishedAt &+ age < now else { break }
            finishedOrder.removeFirst()
            forget(oldest)
            trimmed += 1
        }
        return trimmed
    }

    /// Trims the oldest finished operations beyond the retention's count.
    @discardableResult
    mutating func trimExcess() -> Int {
        var trimmed = 0
        while retainedFinished > retention.maximumFinished, let oldest = finishedOrder.first {
            prefetchTrims()
            finishedOrder.removeFirst()
            // Skip entries of operations no longer retained, or alive again after a deduced
            // finish (a later finish appended them anew).
            guard operations.read(oldest, { $0.state }) == .finished else { continue }
            forget(oldest)
            trimmed += 1
        }
        return trimmed
    }

    /// Starts loading what the trims a few finishes from now will read. The oldest finished
    /// operation's record went cold long ago (a retained history of 20,000 is megabytes), and
    /// reading its index entry, key and record one after the other cost a wait on memory each: a
    /// third of the history's fold while a busy program ran (`opscope-bench bridge`,
    /// BENCHMARKS.md). Two steps, since the record's place is known only from its index entry:
    /// the entry of the id 16 places on, the key and record of the id 8 places on (whose entry
    /// came in 8 trims ago). Steady trimming is one trim per finish, so the pipeline runs across
    /// calls.
    @inline(__always)
    private func prefetchTrims() {
        if let later = finishedOrder.peek(16) { operations.prefetchIndex(of: later) }
        if let soon = finishedOrder.peek(8) { operations.prefetchRecord(of: soon) }
    }

    /// Removes a finished operation, counting it as trimmed and unlinking it from its
    /// dependencies; a released queue left without operations is forgotten too.
    private mutating func forget(_ id: OperationID) {
        // Only its queue and dependencies are needed: the record is destroyed where it lies.
        guard let (queue, dependencies) = operations.read(id, { ($0.queue, $0.dependencies) }) else { return }
        operations.discard(id)
        retainedFinished -= 1
        counters.trimmed += 1
        let forgotten = queue.flatMap { queue in
            queues.update(queue) { queue -> Bool in
                queue.trimmed += 1
                queue.retained -= 1
                return queue.isReleased && queue.retained == 0
            }
        }
        if let forgotten {
            if forgotten { queues[queue!] = nil }
        } else {
            counters.trimmedWithoutQueue += 1
        }
        for dependency in dependencies {
            let compact = operations.update(dependency) { dependency -> Bool in
                dependency.staleDependents += 1
                return dependency.staleDependents > 16 && Int(dependency.staleDependents) * 2 > dependency.dependents.count
            }
            if compact == true {
                let live = operations.read(dependency, { $0.dependents })!.filter { operations.contains($0) }
                operations.update(dependency) { dependency in
                    dependency.dependents = live
                    dependency.staleDependents = 0
                }
            }
        }
    }

    /// Drops the awaited dependencies of operations since trimmed. Runs when they have grown
    /// well past the table (amortised O(1) per link).
    mutating func pruneAwaited() {
        awaited.rebuild(from: operations)
    }
}
