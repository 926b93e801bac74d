import DashboardModel
import OpScopeTestSupport
import Foundation
import OperationBridge
import OperationEvents
import Testing

@Suite("Model: scheduling order and QoS lanes", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct SchedulingTests {
    @Test("start order: barrier first, then veryHigh ... veryLow, FIFO within one priority, ready only")
    func syntheticOrder() {
        var script = EventScript()
        script.queue(1, "q", max: 1, suspended: true)
        script.add(1, queue: 1, "low", priority: .low)
        script.add(2, queue: 1, "high", priority: .high)
        script.add(3, queue: 1, "normal-a")
        script.add(4, queue: 1, "waiting", after: [9], priority: .veryHigh)
        script.add(5, queue: 1, "normal-b")
        script.add(6, queue: 1, "barrier", barrier: true, observation: .instrumented)
        script.add(7, queue: 1, "veryHigh", priority: .veryHigh)
        var model = script.model()
        #expect(model.startOrder(of: QueueID(1)) == [6, 7, 2, 3, 5, 1])
        #expect(model.startOrder(of: QueueID(1), limit: 2) == [6, 7])
        script.emit(.priorityChanged(operation: 3, priority: .veryLow, effective: .veryLow))
        script.start(6)
        model = script.model()
        #expect(model.startOrder(of: QueueID(1)) == [7, 2, 5, 1, 3])
    }

    @Test("the model's start order matches the order real queues start operations in",
          arguments: [1, 2])
    func matchesRealQueues(maxConcurrent: Int) throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "real", maxConcurrentOperationCount: maxConcurrent)
        queue.isSuspended = true
        let order = Recorder<String>()
        // Each run signals: the test waits for the runs themselves, not for a while.
        let ran = DispatchSemaphore(value: 0)
        // With max 2, a veryHigh blocker holds one slot so the others start one at a time.
        let gate = DispatchSemaphore(value: 0)
        if maxConcurrent == 2 {
            let blocker = ObservableBlockOperation { gate.wait() }
            blocker.queuePriority = .veryHigh
            blocker.name = "blocker"
            queue.addOperation(blocker)
        }
        let specs: [(String, Operation.QueuePriority?, QualityOfService)] = [
            ("utility", nil, .utility), ("explicit-high", .high, .background), ("default", nil, .default),
            ("interactive", nil, .userInteractive), ("explicit-low", .low, .userInteractive),
            ("initiated", nil, .userInitiated), ("background", nil, .background), ("default-2", nil, .default),
        ]
        for (index, (name, priority, qos)) in specs.enumerated() {
            let body = { @Sendable in
                order.append(name)
                ran.signal()
            }
            let operation: Operation = index % 2 == 0 ? BlockOperation(block: body) : ObservableBlockOperation(block: body)
            operation.name = name
            operation.qualityOfService = qos
            if let priority { operation.queuePriority = priority }
            queue.addOperation(operation)
        }
        live.sync()
        let predicted = live.model.startOrder(of: queue.queueID)
            .compactMap { live.model[$0]?.name }.filter { $0 != "blocker" }
        queue.isSuspended = false
        // The deadline only ends a hang: every run signals once.
        for _ in specs { #expect(ran.wait(timeout: .now() + 120) == .success) }
        gate.signal()
        queue.waitUntilAllOperationsAreFinished()
        #expect(predicted == order.all, "predicted \(predicted), ran \(order.all)")
        if maxConcurrent == 1 {
            // Serial: QoS is ignored, explicit priorities count.
            #expect(order.all.prefix(2) == ["explicit-high", "utility"])
        }
    }

    @Test("a priority set after the add is seen, plain BlockOperations included, and the start order is the one Foundation follows",
          arguments: [false, true])
    func priorityAfterAdd(tracked: Bool) throws {
        let live = LiveMonitor(samplingInterval: .microseconds(20))
        let queue: OperationQueue
        if tracked {
            queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.name = "plain"
        } else {
            queue = ObservedOperationQueue(monitor: live.monitor, name: "real", maxConcurrentOperationCount: 1)
        }
        queue.isSuspended = true
        if tracked { live.monitor.track(queue) }
        let order = Recorder<String>()
        let ran = DispatchSemaphore(value: 0)
        var operations: [Operation] = []
        for (index, name) in ["first", "second", "third", "fourth"].enumerated() {
            let body = { @Sendable in
                order.append(name)
                ran.signal()
            }
            let operation: Operation = index == 3 ? ObservableBlockOperation(block: body) : BlockOperation(block: body)
            operation.name = name
            queue.addOperation(operation)
            operations.append(operation)
        }
        let names = { (model: DashboardModel) -> [String] in
            model.queues.values.first.map { model.startOrder(of: $0.id).compactMap { model[$0]?.name } } ?? []
        }
        #expect(live.sync { names($0) == ["first", "second", "third", "fourth"] })
        operations[2].queuePriority = .veryHigh
        operations[0].queuePriority = .low
        #expect(live.sync { names($0) == ["third", "second", "fourth", "first"] }, "predicted \(names(live.model))")
        let third = try #require(live.model.operations.values.first { $0.name == "third" })
        #expect(third.priority == .veryHigh && third.effectivePriority == .veryHigh)
        let predicted = names(live.model)
        queue.isSuspended = false
        for _ in 0..<4 { #expect(ran.wait(timeout: .now() + 120) == .success) }
        queue.waitUntilAllOperationsAreFinished()
        #expect(predicted == order.all, "predicted \(predicted), ran \(order.all)")
    }

    @Test("QoS lanes: executing, ready in start order, pending, with totals")
    func lanes() throws {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "running", qos: .utility)
        script.start(1)
        script.add(2, queue: 1, "second", effective: .low, qos: .utility)
        script.add(3, queue: 1, "first", priority: .high, qos: .utility)
        script.add(4, queue: 1, "waiting", after: [1], qos: .utility)
        script.add(5, queue: 1, "ui", qos: .userInteractive)
        let lanes = script.model().qosLanes()
        #expect(lanes.map(\.qos) == [.userInteractive, .userInitiated, .default, .utility, .background])
        let utility = try #require(lanes.first { $0.qos == .utility })
        #expect(utility.executing == [1] && utility.ready == [3, 2] && utility.pending == [4])
        #expect((utility.executingCount, utility.readyCount, utility.pendingCount) == (1, 2, 1))
        #expect(lanes[0].ready == [5])
    }
}
