import DequeModule
import OperationEvents

/// Everything the dashboard shows, computed from the bridge's events: a pure reducer with no
/// reference to `Operation` objects and no terminal types.
///
/// Feed it `EventBatch`es in order; when a batch reports more dropped events than before,
/// `apply(_:)` returns true and the caller re-synchronises with `resync(from:)` and a fresh
/// snapshot. Call `advance(to:)` with the monitor's clock so that retention and warnings move on
/// even when no event arrives.
public struct DashboardModel: Sendable {
    /// Retention and warning thresholds.
    public var configuration: ModelConfiguration
    /// Operations retained: every unfinished one, and recently finished ones.
    public internal(set) var operations = OperationTable()
    /// Queues seen (released ones stay, marked, while they have retained operations).
    public internal(set) var queues = QueueTable()
    /// Events the bridge dropped so far (from the last batch).
    public internal(set) var droppedEvents = 0
    /// The latest time seen, from events or `advance(to:)`.
    public internal(set) var now: UInt64 = 0
    /// Incremented when operations or edges are added or removed (layouts depend on it).
    public internal(set) var structureVersion = 0
    /// Incremented on every applied change.
    public internal(set) var stateVersion = 0
    /// Wait and run time percentiles per quality of service.
    public internal(set) var latencyByQoS: [QoSClass: LatencyStatistics] = [:]
    /// Finished operations no longer retained, by queue (nil key: no queue).
    public internal(set) var expired: [QueueID?: Int] = [:]
    /// Dependency cycles among unfinished operations, each in dependency order.
    public internal(set) var cycles: [[OperationID]] = []

    /// Finished operations in the order they finished, for retention.
    var finishedOrder = Deque<OperationID>()
    /// Dependencies named before they were announced: id → the operations that named it.
    var awaited: [OperationID: [OperationID]] = [:]
    /// Events older than this sequence are already reflected (after a re-sync).
    var sequenceFloor: UInt64 = 0
    /// Operations that are members of a cycle.
    var cycleMembers: Set<OperationID> = []
    /// Set when an edge that could close a cycle was added; the next batch runs the full check.
    var cyclesDirty = false
    /// Add order for operations announced without a sequence (snapshots).
    var enqueueCounter: UInt64 = 0

    /// An empty model.
    public init(configuration: ModelConfiguration = ModelConfiguration()) {
        self.configuration = configuration
    }

    /// Finished operations currently retained.
    public var retainedFinished: Int { finishedOrder.count }

    /// The operation, if retained.
    public subscript(id: OperationID) -> OperationRecord? { operations[id] }

    /// True if `id` is in a dependency cycle.
    public func isInCycle(_ id: OperationID) -> Bool { cycleMembers.contains(id) }

    /// Applies a batch; returns true if events were lost since the last batch, in which case the
    /// caller should call `resync(from:)` with a fresh snapshot.
    @discardableResult
    public mutating func apply(_ batch: EventBatch) -> Bool {
        switch batch.start {
        case .snapshot(let snapshot): resync(from: snapshot)
        case nil: break
        }
        for event in batch.events { apply(event) }
        let lost = batch.droppedTotal > droppedEvents
        droppedEvents = max(droppedEvents, batch.droppedTotal)
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

    /// Moves the model's clock forward (retention) without an event.
    public mutating func advance(to time: UInt64) {
        if time > now { now = time }
        finishBatch()
    }

    /// Work done once per batch rather than per event.
    mutating func finishBatch() {
        expireFinished()
        if cyclesDirty { detectCycles() }
    }
}
