import Foundation
import OperationEvents
import Synchronization

/// A hidden dependent that reports the exact finish of an operation the monitor did not create.
///
/// Foundation keeps the dependents of an operation *unretained* and, when the operation
/// finishes, calls `isReady` on every dependent whose last dependency it was, on the finishing
/// thread, before the completion block and before the queue lets go of the operation. The
/// sentinel depends on exactly one target at a time and reports from that `isReady` call.
///
/// Lifetime: the target holds the sentinel unretained, so an armed sentinel keeps itself alive
/// (`keepAlive`). The sentinel holds the target only through Foundation's dependency list, which
/// it empties at the finish, so the target is released exactly when Foundation releases it.
/// Sentinels are pooled: allocating an `Operation` costs more than re-arming one.
final class FinishSentinel: Operation, @unchecked Sendable {
    // Safety: the fields below are written by the arming thread before `armed` is set
    // (releasing) and read by the firing thread after `armed` is cleared (acquiring); the
    // sampling fields are guarded by the monitor's registry lock. `id` is also rewritten after
    // arming, under that lock, when a dependency-only operation joins a queue; that write, too,
    // is made on the adding thread before the target is handed to Foundation's queue, whose
    // hand-off to the thread that runs and finishes it orders it before the firing.
    private let armed = Atomic<Bool>(false)
    private var keepAlive: FinishSentinel?
    /// Held only while armed, so idle sentinels in the pool do not keep the monitor alive.
    private var monitor: MonitorCore?
    private(set) var target: Unmanaged<Operation>?

    /// The target's id and queue, while armed. The id may be replaced before the target is
    /// enqueued (when it already had one as a dependency), never after.
    var id = OperationID(0)
    private(set) var queue = QueueID(0)
    /// The priority list Foundation put the target in (for snapshots); registry-lock guarded
    /// once armed, as the sampler updates it when the app sets a priority after the add.
    var effectivePriority = OperationPriority.normal
    /// Registry-lock guarded: the target's `queuePriority` as last read.
    var declaredPriority = OperationPriority.normal

    /// Registry-lock guarded: bumped at every registration, so stale references (e.g. in
    /// sampling windows) to a re-armed sentinel can be told apart.
    var registryGeneration = 0
    /// Registry-lock guarded: what the sampler has seen of the target.
    var seenStarted = false
    /// Registry-lock guarded: set when the target was added to a suspended queue.
    var heldBySuspension: SuspensionMark?
    var seenCancelled = false
    /// Registry-lock guarded: the target's dependencies (not its queue's barriers) as last seen.
    var knownDependencies: [OperationID] = []
    var unsignalledTicks = 0
    var seenUnsignalledFinish = false

    override init() {
        super.init()
    }

    /// Starts watching `operation`, which must not be finished or enqueued yet.
    func arm(for operation: Operation, monitor: MonitorCore, id: OperationID, queue: QueueID) {
        self.monitor = monitor
        target = Unmanaged.passUnretained(operation)
        self.id = id
        self.queue = queue
        keepAlive = self
        addDependency(operation)
        armed.store(true, ordering: .releasing)
    }

    /// Stops watching a target that was never handed to Foundation by this arming (a duplicate
    /// announcement), and goes back to the pool.
    func disarm() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing), let target, let monitor else { return }
        self.target = nil
        self.monitor = nil
        removeDependency(target.takeUnretainedValue())
        let survivor = keepAlive
        keepAlive = nil
        monitor.sentinelPool.recycle(survivor)
    }

    /// While armed, the only caller is Foundation finishing the target: it reads this getter
    /// after the target's last dependent-count decrement. Calls made while arming or releasing
    /// (Foundation re-reads readiness after `addDependency` / `removeDependency`) find it disarmed.
    override var isReady: Bool {
        if armed.load(ordering: .relaxed), armed.exchange(false, ordering: .acquiringAndReleasing) {
            fire()
        }
        return true
    }

    private func fire() {
        guard let target, let monitor else { return }
        let operation = target.takeUnretainedValue()
        // Hand the target back first: Foundation's dependency list is the sentinel's only
        // reference, and the queue holds the operation until after this call. Unlinked before the
        // monitor files its weak entry, the unlink's retains and releases take the fast path
        // (the first weak reference moves a native object's counts to a side table).
        self.target = nil
        self.monitor = nil
        removeDependency(operation)
        monitor.foreignOperationFinished(self, operation: operation)
        let survivor = keepAlive
        keepAlive = nil
        monitor.sentinelPool.recycle(survivor)
    }
}

/// Reusable sentinels. Taken on the thread that adds operations, returned on finishing threads.
final class SentinelPool: @unchecked Sendable {
    // Safety: `free` is guarded by `lock`.
    private let lock = NSLock()
    private var free: [FinishSentinel] = []
    private let limit: Int

    init(limit: Int = 4096) {
        self.limit = limit
        free.reserveCapacity(limit)
    }

    func take() -> FinishSentinel {
        lock.lock()
        let sentinel = free.popLast()
        lock.unlock()
        return sentinel ?? FinishSentinel()
    }

    func recycle(_ sentinel: FinishSentinel?) {
        guard let sentinel else { return }
        lock.lock()
        if free.count < limit { free.append(sentinel) }
        lock.unlock()
    }

    /// Sentinels waiting for reuse (for tests).
    var idleCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return free.count
    }
}
