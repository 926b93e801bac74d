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
    public var latencyByQoS: [QoSClass: LatencyStatistics] {
        var result: [QoSClass: LatencyStatistics] = [:]
        for qos in QoSClass.allCases where latencyByQoSPresent & (1 << Self.slot(of: qos)) != 0 {
            result[qos] = latencyByQoSSlots[Self.slot(of: qos)]
        }
        return result
    }
    /// Dependency cycles among unfinished operations, each in dependency order.
    public internal(set) var cycles: [[OperationID]] = []
    /// Incremented on every change the model applied: what was drawn from an older value is stale.
    package internal(set) var stateVersion = 0
    /// Incremented when operations or edges were added or removed, or cycles changed (layouts
    /// and orders depend on it).
    package internal(set) var structureVersion = 0

    /// Start lists and statistics per queue.
    var queueFacts = RecordTable<QueueFacts>()
    /// `latencyByQoS` by `slot(of:)`: recorded at every start and finish, where a dictionary
    /// would hash the class each time.
    var latencyByQoSSlots = [LatencyStatistics](repeating: LatencyStatistics(), count: QoSClass.allCases.count)
    /// Which of `latencyByQoSSlots` were recorded into (bit `slot(of:)`): only those are listed.
    var latencyByQoSPresent: UInt8 = 0
    /// Operations that are members of a cycle (of its strongly connected component).
    var cycleMembers: Set<OperationID> = []
    /// For each member of a cycle's strongly connected component, the index in `cycles` of the
    /// cycle that names the component (a member may lie on another cycle of it).
    var cycleIndex: [OperationID: Int] = [:]
    /// An edge that could close a cycle changed, or a member finished: the full check runs at
    /// the end of the batch.
    var cyclesDirty = false
    /// Levels changed further than one event may follow: they are recomputed, all at once, at
    /// the end of the batch.
    var levelsDirty = false
    /// Operations on a loop of the retained graph, finished or not (see `detectLoops`).
    var loopMembers: Set<OperationID> = []
    /// An edge that could close a loop appeared, or one on a loop went.
    var loopsDirty = false
    /// The trimmed count when loops were last found: a trimmed member may open a loop.
    var loopCheckTrimmed = 0
    /// The trimmed count at the end of the last batch: trimming changes the structure.
    var trimmedSeen = 0
    /// Queues that operations named before the queue appeared.
    var queuesAwaited: Set<QueueID> = []

    /// An empty model.
    public init(configuration: ModelConfiguration = ModelConfiguration()) {
        self.configuration = configuration
        stream = StreamState(retention: configuration.retention)
    }

    /// Operations retained: every unfinished one, and recently finished ones.
    public var operations: OperationTable {
        _read { yield stream.operations }
    }

    /// Queues seen (released ones stay, marked, while they have retained operations).
    public var queues: QueueTable { QueueTable(records: stream.queues, facts: queueFacts) }

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

    /// The index of a quality of service in `latencyByQoSSlots`.
    static func slot(of qos: QoSClass) -> Int {
        switch qos {
        case .background: 0
        case .utility: 1
        case .default: 2
        case .userInitiated: 3
        case .userInteractive: 4
        }
    }

    /// Records a wait or run time of an operation of `qos`.
    mutating func recordLatency(_ qos: QoSClass, _ body: (inout LatencyStatistics) -> Void) {
        let slot = Self.slot(of: qos)
        latencyByQoSPresent |= 1 << slot
        body(&latencyByQoSSlots[slot])
    }

    /// True if `id` is in a dependency cycle.
    public func isInCycle(_ id: OperationID) -> Bool { cycleMembers.contains(id) }

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

    /// Applies a batch and, when events were lost, re-synchronises from `snapshot()` at once: what
    /// every consumer of a live monitor does. Returns true if it re-synchronised.
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
        if !loopMembers.isEmpty, stream.counters.trimmed != loopCheckTrimmed { loopsDirty = true }
        if loopsDirty {
            // Whatever closed or opened a loop may have done so among unfinished operations.
            detectLoops()
            cyclesDirty = true
        }
        if cyclesDirty { detectCycles() }
        if levelsDirty { recomputeLevels() }
        compactStartLists()
        if queueFacts.count > stream.queues.count {
            for id in queueFacts.ids where !stream.queues.contains(id) { queueFacts[id] = nil }
        }
    }
}
