import Foundation
@testable import OperationBridge
import OperationEvents
import Testing

@Suite("Sampling: tracked queues and foreign operations", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct TrackingTests {
    @Test("a queue the app created elsewhere is observed by sampling, clearly marked")
    func trackedQueue() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = OperationQueue()
        queue.name = "third-party"
        let id = monitor.track(queue)
        let gate = DispatchSemaphore(value: 0)
        let a = BlockOperation { gate.wait() }
        let b = BlockOperation {}
        let c = BlockOperation {}
        c.addDependency(b)
        queue.addOperations([a, b, c], waitUntilFinished: false)
        #expect(waitUntil { a.isExecuting })
        monitor.sampleNow()
        log.drain()
        let appeared = try #require(log.events.first)
        #expect(appeared.change == .queueAppeared(QueueInfo(id: id, name: "third-party", observation: .sampled)))
        let ids = log.addedOrder
        #expect(ids.count >= 1)
        let infoA = try #require(log.added.values.first { $0.observation == .sampled && $0.isExecuting })
        #expect(infoA.queue == id)
        #expect(log.events(for: infoA.id).allSatisfy { $0.origin == .sampled })

        gate.signal()
        queue.waitUntilAllOperationsAreFinished()
        queue.isSuspended = true
        monitor.sampleNow()
        usleep(60_000)
        monitor.sampleNow()
        log.drain()
        for id in log.addedOrder {
            #expect(log.count(id, where: \.isAdded) == 1)
            #expect(log.count(id, where: \.isFinished) <= 1)
        }
        #expect(log.finished(infoA.id)?.origin == .sampled)
        #expect(log.events.contains { $0.change == .queueSuspended(queue: id, suspended: true) && $0.origin == .sampled })
    }

    @Test("a deep tracked queue: bounded work per walk, front first, depth reported, not walked every tick")
    func deepQueueWalkBudget() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = OperationQueue()
        queue.isSuspended = true
        let operations = (0..<20_000).map { index in
            let operation = BlockOperation {}
            operation.name = "op\(index)"
            return operation
        }
        queue.addOperations(operations, waitUntilFinished: false)
        let id = monitor.track(queue)
        let started = monitor.now()
        monitor.sampleNow()
        log.drain()
        let batch = monitor.configuration.samplingWindow * 16
        #expect(log.addedOrder.count == batch)
        #expect(log.addedOrder.compactMap { log.added[$0]?.name } == (0..<batch).map { "op\($0)" })
        #expect(log.events.contains { $0.change == .queueDepth(queue: id, operations: 20_000) })
        let entry = try #require(monitor.core.withRegistry { $0.queues[id] })
        let nextWalk = monitor.core.withRegistry { _ in entry.nextWalk }
        #expect(nextWalk > started + 50_000_000, "the walk's cost must push the next walk past one interval")
        monitor.sampleNow()
        log.drain()
        #expect(log.addedOrder.count == batch, "walked again too soon")
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("a dependency in no queue is announced, sampled, and releases its dependent when it finishes")
    func externalDependency() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let outside = BlockOperation {}
        let ran = Recorder<Int>()
        let dependent = BlockOperation { ran.append(1) }
        dependent.addDependency(outside)
        queue.addOperation(dependent)
        log.drain()
        let ids = log.addedOrder
        try #require(ids.count == 2)
        let external = try #require(log.added[ids[0]])
        #expect(external.queue == nil && external.observation == .external)
        #expect(log.added[ids[1]]?.dependencies == [ids[0]])
        usleep(30_000)
        #expect(ran.all.isEmpty)
        outside.start()
        monitor.sampleNow()
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == [1])
        #expect(log.waitForFinish(of: ids))
        #expect(log.finished(ids[0])?.origin == .sampled)
        let ready = try #require(log.events(for: ids[1]).first { $0.change == .ready(operation: ids[1], isReady: true) },
                                 "\(log.events.map { "\($0.sequence) \($0.origin) \($0.change)" }.joined(separator: "\n"))")
        // Seen by the sampler, or inferred when the dependent finished before the next tick.
        #expect(ready.origin != .exact)
        #expect(ready.sequence < (log.finished(ids[1])?.sequence ?? 0))
    }

    @Test("sampling sees a foreign operation start, and a cancel the app makes directly")
    func sampledStartAndCancel() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let stop = DispatchSemaphore(value: 0)
        let operation = BlockOperation { stop.wait() }
        queue.addOperation(operation)
        #expect(waitUntil { operation.isExecuting })
        monitor.sampleNow()
        operation.cancel()
        monitor.sampleNow()
        stop.signal()
        queue.waitUntilAllOperationsAreFinished()
        log.drain()
        let id = try #require(log.addedOrder.first)
        #expect(log.waitForFinish(of: [id]))
        let changes = log.events(for: id).map { "\($0.change)".prefix(10) + " \($0.origin)" }
        #expect(log.started(id)?.origin == .sampled, "\(changes)")
        #expect(log.events(for: id).first { $0.change.isCancelled }?.origin == .sampled)
        #expect(log.wasCancelledAtFinish(id) == true)
    }

    @Test("isFinished true but the queue never told: reported as an unsignalled finish",
          arguments: [true, false])
    func unsignalledFinish(observed: Bool) throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue: OperationQueue = observed ? ObservedOperationQueue(monitor: monitor, name: "forgetful") : OperationQueue()
        if !observed { monitor.track(queue) }
        let forgetful = ForgetfulAsyncOperation()
        let ran = Recorder<Int>()
        let dependent = BlockOperation { ran.append(1) }
        dependent.addDependency(forgetful)
        queue.addOperations([forgetful, dependent], waitUntilFinished: false)
        #expect(waitUntil { forgetful.isFinished })
        for _ in 0..<3 {
            monitor.sampleNow()
            usleep(60_000)
        }
        log.drain()
        #expect(queue.operationCount == 2, "Foundation still holds both")
        #expect(ran.all.isEmpty)
        let flagged = log.events.filter { if case .unsignalledFinish = $0.change { true } else { false } }
        #expect(flagged.count == 1)
        #expect(flagged.first?.origin == .sampled)
        forgetful.repair()
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == [1])
    }
}
