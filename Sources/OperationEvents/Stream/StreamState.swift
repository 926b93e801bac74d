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
    public internal(set) var operations = OperationTable()
    /// Every queue seen and not yet forgotten (a released queue stays while it has operations).
    public internal(set) var queues = StreamQueueTable()
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
    var finishedOrder = IdentifierQueue()
    /// Dependencies named before they were announced: id → the operations that named it.
    var awaited: [OperationID: [OperationID]] = [:]
    /// Entries in `awaited` in all, to know when pruning it pays.
    var awaitedEntries = 0
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

/// A first-in first-out list of ids: an array read from a moving head, compacted when the
/// consumed part dominates (amortised O(1) per operation, no dependency outside the stdlib).
struct IdentifierQueue: Sendable, Equatable {
    private var ids: [OperationID] = []
    private var head = 0

    /// Ids waiting.
    var count: Int { ids.count - head }

    /// The oldest id.
    var first: OperationID? { head < ids.count ? ids[head] : nil }

    /// The ids, oldest first.
    var elements: ArraySlice<OperationID> { ids[head...] }

    /// The id `offset` places behind the oldest, if there are that many.
    func peek(_ offset: Int) -> OperationID? {
        precondition(offset >= 0, "peek looks behind the oldest, never before it")
        let index = head + offset
        return index < ids.count ? ids[index] : nil
    }

    mutating func append(_ id: OperationID) { ids.append(id) }

    mutating func removeFirst() {
        guard head < ids.count else { return }
        head += 1
        if head >= 1_024, head * 2 >= ids.count {
            ids.removeFirst(head)
            head = 0
        }
    }

    /// Replaces the contents.
    mutating func replace(with newIDs: [OperationID]) {
        ids = newIDs
        head = 0
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
