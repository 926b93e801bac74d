import Foundation
import OperationBridge
import OperationEvents
import Testing

@Suite("Event accuracy", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct EventAccuracyTests {
    @Test("ids are numbered without gaps, also when an operation was first seen as a dependency (a cycle)")
    func idsWithoutGaps() {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "cycle")
        queue.isSuspended = true
        let (f, g, h) = (BlockOperation {}, BlockOperation {}, BlockOperation {})
        (f.name, g.name, h.name) = ("f", "g", "h")
        f.addDependency(g)
        g.addDependency(f)
        queue.addOperations([f, g, h], waitUntilFinished: false)
        log.drain()
        let ids = log.added.values.sorted { $0.id < $1.id }
        #expect(ids.map(\.id.rawValue) == Array(ids[0].id.rawValue...(ids[0].id.rawValue + 2)), "\(ids.map { ($0.id, $0.name) })")
        #expect(Set(ids.map(\.name)) == ["f", "g", "h"])
        // The cycle never runs: cancelling it lets the queue finish.
        for operation in [f, g, h] {
            for dependency in operation.dependencies { operation.removeDependency(dependency) }
            operation.cancel()
        }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("one added and one finished event per operation, start before finish, flags and ids right",
          arguments: Flavor.allCases)
    func accuracy(flavor: Flavor) throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let counter = DeinitCounter()
        let total = 120
        var cancelledIndices = Set<Int>()
        do {
            let queue = ObservedOperationQueue(monitor: monitor, name: "accuracy", maxConcurrentOperationCount: 4)
            queue.isSuspended = true
            var operations: [Operation?] = []
            for index in 0..<total {
                // Every operation after the third depends on the one three before (blocks cannot).
                let dependencies = flavor == .queueBlock || index < 3 ? [] : [operations[index - 3]].compactMap { $0 }
                operations.append(flavor.add(to: queue, counter: counter, dependencies: dependencies) { usleep(50) })
            }
            if flavor != .queueBlock {
                for index in stride(from: 5, to: total, by: 7) {
                    operations[index]?.cancel()
                    cancelledIndices.insert(index)
                }
            }
            queue.isSuspended = false
            queue.settle()
            operations.removeAll()
        }
        // Everything is released once finished: the monitor keeps nothing alive.
        #expect(waitUntil { counter.value == total }, "released \(counter.value) of \(total)")
        #expect(log.waitForFinish(of: log.addedOrder))

        let ids = log.addedOrder
        try #require(ids.count == total)
        let added = log.added
        for (index, id) in ids.enumerated() {
            #expect(log.count(id, where: \.isAdded) == 1, "\(id) added events")
            #expect(log.count(id, where: \.isFinished) == 1, "\(id) finished events")
            let cancelled = cancelledIndices.contains(index)
            #expect(log.wasCancelledAtFinish(id) == cancelled, "\(id) cancelled flag")
            if cancelled {
                #expect(log.count(id, where: \.isCancelled) == 1, "\(id) cancelled event")
            } else {
                let start = try #require(log.started(id), "\(id) has no start")
                let finish = try #require(log.finished(id))
                #expect(start.sequence < finish.sequence)
                #expect(start.time <= finish.time)
                if flavor.startIsExact { #expect(start.origin == .exact) }
            }
            let expectedDependencies = flavor == .queueBlock || index < 3 ? [] : [ids[index - 3]]
            #expect(added[id]?.dependencies == expectedDependencies, "\(id) dependencies")
            #expect(added[id]?.observation == (flavor.isInstrumented ? .instrumented : .hooked))
        }
        // Nothing is reported about released operations, even after more sampling.
        let seen = log.events.count
        monitor.sampleNow()
        monitor.sampleNow()
        log.drain()
        let late = log.events[seen...].filter { $0.change.operation.map(ids.contains) ?? false }
        #expect(late.isEmpty, "events after release: \(late)")
    }

    @Test("readiness: a dependent becomes ready right after its last dependency finishes",
          arguments: [Flavor.blockOperation, .observableSync, .stateEnumAsync])
    func readiness(flavor: Flavor) throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let counter = DeinitCounter()
        let queue = ObservedOperationQueue(monitor: monitor, name: "ready")
        let entered = Signal()
        let gate = Signal()
        let first = try #require(flavor.add(to: queue, counter: counter, dependencies: []) { entered.give(); gate.wait() })
        let second = try #require(flavor.add(to: queue, counter: counter, dependencies: []) {})
        let dependent = try #require(flavor.add(to: queue, counter: counter, dependencies: [first, second]) {})
        _ = dependent
        // The dependent now waits for the first alone: it runs, held by the gate; the second finished.
        #expect(entered.wait())
        #expect(waitUntil { second.isFinished })
        gate.give()
        queue.settle()
        #expect(log.waitForFinish(of: log.addedOrder))
        let ids = log.addedOrder
        try #require(ids.count == 3)
        #expect(log.added[ids[2]]?.isReady == false)
        let readyEvents = log.events(for: ids[2]).filter {
            if case .ready(_, true) = $0.change { true } else { false }
        }
        #expect(readyEvents.count == 1)
        let ready = try #require(readyEvents.first)
        let start = try #require(log.started(ids[2]))
        #expect(ready.sequence < start.sequence)
        let firstFinish = try #require(log.finished(ids[0]))
        // Causal order: the dependency's finish comes first in the stream, whatever the threads
        // did (Foundation walks a finished operation's dependents in hash-set order, and the
        // hidden dependent reporting a foreign finish may be asked after the dependent ran).
        #expect(firstFinish.sequence < ready.sequence)
        if flavor.isInstrumented {
            #expect(ready.origin == .exact)
        } else {
            // Released by the finish the monitor saw, or inferred when the dependent finished first.
            #expect(ready.origin == .exact || ready.origin == .inferred)
        }
    }

    @Test("blocks added with addOperation(_:) stay BlockOperations, are reported once, their start exact")
    func blockPathReportedOnce() {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "blocks", qualityOfService: .utility)
        queue.isSuspended = true
        for _ in 0..<20 { queue.addOperation {} }
        // What the program can see of them is what Foundation would have made.
        let waiting = queue.operations
        #expect(waiting.count == 20)
        #expect(waiting.allSatisfy { type(of: $0) == BlockOperation.self && $0.qualityOfService == .utility })
        queue.isSuspended = false
        queue.addOperations([BlockOperation {}, BlockOperation {}], waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.waitForFinish(of: log.addedOrder))
        #expect(log.addedOrder.count == 22)
        #expect(Set(log.addedOrder).count == 22)
        let types = log.added.values.map(\.typeName)
        #expect(types.allSatisfy { $0 == "BlockOperation" })
        // The blocks the queue wrapped report their own start; the two added as operations are hooked.
        for id in log.addedOrder.prefix(20) {
            #expect(log.started(id)?.origin == .exact, "\(id)")
            #expect(log.added[id]?.observation == .hooked)
        }
    }

    @Test("effective priority: explicit wins; otherwise QoS, except in serial queues")
    func effectivePriority() {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let concurrent = ObservedOperationQueue(monitor: monitor, name: "concurrent")
        let serial = ObservedOperationQueue(monitor: monitor, name: "serial", maxConcurrentOperationCount: 1)
        concurrent.isSuspended = true
        serial.isSuspended = true
        func make(_ qos: QualityOfService, _ priority: Operation.QueuePriority?, instrumented: Bool) -> Operation {
            let operation: Operation = instrumented ? ObservableBlockOperation {} : BlockOperation {}
            operation.qualityOfService = qos
            if let priority { operation.queuePriority = priority }
            return operation
        }
        let cases: [(QualityOfService, Operation.QueuePriority?, OperationPriority, OperationPriority)] = [
            (.userInteractive, nil, .veryHigh, .normal),
            (.utility, nil, .low, .normal),
            (.background, .high, .high, .high),
            (.userInitiated, .veryLow, .veryLow, .veryLow),
        ]
        for instrumented in [false, true] {
            for (qos, priority, _, _) in cases {
                concurrent.addOperation(make(qos, priority, instrumented: instrumented))
                serial.addOperation(make(qos, priority, instrumented: instrumented))
            }
        }
        log.drain()
        let infos = log.addedOrder.compactMap { log.added[$0] }
        #expect(infos.count == 16)
        for (index, info) in infos.enumerated() {
            let (_, _, inConcurrent, inSerial) = cases[(index / 2) % cases.count]
            let expected = index % 2 == 0 ? inConcurrent : inSerial
            #expect(info.effectivePriority == expected, "\(info.id) \(info.qualityOfService) in \(info.queue!)")
        }
        concurrent.isSuspended = false
        serial.isSuspended = false
        concurrent.waitUntilAllOperationsAreFinished()
        serial.waitUntilAllOperationsAreFinished()
    }

    @Test("barriers: announced with their dependencies, later work depends on them, start and finish exact")
    func barriers() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "barrier")
        queue.isSuspended = true
        for _ in 0..<3 { queue.addOperation { usleep(2_000) } }
        queue.addBarrierBlock {}
        queue.addOperation {}
        log.drain()
        let ids = log.addedOrder
        try #require(ids.count == 5)
        let barrier = try #require(log.added[ids[3]])
        #expect(barrier.isBarrier)
        #expect(barrier.effectivePriority == .barrier)
        #expect(Set(barrier.dependencies) == Set(ids[0..<3]))
        #expect(log.added[ids[4]]?.dependencies == [ids[3]])
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.waitForFinish(of: ids))
        let barrierStart = try #require(log.started(ids[3]))
        #expect(ids[0..<3].allSatisfy { (log.finished($0)?.sequence ?? .max) < barrierStart.sequence })
        #expect(log.started(ids[3])?.origin == .exact)
    }

    @Test("queue state changes are reported: suspend, resume, max concurrency, name, QoS, cancel-all")
    func queueChanges() {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "state")
        let id = queue.queueID
        queue.isSuspended = true
        queue.maxConcurrentOperationCount = 2
        queue.name = "renamed"
        queue.qualityOfService = .utility
        queue.cancelAllOperations()
        queue.isSuspended = false
        log.drain()
        let changes = log.events.map(\.change)
        #expect(changes == [
            .queueAppeared(QueueInfo(id: id, name: "state")),
            .queueSuspended(queue: id, suspended: true),
            .queueMaxConcurrency(queue: id, count: 2),
            .queueRenamed(queue: id, name: "renamed"),
            .queueQualityOfService(queue: id, qos: .utility),
            .queueCancelledAll(queue: id),
            .queueSuspended(queue: id, suspended: false),
        ])
    }
}

/// Readiness read by several threads at once must end on the value Foundation holds.
@Suite("Readiness under races")
struct ReadinessRaceTests {
    @Test("a dependency finishing while its dependent is being added: the last ready event says ready")
    func lastReadyEventWins() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let fast = ObservedOperationQueue(monitor: monitor, name: "fast")
        // Suspended, so dependents stay where the race leaves them: only readiness is compared.
        let held = ObservedOperationQueue(monitor: monitor, name: "held")
        held.isSuspended = true
        var dependents: [ObservableBlockOperation] = []
        for _ in 0..<3_000 {
            let dependency = ObservableBlockOperation {}
            let dependent = ObservableBlockOperation {}
            dependent.addDependency(dependency)
            // The dependency may finish on a worker thread while the dependent is being enqueued
            // (Foundation reads its isReady on both threads).
            fast.addOperation(dependency)
            held.addOperation(dependent)
            dependents.append(dependent)
        }
        fast.waitUntilAllOperationsAreFinished()
        log.drain()
        // The last reported readiness of each operation, in event order.
        var reported: [OperationID: Bool] = [:]
        for event in log.events {
            switch event.change {
            case .operationAdded(let info): reported[info.id] = info.isReady
            case .ready(let id, let value): reported[id] = value
            default: break
            }
        }
        var wrong: [OperationID] = []
        for dependent in dependents {
            let id = try #require(dependent.monitorID)
            #expect(dependent.isReady)
            if reported[id] != true { wrong.append(id) }
        }
        #expect(wrong.isEmpty, "\(wrong.count) dependents reported not ready after their dependency finished: \(wrong.prefix(5))")
        held.cancelAllOperations()
        held.isSuspended = false
        held.waitUntilAllOperationsAreFinished()
    }
}
