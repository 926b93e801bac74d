import Foundation
import OperationEvents

extension MonitorCore {
    /// See `OperationMonitor.sampleNow()`.
    func sampleNow() {
        sampleHookedOperations()
        sampleTrackedQueues(now: clock.now())
        forgetReleasedOperations()
        sampleUnqueuedOperations()
    }

    /// Forgets the entries of finished operations that have been released, in the three steps
    /// `RetiredEntries` describes: the registry lock is held to move entries, not to check them.
    /// Returns how many entries it looked at.
    @discardableResult
    func forgetReleasedOperations(budget: Int = 16_384) -> Int {
        let batch = withRegistry { $0.retired.take(budget: budget) }
        guard !batch.isEmpty else { return 0 }
        let sorted = RetiredEntries.sort(batch)
        var next = 0
        repeat {
            next = withRegistry { registry in registry.retired.settle(sorted, from: next, objects: &registry.objects) }
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
                    reading.dependencies = resolveDependencies(objects)
                    reading.dependencyObjects = objects
                }
            }
            readings.append(reading)
        }
        let time = clock.now()
        var newWaits: [(OperationID, [OperationID], [Operation], QueueID)] = []
        withRegistry { registry in
            for (probe, reading) in zip(probes, readings) {
                // A probe whose operation finished meanwhile is skipped: nothing is reported after a finish.
                guard registry.isCurrent(probe.entry) else { continue }
                let sentinel = probe.entry.sentinel
                let id = probe.entry.id
                // A cancel first: the readiness it causes, and a start it allows, follow it.
                if reading.cancelled, !sentinel.seenCancelled {
                    sentinel.seenCancelled = true
                    push(.cancelled(operation: id), time: time, source: .sampled)
                    if registry.remaining.removeValue(forKey: id) != nil {
                        push(.ready(operation: id, isReady: true), time: time, source: .sampled)
                    }
                }
                // A priority set after the add: Foundation schedules by it from then on (an
                // explicit priority is the effective one, on a serial queue too).
                if let priority = reading.priority, priority != sentinel.declaredPriority, !reading.executing,
                   !reading.finished, !sentinel.seenStarted {
                    sentinel.declaredPriority = priority
                    sentinel.effectivePriority = priority
                    push(.priorityChanged(operation: id, priority: priority, effective: priority), time: time, source: .sampled)
                }
                if reading.executing, !sentinel.seenStarted {
                    sentinel.seenStarted = true
                    push(.started(operation: id), time: time, source: .sampled)
                    registry.windows[sentinel.queue]?.executing.append(probe.entry)
                }
                if reading.finished {
                    sentinel.unsignalledTicks += 1
                    // Two readings in a row: a finish Foundation is processing right now is not flagged.
                    if sentinel.unsignalledTicks >= 2, !sentinel.seenUnsignalledFinish {
                        sentinel.seenUnsignalledFinish = true
                        push(.unsignalledFinish(operation: id), time: time, source: .sampled)
                    }
                } else {
                    sentinel.unsignalledTicks = 0
                }
                var waitsForAdded = false
                if let now = reading.dependencies, now != sentinel.knownDependencies {
                    let added = now.filter { !sentinel.knownDependencies.contains($0) }
                    for dependency in added {
                        push(.dependencyAdded(operation: id, dependency: dependency), time: time, source: .sampled)
                    }
                    for dependency in sentinel.knownDependencies where !now.contains(dependency) {
                        push(.dependencyRemoved(operation: id, dependency: dependency), time: time, source: .sampled)
                        stopWaiting(id, for: dependency, in: &registry)
                    }
                    sentinel.knownDependencies = now
                    if !added.isEmpty, !sentinel.seenCancelled {
                        if registry.remaining[id] == nil {
                            push(.ready(operation: id, isReady: false), time: time, source: .sampled)
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
            waitForDependencies(of: id, dependencies: dependencies, objects: objects, queue: queue)
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
            push(.ready(operation: id, isReady: false), time: time, source: .sampled)
        case 0? where ready:
            registry.remaining[id] = nil
            push(.ready(operation: id, isReady: true), time: time, source: .sampled)
        default:
            break
        }
    }

    /// Under the registry lock: the probes for this tick, targets retained (they are alive while current).
    private func collectProbes() -> [Probe] {
        let budget = max(1, configuration.samplingWindow)
        return withRegistry { registry in
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
}
