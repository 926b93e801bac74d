import Foundation
import OperationEvents
import Synchronization

/// The state every hook reports into: ids, the event buffer, the registry.
///
/// Kept apart from the public `OperationMonitor` so that nothing ever holds it weakly: a weak
/// reference gives an object a side table, and from then on every retain and release of it
/// takes Swift's slow path, on every thread that reports. Operations reach it through an
/// `Unmanaged` handle, so reporting costs no reference counting at all.
final class MonitorCore: @unchecked Sendable {
    // Safety: mutable state lives in `registry`, guarded by `registryLock`; the rest is
    // immutable, atomic, or internally synchronised (ring, pool, caches, sampler).
    let configuration: OperationMonitor.Configuration
    let catalog = WorkCatalog()
    let clock: MonitorClock
    let ring: EventRing
    /// The way out of the ring: causal order, history, subscriptions.
    let hub: MonitorHub
    let sentinelPool = SentinelPool()
    let typeNames = TypeNameCache()
    let registryLock = NSLock()
    var registry = Registry()
    /// Set once any foreign operation waits for a dependency; lets finishes skip the registry otherwise.
    let hasWaiters = Atomic<Bool>(false)
    let sampler: Sampler
    private let nextOperation = Atomic<Int>(1)
    private let nextQueue = Atomic<Int>(1)

    init(configuration: OperationMonitor.Configuration) {
        self.configuration = configuration
        clock = configuration.clock
        ring = EventRing(minimumCapacity: max(16, configuration.bufferCapacity))
        hub = MonitorHub(ring: ring, clock: clock, configuration: configuration)
        sampler = Sampler(interval: configuration.samplingInterval)
        sampler.core = Unmanaged.passUnretained(self)
        hub.core = Unmanaged.passUnretained(self)
        hub.pump.core = Unmanaged.passUnretained(self)
    }

    /// The current time on the monitor's clock.
    func now() -> UInt64 { clock.now() }

    /// Appends one event stamped now.
    @inline(__always)
    func emit(_ change: MonitorEvent.Change, source: EventOrigin = .exact) {
        ring.push(MonitorEvent(time: clock.now(), origin: source, change: change))
    }

    /// Appends one event with a given time.
    @inline(__always)
    func push(_ change: MonitorEvent.Change, time: UInt64, source: EventOrigin) {
        ring.push(MonitorEvent(time: time, origin: source, change: change))
    }

    /// Events the ring dropped so far because it was full (the hub repairs the stream after).
    var droppedCount: Int { ring.droppedCount }

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

    /// Starts the sampler thread once there is something to sample, or wakes it from its rest
    /// (unless the configuration leaves sampling to `sampleNow()` calls).
    func startSampling() {
        guard configuration.samplesAutomatically else { return }
        let start = withRegistry { registry -> Bool in
            defer { registry.samplerStarted = true }
            return !registry.samplerStarted
        }
        if start { sampler.start() }
    }

    /// After a tick: true when nothing is left to sample (no tracked queue, no foreign operation
    /// waiting to start or running, no dependency in no queue), and then the sampler rests until
    /// `startSampling()` is called again: a monitor whose foreign work is done wakes nobody.
    func samplerMayRest() -> Bool {
        withRegistry { registry in
            let idle = registry.windows.isEmpty && registry.unqueued.isEmpty
                && !registry.queues.values.contains { $0.observation != .observed }
            if idle { registry.samplerStarted = false }
            return idle
        }
    }
}
