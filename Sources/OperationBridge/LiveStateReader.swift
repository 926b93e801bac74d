import Foundation
import OperationEvents

/// Reads the live state of every queue and unfinished operation into a snapshot: what a new
/// subscriber starts from and what the hub's repair resynchronises with. Calls the program's
/// getters, so never under a lock of the hub.
struct LiveStateReader {
    let core: MonitorCore

    /// See `OperationMonitor.snapshot()`.
    func snapshot() -> MonitorSnapshot {
        // Serve what was produced so far first: every event numbered below `sequence` is then
        // reflected in what is read after. No repair first: it would read the live state too.
        let sequence = core.hub.catchUp(repairing: false)
        return readLiveState(sequence: sequence, time: core.clock.now())
    }

    /// Reads every live queue and unfinished operation. Calls the app's getters: never under a
    /// lock of the core.hub (the core.hub's repair reads this too).
    func readLiveState(sequence: UInt64, time: UInt64) -> MonitorSnapshot {
        let entries = core.withRegistry { registry in
            registry.queues.values.compactMap { entry in entry.queue.map { (entry, $0) } }
        }.sorted { $0.0.id < $1.0.id }

        var queues: [QueueInfo] = []
        var operations: [OperationInfo] = []
        for (entry, queue) in entries {
            if let observed = queue as? ObservedOperationQueue, entry.observation == .observed {
                queues.append(observed.currentInfo())
                operations += snapshotOperations(of: observed)
            } else {
                var info = MonitorCore.readQueueInfo(queue, id: entry.id)
                info.observation = entry.observation
                queues.append(info)
            }
        }
        operations += snapshotSampledOperations()
        // Instrumented dependencies that never joined an observed queue (listed once: one that
        // joined a queue later is already in that queue's list).
        let listed = Set(operations.map(\.id))
        let detached = core.withRegistry { registry in registry.detachedInstrumented.compactMap(\.operation) }
        for operation in detached where !operation.isFinished {
            guard let instrumented = operation as? ObservableOperation, let id = instrumented.monitorID,
                  !listed.contains(id) else { continue }
            var info = core.describeUnqueued(operation, id: id, observation: .instrumented)
            info.dependencies = core.resolveDependencies(operation.dependencies)
            operations.append(info)
        }
        operations.sort { $0.id < $1.id }
        return MonitorSnapshot(
            sequence: sequence, time: time, queues: queues, operations: operations, droppedEvents: core.droppedCount)
    }

    private func snapshotOperations(of queue: ObservedOperationQueue) -> [OperationInfo] {
        queue.settleAdds()
        let serial = queue.maxConcurrentOperationCount == 1
        let members = queue.operations
        let hooked: [(id: OperationID, effective: OperationPriority)?] = core.withRegistry { registry in
            members.map { member in
                guard !(member is ObservableOperation), let sentinel = registry.objects[hooked: ObjectIdentifier(member)] else {
                    return nil
                }
                return (sentinel.id, sentinel.effectivePriority)
            }
        }
        var result: [OperationInfo] = []
        for (index, member) in members.enumerated() where !member.isFinished {
            var info: OperationInfo
            if let instrumented = member as? ObservableOperation {
                guard let id = instrumented.monitorID else { continue }
                info = core.describeUnqueued(member, id: id, queue: queue.queueID, observation: .instrumented, serial: serial)
                info.effectivePriority = instrumented.currentFlags.effectivePriority
            } else {
                guard let known = hooked[index] else { continue }
                info = core.describeUnqueued(member, id: known.id, queue: queue.queueID, observation: .hooked, serial: serial)
                info.priorityIsExplicit = nil
                info.effectivePriority = known.effective
            }
            info.dependencies = core.resolveDependencies(member.dependencies) + queue.pendingBarrierIDs().filter { $0 < info.id }
            result.append(info)
        }
        let qos = QoSClass(foundation: queue.qualityOfService)
        for barrier in queue.pendingBarriers() {
            result.append(OperationInfo(
                id: barrier.id, queue: queue.queueID, name: "barrier", typeName: "BarrierBlock",
                effectivePriority: .barrier, qualityOfService: qos, isBarrier: true, observation: .instrumented,
                isReady: false))
        }
        return result
    }

    private func snapshotSampledOperations() -> [OperationInfo] {
        let sampled: [(OperationID, QueueID?, Operation)] = core.withRegistry { registry in
            registry.objects.sampledEntries.compactMap { entry in entry.operation.map { (entry.id, entry.queue, $0) } }
        }
        return sampled.compactMap { id, queue, operation in
            guard !operation.isFinished else { return nil }
            var info = core.describeUnqueued(operation, id: id, queue: queue, observation: queue == nil ? .external : .sampled)
            info.dependencies = core.resolveDependencies(operation.dependencies)
            return info
        }
    }
}
