import Foundation
import OperationEvents

extension MonitorCore {
    /// Ids for `dependencies`, in order. A dependency the monitor has not seen yet is registered
    /// as a dependency-only operation (it is in no observed queue, perhaps in none at all).
    func resolveDependencies(_ dependencies: [Operation]) -> [OperationID] {
        if dependencies.isEmpty { return [] }
        var ids = [OperationID?](repeating: nil, count: dependencies.count)
        var unknown: [Int] = []
        for (index, dependency) in dependencies.enumerated() {
            if let instrumented = dependency as? ObservableOperation, let id = instrumented.monitorID {
                ids[index] = id
            } else {
                unknown.append(index)
            }
        }
        if !unknown.isEmpty {
            withRegistry { registry in
                unknown.removeAll { index in
                    ids[index] = registry.objects.id(of: dependencies[index])
                    return ids[index] != nil
                }
            }
        }
        for index in unknown {
            ids[index] = registerSampled(dependencies[index], queue: nil)
        }
        return ids.map { $0! }
    }

    /// Registers an operation the monitor sees outside an observed queue: one seen only as a
    /// dependency (`queue == nil`) or one of a tracked queue. Instrumented ones report their own
    /// changes from then on; others are sampled. With `readingDependencies` its dependencies are
    /// read and announced with it (a tracked queue's walk); a dependency is registered without
    /// reading its own (no recursion: a chain of them is read one link per sampling tick). A
    /// dependency-only operation found in a queue joins it, announced again with its queue.
    @discardableResult
    func registerSampled(_ operation: Operation, queue: QueueID?, source: EventOrigin = .exact,
                         readingDependencies: Bool = false) -> OperationID {
        let observation: ObservationMode = operation is ObservableOperation ? .instrumented : (queue == nil ? .external : .sampled)
        var info = describeUnqueued(operation, queue: queue, observation: observation)
        var dependencyObjects: [ObjectIdentifier] = []
        if readingDependencies {
            let dependencies = operation.dependencies
            dependencyObjects = dependencies.map(ObjectIdentifier.init)
            info.dependencies = resolveDependencies(dependencies)
        }
        let keys = SampledKeys(reading: operation)
        let object = ObjectIdentifier(operation)
        var loaded: [Operation] = []
        let (id, startSampler) = withRegistry { registry -> (OperationID, Bool) in
            if let instrumented = operation as? ObservableOperation {
                if let id = instrumented.monitorID { return (id, false) }
                let id = allocateOperationID()
                var announced = info
                announced.id = id
                emit(.operationAdded(announced), source: source)
                instrumented.attach(to: self, id: id)
                instrumented.register(announced: instrumented.currentFlags, adding: [])
                if queue == nil {
                    // Bounded: released entries are dropped whenever one is added. The live ones
                    // loaded to tell them apart are released after the lock (see
                    // `sampleUnqueuedOperations`).
                    registry.detachedInstrumented.removeAll { entry in
                        guard let operation = entry.operation else { return true }
                        loaded.append(operation)
                        return false
                    }
                    registry.detachedInstrumented.append(WeakOperation(operation: operation))
                }
                return (id, false)
            }
            if let known = registry.objects[sampled: object], known.operation === operation {
                if let queue, known.queue == nil, !known.finishedReported {
                    // Known as a dependency only, now found in this queue.
                    known.queue = queue
                    registry.queues[queue]?.members.insert(object)
                    registry.unqueued.removeAll { $0 == object }
                    if readingDependencies {
                        known.dependencies = info.dependencies
                        known.dependencyObjects = dependencyObjects
                    }
                    var announced = info
                    announced.id = known.id
                    emit(.operationAdded(announced), source: source)
                }
                return (known.id, false)
            }
            if let id = registry.objects.id(of: operation) { return (id, false) }
            let id = allocateOperationID()
            var announced = info
            announced.id = id
            emit(.operationAdded(announced), source: source)
            let entry = SampledEntry(id: id, operation: operation, queue: queue, keys: keys)
            entry.startedReported = keys.isExecuting
            entry.dependencies = info.dependencies
            entry.dependencyObjects = dependencyObjects
            entry.dependenciesRead = readingDependencies
            registry.objects[sampled: object] = entry
            if let queue {
                registry.queues[queue]?.members.insert(object)
            } else {
                registry.unqueued.append(object)
            }
            return (id, true)
        }
        loaded.removeAll()
        if startSampler { startSampling() }
        return id
    }

    /// Describes an operation that is in no observed queue. Reads app getters: never under a lock.
    func describeUnqueued(_ operation: Operation, id: OperationID = OperationID(0), queue: QueueID? = nil,
                          observation: ObservationMode? = nil, serial: Bool = false) -> OperationInfo {
        let declared = OperationPriority(foundation: operation.queuePriority)
        let qos = QoSClass(foundation: operation.qualityOfService)
        let instrumented = operation as? ObservableOperation
        let explicit = instrumented.map { $0.currentFlags.contains(.priorityExplicit) }
        var info = OperationInfo(
            id: id, queue: queue, name: operation.name, typeName: "",
            priority: declared,
            effectivePriority: effectivePriority(declared: declared, explicit: explicit, qos: qos, serialQueue: serial),
            priorityIsExplicit: explicit, qualityOfService: qos, isAsynchronous: operation.isAsynchronous,
            dependencies: [], observation: observation ?? (instrumented != nil ? .instrumented : .external),
            isReady: operation.isReady, isExecuting: operation.isExecuting, isCancelled: operation.isCancelled)
        info.typeNameStorage = typeNames.name(of: operation)
        return info
    }

    /// Reports `addDependency` / `removeDependency` on an instrumented operation.
    func dependencyChanged(of id: OperationID, on dependency: Operation, added: Bool) {
        guard let dependencyID = resolveDependencies([dependency]).first else { return }
        emit(added ? .dependencyAdded(operation: id, dependency: dependencyID)
                   : .dependencyRemoved(operation: id, dependency: dependencyID))
    }

    // MARK: Readiness of foreign operations

    /// A foreign operation that is not ready waits for its dependencies; its `ready` event is
    /// reported when the monitor sees the last of them finish (Foundation does the same count).
    func waitForDependencies(of id: OperationID, dependencies: [OperationID], objects: [Operation], queue: QueueID) {
        guard !dependencies.isEmpty else {
            // Not ready, yet waiting for nothing the monitor can see finish: the sampler reads
            // `isReady` for it from now on (see `reportReadiness`).
            withRegistry { $0.remaining[id] = 0 }
            return
        }
        // Publish "someone waits" before registering, and re-check the dependencies after:
        // a finish either sees the flag and releases the waiter, or happened before the re-check.
        hasWaiters.store(true, ordering: .sequentiallyConsistent)
        withRegistry { registry in
            registry.remaining[id, default: 0] += dependencies.count
            for dependency in dependencies { registry.waiters[dependency, default: []].append(id) }
        }
        var finished: [OperationID] = []
        for (index, dependency) in dependencies.enumerated() {
            if index < objects.count {
                if objects[index].isFinished { finished.append(dependency) }
            } else if !isPendingBarrier(dependency, in: queue) {
                finished.append(dependency)
            }
        }
        guard !finished.isEmpty else { return }
        let time = clock.now()
        withRegistry { registry in
            for dependency in finished {
                guard var list = registry.waiters[dependency], let slot = list.firstIndex(of: id) else { continue }
                list.remove(at: slot)
                registry.waiters[dependency] = list.isEmpty ? nil : list
                countDown(id, in: &registry, time: time, source: .exact)
            }
        }
    }

    /// Releases the operations that waited for `id`, which just finished. Registry lock held.
    func releaseWaiters(of id: OperationID, in registry: inout Registry, time: UInt64, source: EventOrigin) {
        // Both tables are empty while no operation waits for a dependency (the common case):
        // then no key is hashed, on a path that runs at every finish.
        if !registry.remaining.isEmpty { registry.remaining[id] = nil }
        guard !registry.waiters.isEmpty, let dependents = registry.waiters.removeValue(forKey: id) else { return }
        for dependent in dependents {
            countDown(dependent, in: &registry, time: time, source: source)
        }
    }

    func countDown(_ dependent: OperationID, in registry: inout Registry, time: UInt64, source: EventOrigin) {
        guard let count = registry.remaining[dependent] else { return }
        if count <= 1 {
            registry.remaining[dependent] = nil
            ring.push(MonitorEvent(time: time, origin: source, change: .ready(operation: dependent, isReady: true)))
        } else {
            registry.remaining[dependent] = count - 1
        }
    }

    private func isPendingBarrier(_ id: OperationID, in queue: QueueID) -> Bool {
        guard let observed = withRegistry({ $0.queues[queue]?.queue }) as? ObservedOperationQueue else { return false }
        return observed.pendingBarrierIDs().contains(id)
    }
}
