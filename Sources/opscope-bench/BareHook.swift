import Foundation
import Synchronization

/// The least an exact finish hook for a foreign operation does on Linux (one built on a
/// dependent, the only exact per-operation signal Foundation gives there), with no OpScope code:
/// a pooled dependent is linked to the operation before it is enqueued, Foundation calls its
/// `isReady` when the operation finishes, and it unlinks itself there (so the operation is
/// released when Foundation releases it) and goes back to the pool. No registration, no
/// events, no monitor.
///
/// `bridge --mode hook-floor` runs plain queues of `BlockOperation`s with one each: its ratio to
/// the plain queue is the ceiling of the hooked mode, whatever the monitor's own code costs.
/// It is the product's `FinishSentinel` with the monitor taken out.
final class BareHook: Operation, @unchecked Sendable {
    // Safety: `target`, `keepAlive` and `pool` are written by the arming thread before `armed`
    // is set (releasing) and read by the finishing thread after it is cleared (acquiring).
    private let armed = Atomic<Bool>(false)
    private var target: Unmanaged<Operation>?
    private var keepAlive: BareHook?
    /// Held only while armed, as the sentinel holds its monitor: idle hooks in the pool do not
    /// keep it alive, and the floor pays the same retain and release per operation.
    private var pool: BareHookPool?

    /// Links the hook to `operation`, which is neither finished nor enqueued yet; it goes back
    /// to `pool` when it fires.
    func arm(for operation: Operation, pool: BareHookPool) {
        self.pool = pool
        target = Unmanaged.passUnretained(operation)
        // Foundation holds its dependents unretained: an armed hook keeps itself alive.
        keepAlive = self
        addDependency(operation)
        armed.store(true, ordering: .releasing)
    }

    /// Called by Foundation when the target finishes (and, disarmed, when it links or unlinks).
    override var isReady: Bool {
        if armed.load(ordering: .relaxed), armed.exchange(false, ordering: .acquiringAndReleasing), let target {
            self.target = nil
            let pool = self.pool
            self.pool = nil
            removeDependency(target.takeUnretainedValue())
            let survivor = keepAlive
            keepAlive = nil
            if let survivor { pool?.recycle(survivor) }
        }
        return true
    }
}

/// Reusable hooks, as the monitor pools its sentinels: taken on the adding thread, returned on
/// finishing threads.
final class BareHookPool: @unchecked Sendable {
    // Safety: `free` is guarded by `lock`.
    private let lock = NSLock()
    private var free: [BareHook] = []

    func take() -> BareHook {
        lock.lock()
        let hook = free.popLast()
        lock.unlock()
        return hook ?? BareHook()
    }

    func recycle(_ hook: BareHook) {
        lock.lock()
        if free.count < 4_096 { free.append(hook) }
        lock.unlock()
    }
}
