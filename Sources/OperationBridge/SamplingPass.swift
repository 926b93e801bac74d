import Foundation
import OperationEvents

/// One pass of the sampler over what no hook reports: foreign operations' starts and cancels,
/// tracked and reported queues (their state, and their operations by walking), operations in
/// no queue, and the forgetting of released ones. The sampler thread runs one each tick;
/// `OperationMonitor.sampleNow()` runs one on demand. Holds nothing but the core it reads into.
struct SamplingPass {
    let core: MonitorCore

    /// One whole pass: hooked operations, tracked queues, released entries, unqueued operations.
    func run() {
        sampleHookedOperations()
        sampleTrackedQueues(now: core.clock.now())
        forgetReleasedOperations()
        sampleUnqueuedOperations()
    }

    /// Forgets the entries of finished operations that have been released, in the three steps
    /// `RetiredEntries` describes: the registry lock is held to move entries, not to check them.
    /// Returns how many entries it looked at.
    @discardableResult
    func forgetReleasedOperations(budget: Int = 16_384) -> Int {
        let batch = core.withRegistry { $0.retired.take(budget: budget) }
        guard !batch.isEmpty else { return 0 }
        let sorted = RetiredEntries.sort(batch)
        var next = 0
        repeat {
            next = core.withRegistry { registry in registry.retired.settle(sorted, from: next, objects: &registry.objects) }
        } while next < sorted.released.count
        return batch.count
    }

    private struct Probe {
        let entry: SamplingWindow.Entry
        let operation: Operation
        let unstarted: Bool
        let knownDependencyCount: Int
    }

    private struct Reading {
        var executing = false
        var cancelled = false
        var finished = false
        /// `isReady`, read for operations not yet started.
        var ready = true
        /// `queuePriority`, read for operations not yet started.
        var priority: OperationPriority?
        var dependencies: [OperationID]?
        var dependencyObjects: [Operation] = []
    }

    /// Foreign operations of observed queues: their start and any cancel the app made directly
    /// can only be read. Each tick reads the operations seen executing and, per queue, the next
    /// `samplingWindow` not-yet-started ones in the queue's own scheduling order.
    func sampleHookedOperations() {
        let probes = collectProbes()
        guard !probes.isEmpty else { return }
        // Reads may run app getters: no lock held.
        var readings: [Reading] = []
        readings.reserveCapacity(probes.count)
        for probe in probes {
            var reading = Reading()
            reading.cancelled = probe.operation.isCancelled
            reading.finished = probe.operation.isFinished
            // Before `isExecuting`: an operation that starts in between is then seen executing,
            // and a readiness read as it started (some overrides turn false) is not used.
            if probe.unstarted {
                reading.ready = probe.operation.isReady
                reading.priority = OperationPriority(foundation: probe.operation.queuePriority)
            }
            reading.executing = probe.operation.isExecuting
            if probe.unstarted, !reading.executing {
                let objects = probe.operation.dependencies
                if objects.count != probe.knownDependencyCount {
                    reading.dependencies = core.resolveDependencies(objects)
                    reading.dependencyObjects = objects
                }
            }
            readings.append(reading)
        }
        let time = core.clock.now()
        var newWaits: [(OperationID, [OperationID], [Operation], QueueID)] = []
        core.withRegistry { registry in
            for (probe, reading) in zip(probes, readings) {
                // A probe whose operation finished meanwhile is skipped: nothing is reported after a finish.
                guard registry.isCurrent(probe.entry) else { continue }
                let sentinel = probe.entry.sentinel
                let id = probe.entry.id
                // A cancel first: the readiness it causes, and a start it allows, follow it.
                if reading.cancelled, !sentinel.seenCancelled {
                    sentinel.seenCancelled = true
                    core.push(.cancelled(operation: id), time: time, source: .sampled)
                    if registry.remaining.removeValue(forKey: id) != nil {
                        core.push(.ready(operation: id, isReady: true), time: time, source: .sampled)
                    }
                }
                // A priority set after the add: Foundation schedules by it from then on (an
                // explicit priority is the effective one, on a serial queue too).
                if let priority = reading.priority, priority != sentinel.declaredPriority, !reading.executing,
                   !reading.finished, !sentinel.seenStarted {
                    sentinel.declaredPriority = priority
                    sentinel.effectivePriority = priority
                    core.push(.priorityChanged(operation: id, priority: priority, effective: priority), time: time, source: .sampled)
                }
                if reading.executing, !sentinel.seenStarted {
                    sentinel.seenStarted = true
                    // A start proves the operation became ready. One that waited on a condition of
                    // its own and told its queue (didChangeValue(forKey: "isReady")) is started at
                    // once, before a reading could see it ready: Linux gives OpScope no notice of
                    // that, so the change is reported here, inferred, as the finish does.
                    if !reading.cancelled, registry.remaining.removeValue(forKey: id) != nil {
                        core.push(.ready(operation: id, isReady: true), time: time, source: .inferred)
                    }
                    core.push(.started(operation: id), time: time, source: .sampled)
                    registry.windows[sentinel.queue]?.executing.append(probe.entry)
                }
                if reading.finished {
                    sentinel.unsignalledTicks += 1
                    // Two readings in a row: a finish Foundation is processing right now is not flagged.
                    if sentinel.unsignalledTicks >= 2, !sentinel.seenUnsignalledFinish {
                        sentinel.seenUnsignalledFinish = true
                        core.push(.unsignalledFinish(operation: id), time: time, source: .sampled)
                    }
                } else {
                    sentinel.unsignalledTicks = 0
                }
                var waitsForAdded = false
                if let now = reading.dependencies, now != sentinel.knownDependencies {
                    let added = now.filter { !sentinel.knownDependencies.contains($0) }
                    for dependency in added {
                        core.push(.dependencyAdded(operation: id, dependency: dependency), time: time, source: .sampled)
                    }
                    for dependency in sentinel.knownDependencies where !now.contains(dependency) {
                        core.push(.dependencyRemoved(operation: id, dependency: dependency), time: time, source: .sampled)
                        stopWaiting(id, for: dependency, in: &registry)
                    }
                    sentinel.knownDependencies = now
                    if !added.isEmpty, !sentinel.seenCancelled {
                        if registry.remaining[id] == nil {
                            core.push(.ready(operation: id, isReady: false), time: time, source: .sampled)
                        }
                        let objects = reading.dependencyObjects.filter { object in
                            added.contains(resolvedID(of: object, in: registry) ?? OperationID(0))
                        }
                        newWaits.append((id, added, objects, sentinel.queue))
                        waitsForAdded = true
                    }
                }
                if probe.unstarted, !reading.executing, !reading.finished, !sentinel.seenCancelled, !waitsForAdded {
                    reportReadiness(reading.ready, of: id, in: &registry, time: time)
                }
            }
        }
        for (id, dependencies, objects, queue) in newWaits {
            core.waitForDependencies(of: id, dependencies: dependencies, objects: objects, queue: queue)
        }
    }

    /// A dependency was removed: the operation no longer waits for its finish. Its readiness is
    /// not assumed: Foundation leaves an operation whose unfinished dependency was removed not
    /// ready for good, so it is whatever `isReady` says (see `reportReadiness`). Registry lock held.
    private func stopWaiting(_ id: OperationID, for dependency: OperationID, in registry: inout Registry) {
        guard var list = registry.waiters[dependency], let slot = list.firstIndex(of: id) else { return }
        list.remove(at: slot)
        registry.waiters[dependency] = list.isEmpty ? nil : list
        if let count = registry.remaining[id] { registry.remaining[id] = max(0, count - 1) }
    }

    /// Readiness no awaited finish explains, from `isReady` (Foundation's truth): an operation
    /// that waits for no dependency the monitor knows of (`remaining` nil or 0) but is not ready
    /// (an unfinished dependency removed, an override), or that became ready again. Operations
    /// still waiting for a dependency's finish are reported when it finishes. Registry lock held.
    private func reportReadiness(_ ready: Bool, of id: OperationID, in registry: inout Registry, time: UInt64) {
        switch registry.remaining[id] {
        case nil where !ready:
            registry.remaining[id] = 0
            core.push(.ready(operation: id, isReady: false), time: time, source: .sampled)
        case 0? where ready:
            registry.remaining[id] = nil
            core.push(.ready(operation: id, isReady: true), time: time, source: .sampled)
        default:
            break
        }
    }

    /// Under the registry lock: the probes for this tick, targets retained (they are alive while current).
    private func collectProbes() -> [Probe] {
        let budget = max(1, core.configuration.samplingWindow)
        return core.withRegistry { registry in
            var probes: [Probe] = []
            for queue in Array(registry.windows.keys) {
                guard var window = registry.windows.removeValue(forKey: queue) else { continue }
                window.executing.removeAll { !registry.isCurrent($0) }
                for entry in window.executing {
                    probes.append(Probe(entry: entry, operation: entry.target.takeUnretainedValue(),
                                        unstarted: false, knownDependencyCount: 0))
                }
                var remaining = budget
                var scanned = 0
                for index in window.lists.indices where remaining > 0 {
                    while let first = window.lists[index].first,
                          !registry.isCurrent(first) || first.sentinel.seenStarted {
                        window.lists[index].removeFirst()
                    }
                    for entry in window.lists[index] {
                        if remaining == 0 || scanned >= budget * 8 { break }
                        scanned += 1
                        guard registry.isCurrent(entry), !entry.sentinel.seenStarted else { continue }
                        probes.append(Probe(entry: entry, operation: entry.target.takeUnretainedValue(), unstarted: true,
                                            knownDependencyCount: entry.sentinel.knownDependencies.count))
                        remaining -= 1
                    }
                }
                if !window.isEmpty { registry.windows[queue] = window }
            }
            return probes
        }
    }

    /// The id the registry knows for an operation. Registry lock held.
    func resolvedID(of operation: Operation, in registry: Registry) -> OperationID? {
        if let instrumented = operation as? ObservableOperation { return instrumented.monitorID }
        return registry.objects.id(of: operation)
    }

    /// Tracked and reported queues: their state every tick; their operations by walking
    /// `operations`, as often as the walk's measured cost allows (`trackedWalkBudget` of one
    /// core), so a deep queue is never walked on every tick. A reported queue's walk finds only
    /// what the program did not report.
    func sampleTrackedQueues(now: UInt64) {
        let tracked = core.withRegistry { registry in
            registry.queues.values.filter { $0.observation != .observed }.map { ($0, $0.queue) }
        }
        for (entry, queue) in tracked {
            guard let queue else {
                queueVanished(entry)
                continue
            }
            let info = MonitorCore.readQueueInfo(queue, id: entry.id)
            let walkDue = core.withRegistry { _ -> Bool in
                reportQueueChanges(entry, info)
                return now >= entry.nextWalk
            }
            if walkDue { walk(entry, queue) }
        }
    }

    /// See `OperationMonitor.queueDidChange(_:)`.
    func queueDidChange(_ queue: OperationQueue) {
        guard !(queue is ObservedOperationQueue) else { return }
        let info = MonitorCore.readQueueInfo(queue, id: QueueID(0))
        core.withRegistry { registry in
            guard let entry = registry.entry(of: queue), entry.observation != .observed else { return }
            reportQueueChanges(entry, info, source: .exact)
        }
    }

    /// Reports what changed in a tracked queue's state since the last reading. Registry lock held.
    func reportQueueChanges(_ entry: QueueEntry, _ info: QueueInfo, source: EventOrigin = .sampled) {
        let old = entry.info
        let id = entry.id
        if info.isSuspended != old.isSuspended {
            core.emit(.queueSuspended(queue: id, suspended: info.isSuspended), source: source)
        }
        if info.maxConcurrentOperationCount != old.maxConcurrentOperationCount {
            core.emit(.queueMaxConcurrency(queue: id, count: info.maxConcurrentOperationCount), source: source)
        }
        if info.name != old.name { core.emit(.queueRenamed(queue: id, name: info.name), source: source) }
        if info.qualityOfService != old.qualityOfService {
            core.emit(.queueQualityOfService(queue: id, qos: info.qualityOfService), source: source)
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
        let started = core.clock.now()
        let members = queue.operations
        let registrations = max(1, core.configuration.samplingWindow * 16)
        let reads = max(1, core.configuration.samplingWindow * 4)
        var present = Set<ObjectIdentifier>(minimumCapacity: members.count)
        for member in members { present.insert(ObjectIdentifier(member)) }
        let (unknown, known) = core.withRegistry { registry -> ([Operation], [(SampledEntry, Operation)]) in
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
        let time = core.clock.now()
        core.withRegistry { registry in
            for object in entry.members where !present.contains(object) {
                entry.members.remove(object)
                guard let sampled = registry.objects[sampled: object] else { continue }
                finishSampled(sampled, cancelled: sampled.keys.isCancelled, in: &registry, time: time, source: .sampled)
                registry.retired.file(sampled, for: object)
            }
        }
        for member in unknown { core.registerSampled(member, queue: entry.id, source: .sampled, readingDependencies: true) }
        let readings = readSampled(known)
        let readTime = core.clock.now()
        core.withRegistry { registry in
            for ((sampled, member), reading) in zip(known, readings) {
                guard registry.objects[sampled: ObjectIdentifier(member)] === sampled else { continue }
                apply(reading, to: sampled, in: &registry, time: readTime, walked: true)
            }
            if members.count != entry.depth {
                entry.depth = members.count
                core.push(.queueDepth(queue: entry.id, operations: members.count), time: readTime, source: .sampled)
            }
            let cost = core.clock.now() &- started
            let interval = UInt64(max(0.001, samplingIntervalSeconds) * 1e9)
            let budgeted = UInt64(Double(cost) / max(0.0001, core.configuration.trackedWalkBudget))
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
                reading.dependencies = (core.resolveDependencies(dependencies), objects)
            }
            return reading
        }
    }

    private var samplingIntervalSeconds: Double {
        let parts = core.configuration.samplingInterval.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// A tracked queue was released: its operations had all finished (pending ones retain it).
    private func queueVanished(_ entry: QueueEntry) {
        let time = core.clock.now()
        core.withRegistry { registry in
            guard registry.forget(entry.id) != nil else { return }
            for object in entry.members {
                // An operation with no entry has nothing to forget.
                guard let sampled = registry.objects[sampled: object] else { continue }
                finishSampled(sampled, cancelled: sampled.keys.isCancelled, in: &registry, time: time, source: .inferred)
                registry.retired.file(sampled, for: object)
            }
            entry.members.removeAll()
            core.push(.queueReleased(queue: entry.id), time: time, source: .sampled)
        }
    }

    /// Operations in no queue (dependencies only): read every tick; also forgets released ones.
    func sampleUnqueuedOperations() {
        // Every operation loaded from a weak reference is released after the lock: the load
        // retains it, and when the app let go of it meanwhile, that release runs its deinit
        // (app code, which may reach the monitor).
        var loaded: [Operation] = []
        let probes: [(SampledEntry, Operation)] = core.withRegistry { registry in
            var probes: [(SampledEntry, Operation)] = []
            var keep: [ObjectIdentifier] = []
            for object in registry.unqueued {
                guard let entry = registry.objects[sampled: object], entry.queue == nil else { continue }
                guard let operation = entry.operation else {
                    if !entry.finishedReported { core.emit(.released(operation: entry.id), source: .sampled) }
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
        let time = core.clock.now()
        core.withRegistry { registry in
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
                    core.push(.dependencyAdded(operation: entry.id, dependency: dependency), time: time, source: .sampled)
                }
                for dependency in entry.dependencies where !dependencies.contains(dependency) {
                    core.push(.dependencyRemoved(operation: entry.id, dependency: dependency), time: time, source: .sampled)
                }
                entry.dependencies = dependencies
            }
            entry.dependencyObjects = objects
            entry.dependenciesRead = true
        }
        if keys.isCancelled, !old.isCancelled {
            core.push(.cancelled(operation: entry.id), time: time, source: .sampled)
        }
        if keys.isExecuting, !entry.startedReported {
            entry.startedReported = true
            core.push(.started(operation: entry.id), time: time, source: .sampled)
        }
        if !keys.isExecuting, !keys.isFinished, keys.isReady != old.isReady {
            core.push(.ready(operation: entry.id, isReady: keys.isReady), time: time, source: .sampled)
        }
        // A priority set after the add: Foundation moves the operation to that priority's list
        // (an explicit priority is also the effective one, on a serial queue too).
        if !keys.isExecuting, !keys.isFinished, !entry.startedReported, keys.priority != old.priority {
            core.push(.priorityChanged(operation: entry.id, priority: keys.priority, effective: keys.priority), time: time, source: .sampled)
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
                core.push(.unsignalledFinish(operation: entry.id), time: time, source: .sampled)
            }
        }
    }

    /// Reports a sampled operation's finish once. Registry lock held.
    private func finishSampled(_ entry: SampledEntry, cancelled: Bool, in registry: inout Registry, time: UInt64, source: EventOrigin) {
        guard !entry.finishedReported else { return }
        entry.finishedReported = true
        if !entry.startedReported, !cancelled {
            core.push(.started(operation: entry.id), time: time, source: .inferred)
        }
        core.push(.finished(operation: entry.id, cancelled: cancelled), time: time, source: source)
        core.releaseWaiters(of: entry.id, in: &registry, time: time, source: source)
    }
}

/// One reading of a sampled operation: its keys, and its dependencies when they changed.
struct SampledReading {
    var keys: SampledKeys
    /// Resolved ids and the objects' identities, when they differ from the last reading.
    var dependencies: ([OperationID], [ObjectIdentifier])?
}
