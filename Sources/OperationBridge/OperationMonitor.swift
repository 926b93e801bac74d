import Foundation
import OperationEvents
import Synchronization

/// Observes operations and queues and turns what they do into a stream of `MonitorEvent`s;
/// carries out the dashboard's commands.
///
/// Create one per program and share it. It holds operations and queues weakly: it never extends
/// a lifetime (an operation is referenced only while its queue holds it too) and creates no
/// retain cycle. All methods are thread-safe; no user code and no I/O run under its locks.
///
/// ```swift
/// let monitor = OperationMonitor()
/// let queue = ObservedOperationQueue(monitor: monitor, name: "images")
/// queue.addOperation { resize() }              // observed exactly
/// monitor.track(OperationQueue.main)           // observed by sampling
/// let batch = monitor.drainEvents(limit: 1000)
/// ```
public final class OperationMonitor: MonitorConnection, @unchecked Sendable {
    // Safety: mutable state lives in `registry`, guarded by `registryLock`; the rest is
    // immutable, atomic, or internally synchronised (ring, pool, caches, sampler).

    /// Tunables; the defaults suit an interactive dashboard.
    public struct Configuration: Sendable {
        /// Events the buffer holds before it drops (rounded up to a power of two).
        public var bufferCapacity = 65_536
        /// How often the sampler polls what cannot be hooked (tracked queues, starts of foreign operations).
        public var samplingInterval: Duration = .milliseconds(50)
        /// How many not-yet-started foreign operations per queue one sampling tick reads, taken in
        /// the order the queue will start them.
        public var samplingWindow = 64
        /// The share of one core a tracked queue's `operations` walk may take; a deep queue is walked
        /// less often so that sampling never costs it more than this.
        public var trackedWalkBudget = 0.02
        /// The clock that stamps events.
        public var clock: MonitorClock = .monotonic

        /// The defaults.
        public init() {}
    }

    /// The configuration this monitor was created with.
    public let configuration: Configuration
    /// Named work templates that the dashboard's "add work" command instantiates.
    public let catalog = WorkCatalog()

    let clock: MonitorClock
    let ring: EventRing
    let sentinelPool = SentinelPool()
    let typeNames = TypeNameCache()
    let registryLock = NSLock()
    var registry = Registry()
    /// Set once any foreign operation waits for a dependency; lets finishes skip the registry otherwise.
    let hasWaiters = Atomic<Bool>(false)
    private let nextOperation = Atomic<Int>(1)
    private let nextQueue = Atomic<Int>(1)
    let sampler: Sampler

    /// Creates a monitor.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        clock = configuration.clock
        ring = EventRing(minimumCapacity: max(16, configuration.bufferCapacity))
        sampler = Sampler(interval: configuration.samplingInterval)
        sampler.monitor = self
    }

    deinit {
        sampler.stop()
    }

    // MARK: Events

    /// Takes up to `limit` buffered events, oldest first, with the running dropped-events count.
    public func drainEvents(limit: Int = .max) -> EventBatch {
        EventBatch(events: ring.drain(limit: limit), droppedTotal: ring.droppedCount)
    }

    /// Events dropped so far because the buffer was full.
    public var droppedEvents: Int { ring.droppedCount }

    /// The current time on the monitor's clock.
    public func now() -> UInt64 { clock.now() }

    /// Appends one event stamped now.
    @inline(__always)
    func emit(_ change: MonitorEvent.Change, source: EventSource = .exact) {
        ring.push(MonitorEvent(time: clock.now(), source: source, change: change))
    }

    // MARK: Ids

    func allocateOperationID() -> OperationID {
        OperationID(nextOperation.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    func allocateQueueID() -> QueueID {
        QueueID(nextQueue.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    /// True if `id` was ever handed out (so "unknown" and "gone" can be told apart).
    func wasAllocated(_ id: OperationID) -> Bool {
        id.rawValue >= 1 && id.rawValue < nextOperation.load(ordering: .relaxed)
    }

    func wasAllocated(_ id: QueueID) -> Bool {
        id.rawValue >= 1 && id.rawValue < nextQueue.load(ordering: .relaxed)
    }

    // MARK: Locking helper

    @inline(__always)
    func withRegistry<T>(_ body: (inout Registry) throws -> T) rethrows -> T {
        registryLock.lock()
        defer { registryLock.unlock() }
        return try body(&registry)
    }
}
