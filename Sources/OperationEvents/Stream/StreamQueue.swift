/// Everything a stream says about one queue: the bridge's description of it as last reported,
/// how many of its operations are in each state, and what it has finished.
public struct StreamQueue: Sendable, Equatable {
    /// The queue's keys as last reported (`queueAppeared`, kept current by later queue events).
    public internal(set) var info: QueueInfo
    /// The queue object was released.
    public internal(set) var isReleased = false
    /// Operations a tracked queue holds, as last sampled (observed queues: nil).
    public internal(set) var sampledDepth: Int?
    /// Unfinished operations waiting on dependencies.
    public internal(set) var pending = 0
    /// Ready, not started.
    public internal(set) var ready = 0
    /// Executing.
    public internal(set) var executing = 0
    /// Finished since the stream began, including those no longer retained.
    public internal(set) var finished = 0
    /// Of those, cancelled.
    public internal(set) var cancelled = 0
    /// Finished operations of this queue the stream no longer retains (trimmed by retention).
    public internal(set) var trimmed = 0
    /// Operations of this queue the stream holds (any state): a released queue is forgotten
    /// when none is left.
    var retained = 0
    /// When the queue last gained room to start work or was told to (an operation of it
    /// finished, it appeared, it was suspended or resumed, its limit changed): Foundation
    /// decides what to start at each of these moments, so a ready operation still unstarted a
    /// while after the last of them was never made ready in the queue's eyes.
    public internal(set) var roomSince: UInt64 = 0

    init(info: QueueInfo, time: UInt64 = 0) {
        self.info = info
        roomSince = time
    }

    /// The queue's id.
    public var id: QueueID { info.id }
    /// `name`.
    public var name: String { info.name }
    /// `maxConcurrentOperationCount` (-1: Foundation's default, no fixed limit).
    public var maxConcurrentOperationCount: Int { info.maxConcurrentOperationCount }
    /// `isSuspended`.
    public var isSuspended: Bool { info.isSuspended }
    /// `qualityOfService`.
    public var qualityOfService: QoSClass { info.qualityOfService }
    /// `OperationQueue.main`.
    public var isMainQueue: Bool { info.isMainQueue }
    /// Observed exactly or sampled.
    public var observation: QueueObservation { info.observation }

    /// Unstarted operations (pending + ready).
    public var waiting: Int { pending + ready }

    /// `4` or `∞` for tables; `1` means serial.
    public var limitText: String { maxConcurrentOperationCount < 0 ? "∞" : String(maxConcurrentOperationCount) }

    /// True when the queue may start another operation now.
    public var hasFreeSlot: Bool { maxConcurrentOperationCount < 0 || executing < maxConcurrentOperationCount }

    /// Adds `delta` to the count of `state` (finished operations are counted apart).
    mutating func count(_ state: OperationState, _ delta: Int) {
        switch state {
        case .pending: pending += delta
        case .ready: ready += delta
        case .executing: executing += delta
        case .finished: break
        }
    }
}

extension StreamQueue: IdentifiedRecord {}
