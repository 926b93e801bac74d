import Foundation
import OperationEvents

extension MonitorCore {
    /// An `ObservedOperationQueue` was created.
    func queueAppeared(_ queue: ObservedOperationQueue) {
        let info = queue.currentInfo()
        withRegistry { registry in
            registry.queues[queue.queueID] = QueueEntry(id: queue.queueID, queue: queue, observation: .observed, info: info)
            emit(.queueAppeared(info))
        }
    }

    /// An `ObservedOperationQueue` is being deallocated.
    func queueReleased(_ id: QueueID) {
        withRegistry { registry in
            registry.queues[id] = nil
            registry.windows[id] = nil
            emit(.queueReleased(queue: id))
        }
    }

    /// Announces a barrier block and wraps it so its start and end are reported exactly.
    /// It depends on everything its queue holds now (Foundation's rule), found by one walk.
    func registerBarrier(in queue: ObservedOperationQueue, block: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = allocateOperationID()
        let dependencies = resolveDependencies(queue.operations) + queue.pendingBarrierIDs()
        let qos = QoSClass(foundation: queue.qualityOfService)
        emit(.operationAdded(OperationInfo(
            id: id, queue: queue.queueID, name: "barrier", typeName: "BarrierBlock", priority: .normal,
            effectivePriority: .barrier, priorityIsExplicit: false, qualityOfService: qos, isBarrier: true,
            dependencies: dependencies, observation: .instrumented, isReady: dependencies.isEmpty)))
        let record = BarrierRecord(id: id)
        queue.barrierAdded(record)
        return { [weak self, weak queue] in
            guard record.claimRun() else {
                block()
                return
            }
            self?.emit(.started(operation: id))
            block()
            queue?.barrierEnded(record)
            self?.operationFinished(id, cancelled: false, source: .exact)
        }
    }

    /// After `cancelAllOperations()`: reports the foreign operations it cancelled (instrumented
    /// ones report themselves) and the pending barriers whose blocks will now never run.
    func didCancelAll(in queue: ObservedOperationQueue) {
        var cancelled: [SamplingWindow.Entry] = []
        for (entry, operation) in hookedEntries(of: queue.queueID) where operation.isCancelled {
            cancelled.append(entry)
        }
        foreignCancelled(cancelled, source: .exact)
        for record in queue.pendingBarriers() where record.claimCancel() {
            queue.barrierEnded(record)
            emit(.cancelled(operation: record.id), source: .inferred)
            operationFinished(record.id, cancelled: true, source: .inferred)
        }
    }

    // MARK: Tracking queues the app did not create as observed

    /// See `OperationMonitor.track(_:)`.
    @discardableResult
    func track(_ queue: OperationQueue) -> QueueID {
        if let observed = queue as? ObservedOperationQueue, observed.core === self {
            return observed.queueID
        }
        if let known = withRegistry({ registry in registry.entry(of: queue)?.id }) {
            return known
        }
        var info = Self.readQueueInfo(queue, id: QueueID(0))
        let id = withRegistry { registry -> QueueID in
            if let known = registry.entry(of: queue) { return known.id }
            info.id = allocateQueueID()
            registry.queues[info.id] = QueueEntry(id: info.id, queue: queue, observation: .sampled, info: info)
            emit(.queueAppeared(info))
            return info.id
        }
        startSampling()
        return id
    }

    /// Reads a queue's state. Calls its getters, which a subclass may override: never under a lock.
    static func readQueueInfo(_ queue: OperationQueue, id: QueueID) -> QueueInfo {
        let isMain = queue === OperationQueue.main
        return QueueInfo(
            id: id, name: queue.name ?? "", maxConcurrentOperationCount: queue.maxConcurrentOperationCount,
            isSuspended: queue.isSuspended, qualityOfService: QoSClass(foundation: queue.qualityOfService),
            isMainQueue: isMain, observation: .sampled)
    }
}
