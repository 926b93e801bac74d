import Foundation
@testable import OperationBridge
import OperationEvents
import Synchronization
import Testing

@Suite("Event buffer and re-synchronisation", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct BufferTests {
    private func event(_ index: Int) -> MonitorEvent {
        MonitorEvent(time: UInt64(index), change: .started(operation: OperationID(index)))
    }

    @Test("a full buffer drops and counts; sequence numbers stay contiguous for accepted events")
    func overflow() {
        let ring = EventRing(minimumCapacity: 16)
        #expect(ring.capacity == 16)
        var accepted = 0
        for index in 0..<20 where ring.push(event(index)) { accepted += 1 }
        #expect(accepted == 16)
        #expect(ring.droppedCount == 4)
        let first = ring.drain(limit: 10)
        #expect(first.map(\.sequence) == Array(0..<10).map(UInt64.init))
        #expect(first.map(\.change.operation) == (0..<10).map { OperationID($0) })
        #expect(ring.push(event(100)))
        let rest = ring.drain(limit: .max)
        #expect(rest.map(\.sequence) == Array(10...16).map(UInt64.init))
        #expect(ring.drain(limit: .max).isEmpty)
    }

    @Test("producers past the pressure position call onPressure; one that finds the buffer full lets it make room before dropping")
    func pressure() {
        let ring = EventRing(minimumCapacity: 16)
        let calls = Mutex(0)
        let drainsLeft = Mutex(0)
        ring.onPressure = { [unowned ring] in
            calls.withLock { $0 += 1 }
            let drains = drainsLeft.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if drains { ring.drain(limit: 4) { _ in } }
        }
        ring.pressure(from: 12)
        for index in 0..<12 { ring.push(event(index)) }
        #expect(calls.withLock { $0 } == 0)
        for index in 12..<16 { ring.push(event(index)) }
        #expect(calls.withLock { $0 } == 4, "positions 12 to 15")
        // Full: the producer's call drains four, so its event goes in.
        drainsLeft.withLock { $0 = 1 }
        #expect(ring.push(event(16)))
        #expect(ring.droppedCount == 0)
        #expect(calls.withLock { $0 } == 6, "once for the full ring, once for position 16")
        // Full again and nothing makes room: one call, then the drop.
        for index in 17..<20 { ring.push(event(index)) }
        let before = calls.withLock { $0 }
        #expect(!ring.push(event(20)))
        #expect(ring.droppedCount == 1)
        #expect(calls.withLock { $0 } == before + 1)
        #expect(ring.drain(limit: .max).map(\.sequence) == Array(4...19).map(UInt64.init))
    }

    @Test("many producers and one consumer: nothing lost silently, order kept per producer")
    func concurrentProducers() {
        let ring = EventRing(minimumCapacity: 1024)
        let producers = 4
        let perProducer = 20_000
        let done = DispatchGroup()
        for producer in 0..<producers {
            DispatchQueue.global().async(group: done) {
                for index in 0..<perProducer {
                    ring.push(MonitorEvent(time: UInt64(index), change: .started(operation: OperationID(producer))))
                }
            }
        }
        var received: [MonitorEvent] = []
        while done.wait(timeout: .now()) == .timedOut {
            received += ring.drain(limit: 512)
        }
        received += ring.drain(limit: .max)
        #expect(received.count + ring.droppedCount == producers * perProducer)
        let sequences = received.map(\.sequence)
        #expect(sequences == sequences.sorted())
        #expect(Set(sequences).count == sequences.count)
        for producer in 0..<producers {
            let times = received.filter { $0.change.operation == OperationID(producer) }.map(\.time)
            #expect(times == times.sorted(), "producer \(producer) out of order")
        }
    }

    @Test("after drops, a snapshot holds every live queue and unfinished operation")
    func resyncFromSnapshot() throws {
        var configuration = OperationMonitor.Configuration()
        configuration.bufferCapacity = 16
        // The hub runs only when this test reads, so the 16 slots surely overflow (its thread,
        // woken by the producers, could otherwise keep up on some machines and drop nothing).
        configuration.pumpsAutomatically = false
        configuration.samplesAutomatically = false
        let monitor = OperationMonitor(configuration: configuration)
        let queue = ObservedOperationQueue(monitor: monitor, name: "busy", maxConcurrentOperationCount: 2)
        queue.isSuspended = true
        let instrumented = (0..<50).map { _ in ObservableBlockOperation {} }
        let foreign = (0..<50).map { _ in BlockOperation {} }
        for (a, b) in zip(instrumented, foreign) { b.addDependency(a) }
        queue.addOperations(instrumented + foreign, waitUntilFinished: false)
        let barrierRan = Recorder<Int>()
        queue.addBarrierBlock { barrierRan.append(1) }
        let batch = monitor.drainEvents()
        #expect(batch.droppedTotal > 0)

        let snapshot = monitor.snapshot()
        #expect(snapshot.droppedEvents == batch.droppedTotal)
        #expect(snapshot.queues == [QueueInfo(id: queue.queueID, name: "busy", maxConcurrentOperationCount: 2, isSuspended: true)])
        #expect(snapshot.operations.count == 101)
        let byID = Dictionary(uniqueKeysWithValues: snapshot.operations.map { ($0.id, $0) })
        for (a, b) in zip(instrumented, foreign) {
            let aID = try #require(a.monitorID)
            let bInfo = try #require(snapshot.operations.first { $0.dependencies.first == aID && !$0.isBarrier })
            #expect(bInfo.observation == .hooked && !bInfo.isReady)
            #expect(byID[aID]?.observation == .instrumented && byID[aID]?.isReady == true)
        }
        let barrier = try #require(snapshot.operations.last)
        #expect(barrier.isBarrier && barrier.effectivePriority == .barrier)
        // Events drained after the snapshot carry sequence numbers at or beyond it.
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        let later = monitor.drainEvents()
        #expect(later.events.allSatisfy { $0.sequence >= snapshot.sequence })
        #expect(barrierRan.all == [1])
        #expect(monitor.snapshot().operations.isEmpty)
    }

    @Test("events are Codable: they round-trip through JSON")
    func codable() throws {
        let events = [
            MonitorEvent(sequence: 3, time: 42, origin: .sampled, change: .started(operation: OperationID(7))),
            MonitorEvent(time: 43, change: .operationAdded(OperationInfo(
                id: OperationID(8), queue: QueueID(1), name: "parse", typeName: "ParseOperation",
                priority: .high, effectivePriority: .high, qualityOfService: .utility,
                dependencies: [OperationID(7)], observation: .hooked))),
            MonitorEvent(time: 44, change: .finished(operation: OperationID(7), cancelled: true)),
            MonitorEvent(time: 45, change: .queueAppeared(QueueInfo(id: QueueID(1), name: "net", isMainQueue: false))),
        ]
        let data = try JSONEncoder().encode(events)
        let decoded = try JSONDecoder().decode([MonitorEvent].self, from: data)
        #expect(decoded == events)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"effectivePriority\":\"high\""))
        #expect(text.contains("\"qualityOfService\":\"utility\""))
    }
}

@Suite("Lifetimes: the monitor never keeps anything alive", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct LifetimeTests {
    @Test("monitor, queues, sentinels and the sampler thread all go away with the app's references")
    func nothingLeaks() {
        weak var weakMonitor: OperationMonitor?
        weak var weakQueue: ObservedOperationQueue?
        weak var weakTracked: OperationQueue?
        let counter = DeinitCounter()
        do {
            let monitor = OperationMonitor()
            weakMonitor = monitor
            let queue = ObservedOperationQueue(monitor: monitor, name: "scoped")
            weakQueue = queue
            let tracked = OperationQueue()
            weakTracked = tracked
            monitor.track(tracked)
            for _ in 0..<200 {
                queue.addOperation(CountedBlockOperation(counter: counter) {})
                queue.addOperation(CountedObservableOperation(counter: counter))
                tracked.addOperation(UserSyncOperation(counter: counter))
            }
            try? monitor.catalog.register("job", summary: "", queue: queue) { _ in BlockOperation {} }
            queue.waitUntilAllOperationsAreFinished()
            tracked.waitUntilAllOperationsAreFinished()
            monitor.sampleNow()
            _ = monitor.drainEvents()
        }
        #expect(waitUntil { counter.value == 600 }, "operations released: \(counter.value)")
        #expect(waitUntil { weakQueue == nil }, "the observed queue was kept alive")
        #expect(waitUntil { weakTracked == nil }, "the tracked queue was kept alive")
        #expect(waitUntil { weakMonitor == nil }, "the monitor was kept alive")
    }

    @Test("pooled sentinels are reused and bounded")
    func sentinelPool() {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "pool")
        for _ in 0..<5 {
            queue.addOperations((0..<500).map { _ in BlockOperation {} }, waitUntilFinished: true)
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(waitUntil { monitor.core.withRegistry { $0.objects.hookedCount == 0 } })
        let idle = monitor.core.sentinelPool.idleCount
        #expect(idle >= 1 && idle <= 4096)
    }
}
