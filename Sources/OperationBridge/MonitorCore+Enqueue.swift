import Foundation
import OperationEvents

extension MonitorCore {
    /// Registers operations an `ObservedOperationQueue` is about to hand to Foundation.
    /// Runs before the operations can start, so nothing they do can be missed.
    /// One operation (the common path; no arrays).
    @discardableResult
    func willEnqueue(_ operation: Operation, in queue: ObservedOperationQueue) -> OperationID {
        let serial = queue.isSerial
        let barriers = queue.pendingBarrierIDs()
        if let instrumented = operation as? ObservableOperation {
            return registerInstrumented(instrumented, queue: queue.queueID, serial: serial, barriers: barriers)
        }
        return registerHooked(operation, queue: queue.queueID, serial: serial, barriers: barriers, held: queue.suspensionMark())
    }

    @discardableResult
    func willEnqueue(_ operations: [Operation], in queue: ObservedOperationQueue) -> [OperationID] {
        let serial = queue.isSerial
        let barriers = queue.pendingBarrierIDs()
        let held = queue.suspensionMark()
        return operations.map { operation in
            if let instrumented = operation as? ObservableOperation {
                registerInstrumented(instrumented, queue: queue.queueID, serial: serial, barriers: barriers)
            } else {
                registerHooked(operation, queue: queue.queueID, serial: serial, barriers: barriers, held: held)
            }
        }
    }

    /// See `OperationMonitor.willAdd(_:to:hiddenDependencies:)`: an add to a queue of a class the
    /// monitor does not own, reported by the program before it hands the operation to Foundation.
    /// Nil for an `ObservedOperationQueue` of this monitor, which reports its adds itself.
    func willAdd(_ operation: Operation, to queue: OperationQueue, hiddenDependencies: [Operation]) -> OperationID? {
        if let observed = queue as? ObservedOperationQueue, observed.core === self { return nil }
        let queueID = register(queue)
        // The app's getter (a subclass may override it): read here, under no lock.
        let serial = queue.maxConcurrentOperationCount == 1
        if let instrumented = operation as? ObservableOperation {
            return registerInstrumented(instrumented, queue: queueID, serial: serial, barriers: [],
                                        hidden: resolveDependencies(hiddenDependencies))
        }
        return registerHooked(operation, queue: queueID, serial: serial, barriers: [], held: nil, hidden: hiddenDependencies)
    }

    /// An `ObservableOperation`: it reports its own key changes; only its arrival is announced
    /// here. Everything is read from its link flags (no Foundation lock is taken).
    private func registerInstrumented(
        _ operation: ObservableOperation, queue: QueueID, serial: Bool, barriers: [OperationID], hidden: [OperationID] = []
    ) -> OperationID {
        let flags = operation.currentFlags
        let id = flags.contains(.registered) ? OperationID(operation.linkID) : allocateOperationID()
        var dependencies = flags.contains(.hasDependencies) ? resolveDependencies(operation.dependencies) : []
        dependencies += hidden
        dependencies += barriers
        let declared = OperationPriority(foundation: operation.queuePriority)
        let explicit = flags.contains(.priorityExplicit)
        let qos = flags.qualityOfService
        let effective = effectivePriority(declared: declared, explicit: explicit, qos: qos, serialQueue: serial)
        var info = OperationInfo(
            id: id, queue: queue, name: operation.name, typeName: "",
            priority: declared, effectivePriority: effective, priorityIsExplicit: explicit,
            qualityOfService: qos, isAsynchronous: operation.isAsynchronous,
            dependencies: dependencies, observation: .instrumented,
            isReady: flags.contains(.ready), isCancelled: flags.contains(.cancelSet))
        info.typeNameStorage = typeNames.name(of: operation)
        emit(.operationAdded(info))
        if !flags.contains(.registered) { operation.attach(to: self, id: id) }
        operation.register(announced: flags, adding: LinkFlags.effective(effective).union(.queued))
        return id
    }

    /// Any other operation: a pooled sentinel reports its finish exactly; the sampler watches its
    /// start. `held` marks an add to a suspended queue; `hidden` are dependencies the operation's
    /// `dependencies` does not list (a framework's conditions), as its framework reports them.
    private func registerHooked(_ operation: Operation, queue: QueueID, serial: Bool, barriers: [OperationID],
                                held: SuspensionMark?, hidden: [Operation] = []) -> OperationID {
        let object = ObjectIdentifier(operation)
        let visible = operation.dependencies
        let ownDependencies = resolveDependencies(visible)
        let hiddenIDs = resolveDependencies(hidden)
        let dependencies = ownDependencies + hiddenIDs + barriers
        let declared = OperationPriority(foundation: operation.queuePriority)
        let qos = QoSClass(foundation: operation.qualityOfService)
        let effective = effectivePriority(declared: declared, explicit: nil, qos: qos, serialQueue: serial)
        let ready = operation.isReady
        let cancelled = operation.isCancelled
        let name = operation.name
        let asynchronous = operation.isAsynchronous
        let typeName = typeNames.name(of: operation)

        // Armed before taking the lock (arming is ~0.5 us of Foundation work) and before the
        // operation is enqueued, so it cannot have finished yet.
        let sentinel = sentinelPool.take()
        // The id comes under the lock: a dependency-only operation joining a queue keeps the
        // one it has, and a number taken here would have been skipped for good.
        sentinel.arm(for: operation, monitor: self, id: OperationID(0), queue: queue)
        sentinel.effectivePriority = effective
        var wakeSampler = false
        var duplicate = false
        let id = withRegistry { registry -> OperationID in
            // The sentinel takes the operation's place in the table (one lookup). A
            // dependency-only operation now joins a queue: it keeps its id.
            switch registry.objects.fileHooked(sentinel, for: object) {
            case .sampled(let known)? where known.operation === operation:
                sentinel.id = known.id
            case .hooked(let armed)?:
                // Announced twice for one add (a queue class and its delegate both reporting):
                // the first sentinel keeps watching. (The caller holds the operation, so the
                // identifier is this operation's: a hooked entry is replaced at its finish.)
                registry.objects[hooked: object] = armed
                duplicate = true
                return armed.id
            default:
                sentinel.id = allocateOperationID()
            }
            // The sampler watches the start: started (or woken from its rest) if it is not running.
            if !registry.samplerStarted, configuration.samplesAutomatically {
                registry.samplerStarted = true
                wakeSampler = true
            }
            var info = OperationInfo(
                id: sentinel.id, queue: queue, name: name, typeName: "", priority: declared,
                effectivePriority: effective, priorityIsExplicit: nil, qualityOfService: qos,
                isAsynchronous: asynchronous, dependencies: dependencies, observation: .hooked,
                isReady: ready, isCancelled: cancelled)
            info.typeNameStorage = typeName
            emit(.operationAdded(info))
            sentinel.registryGeneration &+= 1
            sentinel.seenStarted = false
            sentinel.heldBySuspension = held
            sentinel.seenCancelled = cancelled
            sentinel.declaredPriority = declared
            sentinel.knownDependencies = ownDependencies
            sentinel.unsignalledTicks = 0
            sentinel.seenUnsignalledFinish = false
            registry.windows[queue, default: SamplingWindow()].append(
                .init(sentinel: sentinel, generation: sentinel.registryGeneration, object: object,
                      target: Unmanaged.passUnretained(operation), id: sentinel.id),
                priority: effective)
            return sentinel.id
        }
        if duplicate {
            sentinel.disarm()
            return id
        }
        if wakeSampler { sampler.start() }
        if !ready, !cancelled {
            waitForDependencies(of: id, dependencies: dependencies, objects: visible + hidden, queue: queue)
        }
        return id
    }

    /// The start of a block operation an observed queue made, from inside its block (Foundation
    /// has just made it executing): exact, and the sampler, which would see it later, does not
    /// report it again.
    func blockStarted(_ object: ObjectIdentifier) {
        let time = clock.now()
        withRegistry { registry in
            guard let sentinel = registry.objects[hooked: object], !sentinel.seenStarted else { return }
            sentinel.seenStarted = true
            push(.started(operation: sentinel.id), time: time, source: .exact)
        }
    }
}
