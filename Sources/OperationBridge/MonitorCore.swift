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

    // MARK: Commands

    /// The work catalog's templates, with the ids of their queues.
    var workTemplates: [WorkTemplateInfo] {
        catalog.listing { queueID(of: $0) }
    }

    func queueID(of queue: OperationQueue) -> QueueID? {
        if let observed = queue as? ObservedOperationQueue, observed.core === self { return observed.queueID }
        return withRegistry { registry in registry.entry(of: queue)?.id }
    }

    // MARK: Operations added

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

    // MARK: Finishes and cancels

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

    // MARK: Dependencies and operations the hooks do not see

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

    // MARK: Queues

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
