import Foundation
import OperationEvents

extension MonitorCore {
    /// The finish of an instrumented operation, a barrier or a sampled one.
    func operationFinished(_ id: OperationID, cancelled: Bool, source: EventOrigin) {
        let time = clock.now()
        ring.push(MonitorEvent(time: time, origin: source, change: .finished(operation: id, cancelled: cancelled)))
        if hasWaiters.load(ordering: .sequentiallyConsistent) {
            withRegistry { releaseWaiters(of: id, in: &$0, time: time, source: source) }
        }
    }

    /// A sentinel fired: the foreign operation finished, on this thread, just now.
    /// What sampling missed is reported first, as inferred: a finish proves that the operation
    /// became ready, and that it ran unless it was cancelled.
    func foreignOperationFinished(_ sentinel: FinishSentinel, operation: Operation) {
        let cancelled = operation.isCancelled
        let time = clock.now()
        let object = ObjectIdentifier(operation)
        // The entry that keeps the id (weakly) while the operation lives, made now and not when
        // it was added: in Swift's native objects (an `Operation` on Linux) the first weak
        // reference moves the reference counts to a side table, and every retain and release
        // Foundation made of it while it was queued and ran then took the slow path (11% of the
        // hooked mode's extra CPU at max 1). `sentinel.id` is final here: it changes only on the
        // adding thread before the operation is enqueued (see `FinishSentinel`'s safety note).
        let identity = SampledEntry(
            id: sentinel.id, operation: operation, queue: sentinel.queue,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: true, isCancelled: cancelled))
        // Keep the id (weakly) while the operation lives: a dependent enqueued later names it.
        identity.startedReported = true
        identity.finishedReported = true
        withRegistry { registry in
            // This runs before Foundation lets the queue start its next operation, so at max 1
            // every lookup here delays the chain: the entry changes kind in one lookup, and an
            // empty table is not looked in at all.
            let filed = registry.objects.finishHooked(object, sentinel: sentinel, becoming: identity)
            let id = sentinel.id
            if cancelled, !sentinel.seenCancelled {
                push(.cancelled(operation: id), time: time, source: .inferred)
            }
            if !registry.remaining.isEmpty, registry.remaining.removeValue(forKey: id) != nil {
                push(.ready(operation: id, isReady: true), time: time, source: .inferred)
            }
            // A finish is taken as proof of a start the sampler missed, unless the queue was
            // suspended from the add until now (see `QueueSuspension`).
            let neverStarted = sentinel.heldBySuspension?.stillSuspended ?? false
            sentinel.heldBySuspension = nil
            if !sentinel.seenStarted, !cancelled, !neverStarted {
                push(.started(operation: id), time: time, source: .inferred)
            }
            push(.finished(operation: id, cancelled: cancelled), time: time, source: .exact)
            releaseWaiters(of: id, in: &registry, time: time, source: .exact)
            if filed { registry.retired.file(identity, for: object) }
        }
        // Still alive here (its queue releases it after this): see `CancelledShield`. Its
        // dependencies are read (the app's getter), never changed.
        if cancelled { CancelledShield.protect(operation, dependencies: operation.dependencies) }
    }

    /// Reports cancellations of foreign operations the monitor did not make itself (after
    /// `cancelAllOperations`, or seen by sampling). A cancelled pending operation becomes ready.
    func foreignCancelled(_ entries: [SamplingWindow.Entry], source: EventOrigin) {
        guard !entries.isEmpty else { return }
        let time = clock.now()
        withRegistry { registry in
            for entry in entries where registry.isCurrent(entry) && !entry.sentinel.seenCancelled {
                entry.sentinel.seenCancelled = true
                ring.push(MonitorEvent(time: time, origin: source, change: .cancelled(operation: entry.id)))
                if registry.remaining.removeValue(forKey: entry.id) != nil {
                    ring.push(MonitorEvent(time: time, origin: source, change: .ready(operation: entry.id, isReady: true)))
                }
            }
        }
    }

    /// Current entries for every hooked operation of a queue, with their targets retained
    /// (safe under the lock: an armed sentinel's target is alive).
    func hookedEntries(of queue: QueueID) -> [(SamplingWindow.Entry, Operation)] {
        withRegistry { registry in
            guard let window = registry.windows[queue] else { return [] }
            var result: [(SamplingWindow.Entry, Operation)] = []
            for list in window.lists {
                for entry in list where registry.isCurrent(entry) {
                    result.append((entry, entry.target.takeUnretainedValue()))
                }
            }
            for entry in window.executing where registry.isCurrent(entry) {
                result.append((entry, entry.target.takeUnretainedValue()))
            }
            return result
        }
    }
}
