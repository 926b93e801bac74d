import DequeModule
import OperationEvents

/// Everything the dashboard knows about one queue.
public struct QueueRecord: Sendable {
    /// The queue's id.
    public let id: QueueID
    /// `name`.
    public var name: String
    /// `maxConcurrentOperationCount` (-1: Foundation's default, no fixed limit).
    public var maxConcurrentOperationCount: Int
    /// `isSuspended`.
    public var isSuspended: Bool
    /// `qualityOfService`.
    public var qualityOfService: QoSClass
    /// `OperationQueue.main`.
    public var isMainQueue: Bool
    /// Observed exactly or sampled.
    public var observation: QueueObservation
    /// The queue object was released.
    public var isReleased = false
    /// Operations a tracked queue holds, as last sampled (observed queues: nil).
    public var sampledDepth: Int?
    /// Unfinished operations by state.
    public internal(set) var pending = 0
    /// Ready, not started.
    public internal(set) var ready = 0
    /// Executing.
    public internal(set) var executing = 0
    /// Finished since observed, including those no longer retained.
    public internal(set) var finished = 0
    /// Of those, cancelled.
    public internal(set) var cancelled = 0
    /// Wait and run time percentiles.
    public internal(set) var latency = LatencyStatistics()
    /// Finishes per second.
    public internal(set) var throughput: ThroughputMeter

    /// Unstarted operations in add order, one list per priority in scheduling order (barrier
    /// first): Foundation's own structure. Entries are removed lazily (see `startOrder`).
    var startLists: [Deque<OperationID>] = Array(repeating: [], count: OperationPriority.schedulingOrder.count)

    init(info: QueueInfo, throughputSeconds: Int) {
        id = info.id
        name = info.name
        maxConcurrentOperationCount = info.maxConcurrentOperationCount
        isSuspended = info.isSuspended
        qualityOfService = info.qualityOfService
        isMainQueue = info.isMainQueue
        observation = info.observation
        throughput = ThroughputMeter(seconds: throughputSeconds)
    }

    /// Unstarted operations (pending + ready).
    public var waiting: Int { pending + ready }

    /// `4` or `∞` for tables; `1` means serial.
    public var limitText: String { maxConcurrentOperationCount < 0 ? "∞" : String(maxConcurrentOperationCount) }

    /// True when the queue may start another operation now.
    public var hasFreeSlot: Bool { maxConcurrentOperationCount < 0 || executing < maxConcurrentOperationCount }

    mutating func apply(_ info: QueueInfo) {
        name = info.name
        maxConcurrentOperationCount = info.maxConcurrentOperationCount
        isSuspended = info.isSuspended
        qualityOfService = info.qualityOfService
        isMainQueue = info.isMainQueue
        observation = info.observation
        isReleased = false
    }

    static func listIndex(_ priority: OperationPriority) -> Int {
        OperationPriority.schedulingOrder.firstIndex(of: priority) ?? 3
    }
}
