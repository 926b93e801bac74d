import Foundation
@testable import OperationBridge
import OperationEvents
import Testing
import OpScopeTestSupport

/// Sampling, decided by events: every monitor here runs on a manual clock and samples only when
/// the test calls `sampleNow()`, and operations are held inside `main()` by gates.
@Suite("Sampling: tracked queues and foreign operations", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct TrackingTests {
    @Test("a queue the app created elsewhere is observed by sampling, clearly marked")
    func trackedQueue() throws {
        let clock = ManualClock()
        let monitor = OperationMonitor.manual(clock)
        let log = EventLog(monitor)
        let queue = OperationQueue()
        queue.name = "third-party"
        let id = monitor.track(queue)
        let entered = Signal()
        let gate = Signal()
        let a = BlockOperation { entered.give(); gate.wait() }
        let b = BlockOperation {}
        let c = BlockOperation {}
        c.addDependency(b)
        queue.addOperations([a, b, c], waitUntilFinished: false)
        #expect(entered.wait())
        monitor.sampleNow()
        log.drain()
        let appeared = try #require(log.events.first)
        #expect(appeared.change == .queueAppeared(QueueInfo(id: id, name: "third-party", observation: .sampled)))
        let infoA = try #require(log.added.values.first { $0.observation == .sampled && $0.isExecuting })
        #expect(infoA.queue == id)
        #expect(log.events(for: infoA.id).allSatisfy { $0.origin == .sampled })

        gate.give()
        queue.waitUntilAllOperationsAreFinished()
        queue.isSuspended = true
        // The next walk is due one sampling interval later.
        clock.advance(by: monitor.configuration.samplingInterval + .milliseconds(1))
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
        // Every reading of the clock advances it 10 µs, so a walk's measured cost grows with the
        // work it does (about a thousand registrations here), whatever the machine is doing.
        let clock = ManualClock(step: 10_000)
        let monitor = OperationMonitor.manual(clock)
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
        // Each walk is told by its events: the operations it announced (each once: an operation
        // announced twice is a fault of its own, not a second walk) and the depth it reported.
        func announcedNames(_ events: [MonitorEvent]) -> [String] {
            events.compactMap { event in
                if case .operationAdded(let info) = event.change { return info.name }
                return nil
            }
        }
        let batch = monitor.configuration.samplingWindow * 16
        monitor.sampleNow()
        let firstWalk = announcedNames(log.drain())
        #expect(firstWalk == (0..<batch).map { "op\($0)" }, "\(firstWalk.count) announced, \(Set(firstWalk).count) distinct")
        #expect(log.events.contains { $0.change == .queueDepth(queue: id, operations: 20_000) })
        let entry = try #require(monitor.core.withRegistry { $0.queues[id] })
        let nextWalk = monitor.core.withRegistry { _ in entry.nextWalk }
        let interval = UInt64(monitor.configuration.samplingInterval / .nanoseconds(1))
        #expect(nextWalk > started + interval, "the walk's cost must push the next walk past one interval")
        monitor.sampleNow()
        let early = announcedNames(log.drain())
        #expect(early.isEmpty, "walked again before its budget allowed: \(early.count) announced")
        // Once the budget allows, the next walk registers the next operations, front first.
        clock.advance(by: .nanoseconds(Int64(nextWalk) - Int64(monitor.now()) + 1))
        monitor.sampleNow()
        let secondWalk = announcedNames(log.drain())
        #expect(secondWalk == (batch..<(2 * batch)).map { "op\($0)" }, "\(secondWalk.count) announced, \(Set(secondWalk).count) distinct")
        #expect(Set(log.addedOrder).count == log.addedOrder.count, "an operation was announced twice")
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("a tracked queue's operations that leave it are finished once; those still queued are not")
    func departuresOfTrackedOperations() throws {
        let clock = ManualClock()
        let monitor = OperationMonitor.manual(clock)
        let log = EventLog(monitor)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let entered = Signal()
        let gate = Signal()
        let operations = (0..<10).map { index in
            let operation = index == 5 ? BlockOperation { entered.give(); gate.wait() } : BlockOperation {}
            operation.name = "op\(index)"
            return operation
        }
        queue.addOperations(operations, waitUntilFinished: false)
        _ = monitor.track(queue)
        monitor.sampleNow()
        log.drain()
        // The walk that registers them finds every one still queued: nothing finished.
        let ids = try operations.map { operation in
            try #require(log.added.values.first { $0.name == operation.name }?.id, "\(operation.name ?? "") not announced")
        }
        #expect(ids.allSatisfy { log.finished($0) == nil })

        // 0 to 4 run and leave the queue; 5 holds it; 6 to 9 wait behind it.
        queue.isSuspended = false
        #expect(entered.wait())
        clock.advance(by: monitor.configuration.samplingInterval + .milliseconds(1))
        monitor.sampleNow()
        log.drain()
        for (index, id) in ids.enumerated() {
            #expect(log.count(id, where: \.isFinished) == (index < 5 ? 1 : 0), "op\(index)")
        }

        gate.give()
        queue.waitUntilAllOperationsAreFinished()
        clock.advance(by: monitor.configuration.samplingInterval + .milliseconds(1))
        monitor.sampleNow()
        log.drain()
        for (index, id) in ids.enumerated() {
            #expect(log.count(id, where: \.isFinished) == 1, "op\(index)")
        }
    }

    @Test("a dependency in no queue is announced, sampled, and releases its dependent when it finishes")
    func externalDependency() throws {
        let monitor = OperationMonitor.manual(ManualClock())
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        // Suspended until the dependency's finish has been sampled, so the dependent cannot run
        // (and have its readiness inferred) first.
        queue.isSuspended = true
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
        #expect(log.added[ids[1]]?.isReady == false)
        outside.start()
        monitor.sampleNow()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == [1])
        #expect(log.waitForFinish(of: ids))
        let finish = try #require(log.finished(ids[0]))
        #expect(finish.origin == .sampled)
        let ready = try #require(log.events(for: ids[1]).first { $0.change == .ready(operation: ids[1], isReady: true) },
                                 "\(log.events.map { "\($0.sequence) \($0.origin) \($0.change)" }.joined(separator: "\n"))")
        #expect(ready.origin == .sampled)
        #expect(finish.sequence < ready.sequence)
        #expect(ready.sequence < (log.finished(ids[1])?.sequence ?? 0))
    }

    @Test("sampling sees a foreign operation start, and a cancel the app makes directly")
    func sampledStartAndCancel() throws {
        let monitor = OperationMonitor.manual(ManualClock())
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let entered = Signal()
        let stop = Signal()
        let operation = BlockOperation { entered.give(); stop.wait() }
        queue.addOperation(operation)
        #expect(entered.wait())
        monitor.sampleNow()
        operation.cancel()
        monitor.sampleNow()
        stop.give()
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
        let clock = ManualClock()
        let monitor = OperationMonitor.manual(clock)
        let log = EventLog(monitor)
        let queue: OperationQueue = observed ? ObservedOperationQueue(monitor: monitor, name: "forgetful") : OperationQueue()
        if !observed { monitor.track(queue) }
        let forgetful = ForgetfulAsyncOperation()
        let ran = Recorder<Int>()
        let dependent = BlockOperation { ran.append(1) }
        dependent.addDependency(forgetful)
        queue.addOperations([forgetful, dependent], waitUntilFinished: false)
        #expect(waitUntil { forgetful.isFinished })
        // Two readings in a row must see it (a tracked queue: two walks, one interval apart).
        for _ in 0..<3 {
            monitor.sampleNow()
            clock.advance(by: monitor.configuration.samplingInterval + .milliseconds(1))
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

    @Test("an unfinished dependency removed from a foreign operation: not ready for good, as isReady says",
          arguments: [true, false])
    func removedUnfinishedDependency(sampledBetween: Bool) throws {
        let monitor = OperationMonitor.manual(ManualClock())
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.isSuspended = true
        let waiting = BlockOperation {}
        let other = BlockOperation {}
        queue.addOperations([waiting, other], waitUntilFinished: false)
        waiting.addDependency(other)
        // Seen with its new dependency, or not at all: the add and the removal in one interval.
        if sampledBetween { monitor.sampleNow() }
        waiting.removeDependency(other)
        monitor.sampleNow()
        monitor.sampleNow()
        log.drain()
        let id = try #require(log.addedOrder.first)
        // Foundation keeps counting the removed dependency: not ready, no dependency left.
        #expect(!waiting.isReady && waiting.dependencies.isEmpty)
        let readiness = log.events(for: id).compactMap { event -> Bool? in
            if case .ready(_, let value) = event.change { value } else { nil }
        }
        #expect(readiness.last == false, "readiness reported: \(readiness)")
        #expect(!readiness.contains(true))
        if sampledBetween {
            let changes = log.events(for: id).map(\.change)
            #expect(changes.contains(.dependencyRemoved(operation: id, dependency: log.addedOrder[1])))
        }
        let info = try #require(monitor.snapshot().operations.first { $0.id == id })
        #expect(!info.isReady && info.dependencies.isEmpty)
        // Nor does the other's finish release it.
        queue.isSuspended = false
        #expect(waitUntil { other.isFinished })
        monitor.sampleNow()
        log.drain()
        #expect(!log.events(for: id).contains { $0.change == .ready(operation: id, isReady: true) })
        // The only way out is a cancel; its readiness follows it.
        waiting.cancel()
        monitor.sampleNow()
        queue.waitUntilAllOperationsAreFinished()
        log.drain()
        let tail = log.events(for: id).map(\.change).suffix(3)
        #expect(Array(tail) == [.cancelled(operation: id), .ready(operation: id, isReady: true),
                                .finished(operation: id, cancelled: true)])
    }

    @Test("the sampler rests once no foreign work is left, and new foreign work wakes it")
    func samplerRests() throws {
        var configuration = OperationMonitor.Configuration()
        configuration.samplingInterval = .milliseconds(2)
        let monitor = OperationMonitor(configuration: configuration)
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        // Foreign work: the sampler starts for it, and rests when it is done.
        queue.addOperation(BlockOperation {})
        queue.waitUntilAllOperationsAreFinished()
        #expect(waitUntil { monitor.core.sampler.isResting }, "the sampler kept ticking with nothing to sample")
        // A foreign operation's start is seen only by sampling: it is reported, so the
        // sampler woke for it.
        let entered = Signal()
        let release = Signal()
        let held = BlockOperation {
            entered.give()
            release.wait()
        }
        queue.addOperation(held)
        entered.wait()
        log.drain()
        let id = try #require(log.addedOrder.last)
        #expect(waitUntil { log.drain(); return log.started(id) != nil }, "the sampler did not wake for new foreign work")
        #expect(log.started(id)?.origin == .sampled)
        release.give()
        queue.waitUntilAllOperationsAreFinished()
        #expect(waitUntil { monitor.core.sampler.isResting })
    }

    @Test("a gate of the operation's own that it tells its queue about: isReady → true is inferred at the start")
    func toldGateReadiness() throws {
        let clock = ManualClock()
        let monitor = OperationMonitor.manual(clock)
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "sync")
        let entered = Signal()
        let hold = Signal()
        let gated = ToldGateOperation { entered.give(); hold.wait() }
        queue.addOperation(gated)
        monitor.sampleNow()
        log.drain()
        let id = try #require(log.addedOrder.first)
        #expect(log.added[id]?.isReady == false)
        // The program opens the gate and tells the queue, which starts the operation at once:
        // no reading could see it ready first.
        gated.openGate()
        #expect(entered.wait())
        monitor.sampleNow()
        hold.give()
        #expect(log.waitForFinish(of: [id]))
        let ready = log.events(for: id).filter { if case .ready(_, true) = $0.change { true } else { false } }
        #expect(ready.count == 1, "\(log.events(for: id))")
        let start = try #require(log.started(id))
        #expect(ready.first.map { $0.sequence < start.sequence && $0.origin == .inferred } == true, "\(log.events(for: id))")
    }
}

/// A plain `Operation` with a condition of its own, done right: opening the gate sends the
/// readiness notification around the change (Foundation's documented pattern).
private final class ToldGateOperation: Operation, @unchecked Sendable {
    // Safety: `open` is only touched under `lock`; `work` is immutable.
    private let lock = NSLock()
    private var open = false
    private let work: @Sendable () -> Void

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        super.init()
    }

    override var isReady: Bool { super.isReady && lock.withLock { open } }

    func openGate() {
        willChangeValue(forKey: "isReady")
        lock.withLock { open = true }
        didChangeValue(forKey: "isReady")
    }

    override func main() { work() }
}
