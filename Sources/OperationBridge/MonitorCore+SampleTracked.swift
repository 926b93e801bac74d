import Foundation
import OperationEvents

extension MonitorCore {
    /// Tracked and reported queues: their state every tick; their operations by walking
    /// `operations`, as often as the walk's measured cost allows (`trackedWalkBudget` of one
    /// core), so a deep queue is never walked on every tick. A reported queue's walk finds only
    /// what the program did not report.
    func sampleTrackedQueues(now: UInt64) {
        let tracked = withRegistry { registry in
            registry.queues.values.filter { $0.observation != .observed }.map { ($0, $0.queue) }
        }
        for (entry, queue) in tracked {
            guard let queue else {
                queueVanished(entry)
                continue
            }
            let info = Self.readQueueInfo(queue, id: entry.id)
            let walkDue = withRegistry { _ -> Bool in
                reportQueueChanges(entry, info)
                return now >= entry.nextWalk
            }
            if walkDue { walk(entry, queue) }
        }
    }

    /// See `OperationMonitor.queueDidChange(_:)`.
    func queueDidChange(_ queue: OperationQueue) {
        guard !(queue is ObservedOperationQueue) else { return }
        let info = Self.readQueueInfo(queue, id: QueueID(0))
        withRegistry { registry in
            guard let entry = registry.entry(of: queue), entry.observation != .observed else { return }
            reportQueueChanges(entry, info, source: .exact)
        }
    }

    /// Reports what changed in a tracked queue's state since the last reading. Registry lock held.
    func reportQueueChanges(_ entry: QueueEntry, _ info: QueueInfo, source: EventOrigin = .sampled) {
        let old = entry.info
        let id = entry.id
        if info.isSuspended != old.isSuspended {
            emit(.queueSuspended(queue: id, suspended: info.isSuspended), source: source)
        }
        if info.maxConcurrentOperationCount != old.maxConcurrentOperationCount {
            emit(.queueMaxConcurrency(queue: id, count: info.maxConcurrentOperationCount), source: source)
        }
        if info.name != old.name { emit(.queueRenamed(queue: id, name: info.name), source: source) }
        if info.qualityOfService != old.qualityOfService {
            emit(.queueQualityOfService(queue: id, qos: info.qualityOfService), source: source)
        }
        var updated = info
        updated.observation = old.observation
        entry.info = updated
    }

    /// One walk of a tracked queue. Bounded: at most `samplingWindow * 16` new operations are
    /// registered and `samplingWindow * 4` known ones read, front (next to run) first; the rest
    /// wait for later walks, and the queue's depth is reported so totals stay right. The whole
    /// walk's cost sets when the next one may run. Operations that left the queue are finished
    /// before the readings are reported: a dependent made ready by a finish is then told after it.
    private func walk(_ entry: QueueEntry, _ queue: OperationQueue) {
        let started = clock.now()
        let members = queue.operations
        let registrations = max(1, configuration.samplingWindow * 16)
        let reads = max(1, configuration.samplingWindow * 4)
        var present = Set<ObjectIdentifier>(minimumCapacity: members.count)
        for member in members { present.insert(ObjectIdentifier(member)) }
        let (unknown, known) = withRegistry { registry -> ([Operation], [(SampledEntry, Operation)]) in
            var unknown: [Operation] = []
            var known: [(SampledEntry, Operation)] = []
            for member in members {
                if unknown.count >= registrations, known.count >= reads { break }
                let object = ObjectIdentifier(member)
                if let instrumented = member as? ObservableOperation {
                    // Instrumented operations report themselves once registered.
                    if instrumented.monitorID == nil, unknown.count < registrations { unknown.append(member) }
                } else if registry.objects[hooked: object] != nil {
                    // Reported by the program (`OperationMonitor.willAdd`): hooked, not sampled.
                    continue
                } else if let sampled = registry.objects[sampled: object], sampled.operation === member, sampled.queue == entry.id {
                    if known.count < reads { known.append((sampled, member)) }
                } else if unknown.count < registrations {
                    // New, or known only as a dependency until now.
                    unknown.append(member)
                }
            }
            return (unknown, known)
        }
        let time = clock.now()
        withRegistry { registry in
            for object in entry.members where !present.contains(object) {
                entry.members.remove(object)
                guard let sampled = registry.objects[sampled: object] else { continue }
                finishSampled(sampled, cancelled: sampled.keys.isCancelled, in: &registry, time: time, source: .sampled)
                registry.retired.file(sampled, for: object)
            }
        }
        for member in unknown { registerSampled(member, queue: entry.id, source: .sampled, readingDependencies: true) }
        let readings = readSampled(known)
        let readTime = clock.now()
        withRegistry { registry in
            for ((sampled, member), reading) in zip(known, readings) {
                guard registry.objects[sampled: ObjectIdentifier(member)] === sampled else { continue }
                apply(reading, to: sampled, in: &registry, time: readTime, walked: true)
            }
            if members.count != entry.depth {
                entry.depth = members.count
                push(.queueDepth(queue: entry.id, operations: members.count), time: readTime, source: .sampled)
            }
            let cost = clock.now() &- started
            let interval = UInt64(max(0.001, samplingIntervalSeconds) * 1e9)
            let budgeted = UInt64(Double(cost) / max(0.0001, configuration.trackedWalkBudget))
            entry.nextWalk = readTime &+ max(interval, budgeted)
        }
    }

    /// One sampling of operations known by sampling: their keys and, while they have not
    /// started, their dependencies (resolved only when they changed since the last reading).
    /// Calls the app's getters and may register dependencies: never under a lock.
    private func readSampled(_ probes: [(SampledEntry, Operation)]) -> [SampledReading] {
        probes.map { sampled, operation in
            var reading = SampledReading(keys: SampledKeys(reading: operation))
            // Read under no lock, so possibly stale: only a hint of whether to resolve; `apply`
            // compares under the lock.
            guard !reading.keys.isExecuting, !reading.keys.isFinished, !sampled.startedReported else { return reading }
            let dependencies = operation.dependencies
            let objects = dependencies.map(ObjectIdentifier.init)
            if !sampled.dependenciesRead || objects != sampled.dependencyObjects {
                reading.dependencies = (resolveDependencies(dependencies), objects)
            }
            return reading
        }
    }

    private var samplingIntervalSeconds: Double {
        let parts = configuration.samplingInterval.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// A tracked queue was released: its operations had all finished (pending ones retain it).
    private func queueVanished(_ entry: QueueEntry) {
        let time = clock.now()
        withRegistry { registry in
            guard registry.forget(entry.id) != nil else { return }
            for object in entry.members {
                // An operation with no entry has nothing to forget.
                guard let sampled = registry.objects[sampled: object] else { continue }
                finishSampled(sampled, cancelled: sampled.keys.isCancelled, in: &registry, time: time, source: .inferred)
                registry.retired.file(sampled, for: object)
            }
            entry.members.removeAll()
            push(.queueReleased(queue: entry.id), time: time, source: .sampled)
        }
    }

    /// Operations in no queue (dependencies only): read every tick; also forgets released ones.
    func sampleUnqueuedOperations() {
        // Every operation loaded from a weak reference is released after the lock: the load
        // retains it, and when the app let go of it meanwhile, that release runs its deinit
        // (app code, which may reach the monitor).
        var loaded: [Operation] = []
        let probes: [(SampledEntry, Operation)] = withRegistry { registry in
            var probes: [(SampledEntry, Operation)] = []
            var keep: [ObjectIdentifier] = []
            for object in registry.unqueued {
                guard let entry = registry.objects[sampled: object], entry.queue == nil else { continue }
                guard let operation = entry.operation else {
                    if !entry.finishedReported { emit(.released(operation: entry.id), source: .sampled) }
                    registry.objects[sampled: object] = nil
                    continue
                }
                keep.append(object)
                if entry.finishedReported {
                    loaded.append(operation)
                } else {
                    probes.append((entry, operation))
                }
            }
            registry.unqueued = keep
            return probes
        }
        loaded.removeAll()
        guard !probes.isEmpty else { return }
        let readings = readSampled(probes)
        let time = clock.now()
        withRegistry { registry in
            for ((entry, _), reading) in zip(probes, readings) where entry.queue == nil {
                apply(reading, to: entry, in: &registry, time: time, walked: false)
            }
        }
    }

    /// Reports the differences between the last reported keys and a new reading. Registry lock held.
    private func apply(_ reading: SampledReading, to entry: SampledEntry, in registry: inout Registry, time: UInt64, walked: Bool) {
        guard !entry.finishedReported else { return }
        let keys = reading.keys
        let old = entry.keys
        // Dependencies first: a readiness read with them follows the change that explains it.
        if case let (dependencies, objects)? = reading.dependencies {
            if !entry.startedReported, dependencies != entry.dependencies {
                for dependency in dependencies where !entry.dependencies.contains(dependency) {
                    push(.dependencyAdded(operation: entry.id, dependency: dependency), time: time, source: .sampled)
                }
                for dependency in entry.dependencies where !dependencies.contains(dependency) {
                    push(.dependencyRemoved(operation: entry.id, dependency: dependency), time: time, source: .sampled)
                }
                entry.dependencies = dependencies
            }
            entry.dependencyObjects = objects
            entry.dependenciesRead = true
        }
        if keys.isCancelled, !old.isCancelled {
            push(.cancelled(operation: entry.id), time: time, source: .sampled)
        }
        if keys.isExecuting, !entry.startedReported {
            entry.startedReported = true
            push(.started(operation: entry.id), time: time, source: .sampled)
        }
        if !keys.isExecuting, !keys.isFinished, keys.isReady != old.isReady {
            push(.ready(operation: entry.id, isReady: keys.isReady), time: time, source: .sampled)
        }
        // A priority set after the add: Foundation moves the operation to that priority's list
        // (an explicit priority is also the effective one, on a serial queue too).
        if !keys.isExecuting, !keys.isFinished, !entry.startedReported, keys.priority != old.priority {
            push(.priorityChanged(operation: entry.id, priority: keys.priority, effective: keys.priority), time: time, source: .sampled)
        }
        entry.keys = keys
        guard keys.isFinished else {
            entry.unsignalledWalks = 0
            return
        }
        if entry.queue == nil {
            finishSampled(entry, cancelled: keys.isCancelled, in: &registry, time: time, source: .sampled)
        } else if walked {
            // Still in its queue with isFinished true on two walks: the queue was never told.
            entry.unsignalledWalks += 1
            if entry.unsignalledWalks >= 2, !entry.reportedUnsignalled {
                entry.reportedUnsignalled = true
                push(.unsignalledFinish(operation: entry.id), time: time, source: .sampled)
            }
        }
    }

    /// Reports a sampled operation's finish once. Registry lock held.
    private func finishSampled(_ entry: SampledEntry, cancelled: Bool, in registry: inout Registry, time: UInt64, source: EventOrigin) {
        guard !entry.finishedReported else { return }
        entry.finishedReported = true
        if !entry.startedReported, !cancelled {
            push(.started(operation: entry.id), time: time, source: .inferred)
        }
        push(.finished(operation: entry.id, cancelled: cancelled), time: time, source: source)
        releaseWaiters(of: entry.id, in: &registry, time: time, source: source)
    }
}

/// One reading of a sampled operation: its keys, and its dependencies when they changed.
struct SampledReading {
    var keys: SampledKeys
    /// Resolved ids and the objects' identities, when they differ from the last reading.
    var dependencies: ([OperationID], [ObjectIdentifier])?
}
