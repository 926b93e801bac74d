import Foundation
import OperationEvents

extension MonitorCore {
    /// An `ObservedOperationQueue` was created.
    func queueAppeared(_ queue: ObservedOperationQueue) {
        let info = queue.currentInfo()
        withRegistry { registry in
            registry.file(QueueEntry(id: queue.queueID, queue: queue, observation: .observed, info: info))
            emit(.queueAppeared(info))
        }
    }

    /// An `ObservedOperationQueue` is being deallocated.
    func queueReleased(_ id: QueueID) {
        withRegistry { registry in
            registry.forget(id)
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

    /// After the command's `cancelAllOperations()` of a queue that is no `ObservedOperationQueue`
    /// (its override reports itself): reports what it cancelled of the operations whose cancel
    /// no hook sees (hooked ones of a reported queue, sampled ones of a tracked queue).
    func didCancelAll(reportedIn queue: QueueID) {
        var cancelled: [SamplingWindow.Entry] = []
        for (entry, operation) in hookedEntries(of: queue) where operation.isCancelled {
            cancelled.append(entry)
        }
        foreignCancelled(cancelled, source: .exact)
        // Loaded under the lock, read and released after it (their getters are the app's).
        let members: [(SampledEntry, Operation)] = withRegistry { registry in
            guard let entry = registry.queues[queue] else { return [] }
            return entry.members.compactMap { object in
                guard let sampled = registry.objects[sampled: object], let operation = sampled.operation else { return nil }
                return (sampled, operation)
            }
        }
        let readings = members.map { $0.1.isCancelled }
        withRegistry { _ in
            for ((sampled, _), isCancelled) in zip(members, readings)
            where isCancelled && !sampled.keys.isCancelled && !sampled.finishedReported {
                sampled.keys.isCancelled = true
                emit(.cancelled(operation: sampled.id))
            }
        }
    }

    // MARK: Tracking queues the app did not create as observed

    /// See `OperationMonitor.track(_:)`.
    @discardableResult
    func track(_ queue: OperationQueue) -> QueueID {
        adopt(queue, as: .sampled)
    }

    /// See `OperationMonitor.register(_:)`: a queue whose adds the program reports.
    @discardableResult
    func register(_ queue: OperationQueue) -> QueueID {
        adopt(queue, as: .reported)
    }

    /// A queue of this monitor's by id (an `ObservedOperationQueue` of it keeps its own), now
    /// tracked or reported. A tracked queue the program then reports becomes reported; one
    /// reported stays so when tracked (reporting sees more).
    private func adopt(_ queue: OperationQueue, as observation: QueueObservation) -> QueueID {
        if let observed = queue as? ObservedOperationQueue, observed.core === self {
            return observed.queueID
        }
        if let known = known(queue, becoming: observation) { return known }
        var info = Self.readQueueInfo(queue, id: QueueID(0))
        info.observation = observation
        let id = withRegistry { registry -> QueueID in
            if let known = registry.entry(of: queue) { return known.id }
            info.id = allocateQueueID()
            registry.file(QueueEntry(id: info.id, queue: queue, observation: observation, info: info))
            emit(.queueAppeared(info))
            return info.id
        }
        startSampling()
        return id
    }

    /// The id of a queue already known, announced again if it becomes reported.
    private func known(_ queue: OperationQueue, becoming observation: QueueObservation) -> QueueID? {
        withRegistry { registry -> QueueID? in
            guard let entry = registry.entry(of: queue) else { return nil }
            if observation == .reported, entry.observation == .sampled {
                entry.observation = .reported
                entry.info.observation = .reported
                emit(.queueAppeared(entry.info))
            }
            return entry.id
        }
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
