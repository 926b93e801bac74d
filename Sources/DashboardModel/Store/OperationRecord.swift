import OperationEvents

/// Everything the dashboard knows about one operation.
public struct OperationRecord: Sendable, Equatable {
    /// The operation's id.
    public let id: OperationID
    /// Its queue; nil for an operation known only as a dependency.
    public var queue: QueueID?
    /// `name`, if set.
    public var name: String?
    /// The class name.
    public var typeName: String
    /// Pending, ready, executing or finished.
    public var state: OperationState
    /// `isCancelled`.
    public var isCancelled: Bool
    /// `isAsynchronous`.
    public var isAsynchronous: Bool
    /// A barrier block.
    public var isBarrier: Bool
    /// `queuePriority` as declared.
    public var priority: OperationPriority
    /// The priority the queue schedules it by.
    public var effectivePriority: OperationPriority
    /// `qualityOfService`.
    public var qualityOfService: QoSClass
    /// How it is observed.
    public var observation: ObservationMode
    /// The operations it waits for.
    public var dependencies: [OperationID]
    /// The operations that wait for it.
    public var dependents: [OperationID]
    /// When it was added (monitor clock, ns).
    public var addedAt: UInt64
    /// When it became ready, if it did.
    public var readyAt: UInt64?
    /// When it started, if it did.
    public var startedAt: UInt64?
    /// When it finished, if it did.
    public var finishedAt: UInt64?
    /// `isFinished` reads true but the queue was never told.
    public var unsignalledFinish: Bool
    /// Disappeared without a finish being seen (sampled operations only).
    public var vanished: Bool
    /// 1 + the largest level of its dependencies (0 without dependencies): also the earliest
    /// wave in which it can run.
    public internal(set) var level: Int
    /// Position in its queue's add order: Foundation starts operations of one priority in this order.
    public internal(set) var enqueueOrder: UInt64
    /// Recent key changes, oldest first (at most `ModelConfiguration.historyLimit`).
    public internal(set) var history: [KeyChange]
    /// Dependents in `dependents` that are no longer retained; the list is compacted when
    /// they outnumber the live ones, so a long-lived hub does not grow without bound.
    var staleDependents = 0

    /// The name to show: the app's name, else the type name.
    public var displayName: String { name ?? typeName }

    /// `#12 parse` (or `#12 ParseOperation`), for messages.
    public var label: String { "\(id) \(displayName)" }

    /// Wait time so far or until it started (ns).
    public func waitTime(now: UInt64) -> UInt64 {
        (startedAt ?? finishedAt ?? now) &- min(addedAt, startedAt ?? finishedAt ?? now)
    }

    /// Run time so far or until it finished (ns); nil if it never started.
    public func runTime(now: UInt64) -> UInt64? {
        guard let startedAt else { return nil }
        let end = finishedAt ?? now
        return end >= startedAt ? end - startedAt : 0
    }

    init(info: OperationInfo, time: UInt64, enqueueOrder: UInt64) {
        id = info.id
        queue = info.queue
        name = info.name
        typeName = info.typeName
        state = info.isExecuting ? .executing : (info.isReady ? .ready : .pending)
        isCancelled = info.isCancelled
        isAsynchronous = info.isAsynchronous
        isBarrier = info.isBarrier
        priority = info.priority
        effectivePriority = info.effectivePriority
        qualityOfService = info.qualityOfService
        observation = info.observation
        dependencies = info.dependencies
        dependents = []
        addedAt = time
        readyAt = info.isReady ? time : nil
        startedAt = info.isExecuting ? time : nil
        finishedAt = nil
        unsignalledFinish = false
        vanished = false
        level = 0
        self.enqueueOrder = enqueueOrder
        history = []
    }
}
