import DequeModule
import OperationEvents

/// Everything the dashboard shows, computed from the bridge's events: a pure reducer with no
/// reference to `Operation` objects and no terminal types.
///
/// The facts of the stream (queues, operations, their states, times and key changes, counters)
/// live in one `StreamState`; the model keeps only what it derives from them: levels, start
/// lists, cycles, latency histograms, throughput. Feed it `EventBatch`es: a batch that starts
/// with a keyframe replaces the state (the derived facts are rebuilt), one that starts with a
/// snapshot is reconciled with it. `apply(_:)` returns true when events were lost (more were
/// dropped, or the sequence numbers jumped): the caller asks its subscription to resynchronise.
/// Call `advance(to:)` with the source's clock so that retention and warnings move on even
/// when no event arrives.
public struct DashboardModel: Sendable {
    /// Retention and warning thresholds.
    public var configuration: ModelConfiguration {
        didSet { stream.setRetention(configuration.retention) }
    }
    /// The stream's state: every fact the model shows comes from it.
    public internal(set) var stream: StreamState
    /// The latest time seen, from events or `advance(to:)`.
    public internal(set) var now: UInt64 = 0
    /// Wait and run time percentiles per quality of service.
    public var latencyByQoS: [QoSClass: LatencyStatistics] { qosLatency.byClass }
    /// Dependency cycles among unfinished operations, each in dependency order.
    public var cycles: [[OperationID]] { dependencyCycles.cycles }
    /// Incremented on every change the model applied: what was drawn from an older value is stale.
    package internal(set) var stateVersion = 0
    /// Incremented when operations or edges were added or removed, or cycles changed (layouts
    /// and orders depend on it).
    package internal(set) var structureVersion = 0

    /// Start lists and statistics per queue.
    var queueFacts = QueueFactsTable()
    /// Wait and run times per quality of service.
    var qosLatency = QoSLatency()
    /// Cycles among unfinished operations and loops of the retained graph.
    var dependencyCycles = DependencyCycles()
    /// Levels and blockers of the operations (kept in the stream state's records).
    var levels = DependencyLevels()
    /// The trimmed count at the end of the last batch: trimming changes the structure.
    var trimmedSeen = 0

    /// An empty model.
    public init(configuration: ModelConfiguration = ModelConfiguration()) {
        self.configuration = configuration
        stream = StreamState(retention: configuration.retention)
    }

    /// Operations retained: every unfinished one, and recently finished ones.
    public var operations: OperationRecords {
        _read { yield stream.operations }
    }

    /// Queues seen (released ones stay, marked, while they have retained operations).
    public var queues: QueueTable { QueueTable(records: stream.queues, facts: queueFacts.facts) }

    /// Events lost before they reached the model (from its batches and snapshots).
    public var droppedEvents: Int { stream.counters.eventsLost }

    /// Finished operations no longer retained, by queue (nil key: no queue).
    public var expired: [QueueID?: Int] {
        var result: [QueueID?: Int] = [:]
        stream.queues.forEach { queue in
            if queue.pointee.trimmed > 0 { result[queue.pointee.id] = queue.pointee.trimmed }
        }
        if stream.counters.trimmedWithoutQueue > 0 { result[nil] = stream.counters.trimmedWithoutQueue }
        return result
    }

    /// Finished operations currently retained.
    public var retainedFinished: Int { stream.retainedFinished }

    /// The operation, if retained.
    public subscript(id: OperationID) -> OperationRecord? { stream.operations[id] }

    /// True if `id` is in a dependency cycle.
    public func isInCycle(_ id: OperationID) -> Bool { dependencyCycles.isMember(id) }

    /// True when the edge `from` → `to` (`from` waits for `to`) lies on a dependency cycle (both
    /// ends in one strongly connected component): drawn dashed.
    public func isCycleEdge(from: OperationID, to: OperationID) -> Bool { dependencyCycles.isCycleEdge(from: from, to: to) }

    /// Applies a batch; returns true if events were lost since the last batch (more dropped, or
    /// a gap in the sequence numbers), in which case the caller should resynchronise.
    @discardableResult
    public mutating func apply(_ batch: EventBatch) -> Bool {
        switch batch.start {
        case .keyframe(let keyframe): load(keyframe)
        case .snapshot(let snapshot): resync(from: snapshot)
        case nil: break
        }
        var lost = false
        // Each event read in place: iterating the array would copy every event out of it.
        batch.events.withUnsafeBufferPointer { events in
            for index in events.indices where applyEvent(events.baseAddress! + index) { lost = true }
        }
        if stream.noteEventsLost(total: batch.droppedTotal) { lost = true }
        finishBatch()
        return lost
    }

    /// Applies a batch and, when events were lost, reconciles the state with `snapshot()` at once.
    /// Returns true if it did.
    ///
    /// For a reader that has no subscription to ask again but can read the live state: batches
    /// that arrive from elsewhere (taken from a shared stream, built by hand, read from a file
    /// beside the program). A consumer of a live source does not use it: it applies batches with
    /// `apply(_:)` and, when that returns true, resynchronises its subscription
    /// (`EventSubscription.resynchronize()`), whose next batch starts with a keyframe; the source
    /// reads the live state itself, once, for every consumer (as `EventIngest` does).
    @discardableResult
    public mutating func apply(_ batch: EventBatch, resyncFrom snapshot: () -> MonitorSnapshot) -> Bool {
        guard apply(batch) else { return false }
        resync(from: snapshot())
        return true
    }

    /// Applies one event (and the work a batch does once at its end).
    public mutating func apply(_ event: MonitorEvent) {
        applyEvent(event)
        finishBatch()
    }

    /// Moves the model's clock forward (retention) without an event.
    public mutating func advance(to time: UInt64) {
        if time > now { now = time }
        finishBatch()
    }

    /// Work done once per batch rather than per event.
    mutating func finishBatch() {
        stream.trim(now: now)
        if stream.counters.trimmed != trimmedSeen {
            trimmedSeen = stream.counters.trimmed
            stateVersion &+= 1
            structureVersion &+= 1
        }
        let (loopsChanged, cyclesChanged) = dependencyCycles.update(stream.operations, trimmed: stream.counters.trimmed)
        if loopsChanged { levels.dirty = true }
        if cyclesChanged { structureVersion &+= 1 }
        if levels.dirty { levels.recompute(in: &stream, dependencyCycles) }
        queueFacts.compact(stream.operations)
        queueFacts.forgetQueues(notIn: stream.queues)
    }
}

// MARK: Applying events

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
        case .none, .queueChanged, .readinessChanged, .started, .finished, .finishConfirmed, .cancelled, .priorityChanged,
             .unsignalledFinish, .noted:
            // A deduced finish, or one undone, changes the graph whatever the event was.
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
            // Operations announced before their queue could not be listed for it.
            if queueFacts.queueAppeared(id, throughputSeconds: configuration.throughputWindowSeconds) {
                queueFacts.rebuildStartLists(stream.operations, stream.queues, throughputSeconds: configuration.throughputWindowSeconds)
            }
        case .queueReleased(let id, let forgotten):
            if forgotten { queueFacts.forget(id) }
        case .operationAdded(let id):
            added(id)
            if change.anomaly == .unknownQueue, let queue = operations.read(id, { $0.queue }) ?? nil {
                queueFacts.awaitQueue(queue)
            }
        case .operationUpdated(let id, let queueChanged, let gainedDependencies):
            if queueChanged { enqueue(id, again: true) }
            if gainedDependencies {
                DependencyLevels.refreshBlocker(of: id, in: &stream)
                relevel(from: id)
                dependencyCycles.markChanged(loops: true)
            }
        case .started(let id):
            started(id, time: time)
        case .finished(let id):
            finished(id, time: time)
            cancellationMayHaveChanged(id)
        case .cancelled(let id):
            if dependencyCycles.isMember(id) { dependencyCycles.markChanged(loops: false) }
            cancellationMayHaveChanged(id)
        case .dependencyAdded(let id, let dependency):
            DependencyLevels.refreshBlocker(of: id, in: &stream)
            relevel(from: id)
            dependencyCycles.mayCloseLoop(id, through: dependency, in: stream.operations)
        case .dependencyRemoved(let id, let dependency):
            DependencyLevels.refreshBlocker(of: id, in: &stream)
            if dependencyCycles.isOnLoop(id), dependencyCycles.isOnLoop(dependency) { dependencyCycles.markChanged(loops: true) }
            relevel(from: id)
        case .priorityChanged(let id, let effectiveChanged):
            if effectiveChanged { enqueue(id, again: true) }
        }
        if change.releasedAny {
            for released in change.released { react(to: released.change, time: released.event.time) }
        }
    }

    /// Lists an unstarted operation in its queue's start lists (`again`: it may be listed already).
    private mutating func enqueue(_ id: OperationID, again: Bool) {
        queueFacts.enqueue(id, again: again, stream.operations, stream.queues, throughputSeconds: configuration.throughputWindowSeconds)
    }

    private mutating func added(_ id: OperationID) {
        enqueue(id, again: false)
        guard let (dependencies, dependents) = operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.dependents.count) }),
              !dependencies.isEmpty || dependents > 0 else { return }
        if dependencies.isEmpty {
            stream.setLevel(DependencyLevels.computedLevel(of: id, stream.operations, dependencyCycles), of: id)
        } else {
            let (level, blocker) = DependencyLevels.levelAndBlocker(of: id, stream.operations, dependencyCycles)
            stream.setLevel(level, blocker: blocker, of: id)
        }
        guard dependents > 0 else { return }
        // Operations named it before it was announced: their levels move, and it may close a loop.
        relevel(from: id)
        for dependency in dependencies { dependencyCycles.mayCloseLoop(id, through: dependency, in: stream.operations) }
    }

    private mutating func started(_ id: OperationID, time: UInt64) {
        guard let (addedAt, late, queue, qos) = operations.withRecord(id, {
            ($0.pointee.addedAt, $0.pointee.firstSeenLate, $0.pointee.queue, $0.pointee.qualityOfService)
        })
        else { return }
        // Seen late, it was added at an unknown earlier time: its wait is not known.
        let wait: UInt64? = late ? nil : (time >= addedAt ? time - addedAt : 0)
        if let wait { qosLatency.recordWait(qos, nanoseconds: wait) }
        guard let queue else { return }
        queueFacts.started(in: queue, wait: wait, stream.operations)
    }

    private mutating func finished(_ id: OperationID, time: UInt64) {
        if dependencyCycles.isMember(id) { dependencyCycles.markChanged(loops: false) }
        guard let (started, added, late, queue, qos) = operations.withRecord(id, {
            ($0.pointee.startedAt, $0.pointee.addedAt, $0.pointee.firstSeenLate, $0.pointee.queue, $0.pointee.qualityOfService)
        }) else { return }
        var run: UInt64?
        if let startedAt = OperationRecord.knownStart(startedAt: started, addedAt: added, firstSeenLate: late) {
            run = time >= startedAt ? time - startedAt : 0
        }
        if let run { qosLatency.recordRun(qos, nanoseconds: run) }
        guard let queue else { return }
        queueFacts.finished(in: queue, run: run, at: time, stream.operations)
    }

    /// A cancelled operation waits for nothing: its level drops, and a loop through it opens.
    private mutating func cancellationMayHaveChanged(_ id: OperationID) {
        guard let (cancelled, level) = operations.withRecord(id, { ($0.pointee.isCancelled, $0.pointee.level) }), cancelled else { return }
        if dependencyCycles.isOnLoop(id) { dependencyCycles.markChanged(loops: true) }
        if level != 0 { relevel(from: id) }
    }

    /// A deduced finish was undone: the operation waits again, and may be part of a cycle.
    private mutating func revived(_ id: OperationID) {
        enqueue(id, again: true)
        dependencyCycles.markChanged(loops: false)
    }

    /// Levels from `id` down through its dependents (see `DependencyLevels.relevel`).
    private mutating func relevel(from id: OperationID) {
        levels.relevel(from: id, in: &stream, dependencyCycles)
    }
}

// MARK: Keyframes, snapshots and the clock

extension DashboardModel {
    /// Starts over from a keyframe (a late start, a seek, an attach, a resynchronisation): the
    /// stream state is adopted (with this model's retention) and everything derived is rebuilt
    /// from it. Events from `keyframe.nextSequence` on follow.
    public mutating func load(_ keyframe: StreamState) {
        stream.adopt(keyframe)
        if stream.time > now { now = stream.time }
        rebuildDerivedFacts()
        stateVersion &+= 1
        structureVersion &+= 1
    }

    /// Reconciles the state with a live snapshot after events were lost (a batch that starts
    /// with one, `apply(_:resyncFrom:)`): the stream state takes
    /// the corrections that make it agree (finished history is kept; unfinished operations the
    /// snapshot no longer lists finished while events were lost), and the derived facts follow
    /// them. Events with a sequence below the snapshot's are ignored from now on.
    public mutating func resync(from snapshot: MonitorSnapshot) {
        if snapshot.time > now { now = snapshot.time }
        // Each correction is followed at once: the derived facts see the state it left.
        for event in stream.prepareCatchUp(to: snapshot) {
            react(to: stream.apply(event.change, time: event.time, origin: event.origin), time: event.time)
        }
        stream.finishCatchUp(at: snapshot)
        stateVersion &+= 1
        structureVersion &+= 1
        finishBatch()
    }

    /// Levels, start lists, cycles and statistics computed afresh from the stream state. The
    /// latency histograms and throughput can only use what is retained: the times of the
    /// operations the keyframe holds.
    mutating func rebuildDerivedFacts() {
        qosLatency = QoSLatency()
        queueFacts.rebuild(stream.operations, stream.queues, throughputSeconds: configuration.throughputWindowSeconds,
                           qosLatency: &qosLatency)
        DependencyLevels.refreshBlockers(in: &stream)
        dependencyCycles.reset()
        levels.dirty = true
    }

    /// Sets the model's clock back to `time` (never before the stream's own latest time): a
    /// replay that moved back shows durations, retention and warnings as of that moment, not as
    /// of the latest moment it had shown. A live model's clock only moves forward
    /// (`advance(to:)`).
    public mutating func rewindClock(to time: UInt64) {
        let target = max(time, stream.time)
        guard target < now else { return }
        now = target
        stateVersion &+= 1
    }
}

// MARK: What the model answers

extension DashboardModel {
    /// Why `id` is not running: the root cause, the length of the chain to it and the next link;
    /// nil when it is executing or finished (or not retained). Linear in the part of the graph
    /// below `id`, without recursion: a chain 100,000 deep is diagnosed like a short one.
    public func diagnosis(of id: OperationID, now: UInt64? = nil) -> Diagnosis? {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return context.diagnosis(of: id)
    }

    /// The diagnosis of every operation that is neither executing nor finished, in id order.
    /// Each operation's cause is computed once and shared by everything that waits on it, so the
    /// pass is O(operations + edges), and each diagnosis has a bounded size.
    public func diagnoses(now: UInt64? = nil) -> [Diagnosis] {
        var context = DiagnosisContext(model: self, now: now ?? self.now, expected: operations.count)
        var waiting: [OperationID] = []
        operations.forEach { record in
            if record.pointee.state < .executing { waiting.append(record.pointee.id) }
        }
        return waiting.sorted().compactMap { context.diagnosis(of: $0) }
    }

    /// The whole path from `id` to its root cause (`[C, B, A]` for "C waits on B waits on A"),
    /// the one a diagnosis names by its next link and length; `[id]` when its cause is its own
    /// situation, empty when it has no diagnosis.
    public func dependencyChain(of id: OperationID, now: UInt64? = nil) -> [OperationID] {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return context.chain(from: id)
    }

    /// The current warnings: cycles and dropped events first, then queues in id order, then per
    /// operation in id order. One pass over the operations; bounded work per operation.
    public func warnings(now: UInt64? = nil) -> [Warning] {
        WarningRules(model: self, now: now ?? self.now).warnings()
    }

    /// The operations that cannot go on without someone's help (those `n` and `N` visit and
    /// `why:stuck` finds); `StuckCause` says which causes count.
    public func stuckOperations(now: UInt64? = nil) -> Set<OperationID> {
        Set(stuckCauses(now: now).keys)
    }

    /// `stuckOperations(now:)` with the cause that holds each: its own, or for one that waits on
    /// stuck work, the cause at the root of its chain (the metrics count stuck work by cause).
    public func stuckCauses(now: UInt64? = nil) -> [OperationID: StuckCause] {
        StuckCause.stuckOperations(in: self, now: now ?? self.now)
    }

    /// `#3 a waits on #4 b waits on #3 a`.
    /// A long cycle is shortened: its first operations, then how many there are in all.
    public func cycleDescription(_ cycle: [OperationID]) -> String {
        WarningRules.describe(cycle: cycle, in: operations)
    }

    /// Whether `queue` runs (not suspended, not released, not the main queue) with a free slot
    /// it has had for longer than `readyNotStartedGrace` (see `ReadinessRules`).
    package func leavesRoomUnused(_ queue: QueueID, now: UInt64? = nil) -> Bool {
        ReadinessRules(model: self, now: now ?? self.now).leavesRoomUnused(queue)
    }

    /// A ready operation its queue could have started for a while and did not (see
    /// `ReadinessRules`); the graph and the start order mark it.
    package func isReadyNotStarted(_ id: OperationID, now: UInt64? = nil) -> Bool {
        ReadinessRules(model: self, now: now ?? self.now).isReadyNotStarted(id)
    }

    /// The queue's ready, unstarted operations in the order Foundation will start them: the
    /// barrier list first, then veryHigh ... veryLow, first in first out within one priority
    /// (swift-corelibs-foundation `OperationQueue._schedule`).
    public func startOrder(of queue: QueueID, limit: Int = .max) -> [OperationID] {
        StartOrder.of(queue, in: self, limit: limit)
    }

    /// The operations of one QoS class: executing (oldest first), ready in start order (each
    /// queue's order, interleaved by rank), pending (in add order); at most `limit` of each,
    /// with the full counts. It runs on every frame: one pass over the operations, and the
    /// queues' start orders read only as far as the lanes fill.
    public func qosLanes(limit: Int = 50) -> [QoSLane] {
        StartOrder.lanes(in: self, limit: limit)
    }

    /// The longest chain of unfinished operations, first dependency first: what must still
    /// happen, one after the other, before the last of them can finish. Cycle edges are ignored.
    /// Linear in operations and edges. The dashboard does not draw it: it is for embedding
    /// programs (docs/graph.md) and for checking levels.
    public func criticalPath() -> [OperationID] { CriticalPath.longest(in: self) }

    /// The report of the current state. Linear in the operations and edges retained: each
    /// diagnosis names its root cause and chain length rather than the whole chain.
    public func report(now: UInt64? = nil) -> OpScopeReport { OpScopeReport(self, now: now ?? self.now) }
}
