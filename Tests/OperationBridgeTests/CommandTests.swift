import Foundation
import OperationBridge
import OperationEvents
import Testing
import OpScopeTestSupport

@Suite("Commands", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct CommandTests {
    private func error(_ result: Result<CommandReceipt, CommandError>) -> CommandError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test("cancel by id: instrumented and foreign operations; a cancelled pending one finishes early")
    func cancelByID() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work", maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let ran = Recorder<String>()
        let instrumented = ObservableBlockOperation { ran.append("instrumented") }
        let foreign = BlockOperation { ran.append("foreign") }
        let kept = BlockOperation { ran.append("kept") }
        queue.addOperations([instrumented, foreign, kept], waitUntilFinished: false)
        log.drain()
        let ids = log.addedOrder
        let receipt = try monitor.perform(.cancel(operations: [ids[0], ids[1]])).get()
        #expect(receipt.operations == [ids[0], ids[1]])
        #expect(receipt.message == "cancelled \(ids[0]) \(ids[1])")
        #expect(instrumented.isCancelled && foreign.isCancelled && !kept.isCancelled)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == ["kept"])
        #expect(log.waitForFinish(of: ids))
        for id in ids[0...1] {
            let cancel = try #require(log.events(for: id).first { $0.change.isCancelled })
            #expect(cancel.origin == .exact)
            #expect(log.wasCancelledAtFinish(id) == true)
        }
    }

    @Test("a command naming an unknown or finished operation is refused and changes nothing")
    func cancelRefused() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.addOperation {}
        queue.waitUntilAllOperationsAreFinished()
        queue.isSuspended = true
        let pending = BlockOperation {}
        queue.addOperation(pending)
        log.drain()
        let finishedID = log.addedOrder[0]
        let pendingID = log.addedOrder[1]

        let unknown = error(monitor.perform(.cancel(operations: [pendingID, OperationID(999)])))
        #expect(unknown == CommandError(.unknownOperation, "there is no operation #999"))
        #expect(!pending.isCancelled, "a refused batch cancels nothing")

        #expect(log.waitForFinish(of: [finishedID]))
        let gone = error(monitor.perform(.cancel(operations: [finishedID])))
        #expect(gone?.kind == .operationGone)
        #expect(gone?.message == "\(finishedID) has finished or was released")

        #expect(error(monitor.perform(.cancel(operations: [])))?.kind == .invalidArgument)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("cancelling an operation that belongs to no queue says so: cancelled, and only the app can start it")
    func cancelOutsideAnyQueue() throws {
        let monitor = OperationMonitor.manual(ManualClock())
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let ran = Recorder<String>()
        // A plain operation seen only as a dependency: never enqueued, so no queue will start it.
        let outside = BlockOperation { ran.append("outside") }
        let dependent = BlockOperation { ran.append("dependent") }
        dependent.addDependency(outside)
        queue.addOperation(dependent)
        log.drain()
        let outsideID = try #require(log.added.values.first { $0.queue == nil }?.id)
        #expect(log.added[outsideID]?.observation == .external)

        let receipt = try monitor.perform(.cancel(operations: [outsideID])).get()
        #expect(receipt.message == "cancelled \(outsideID); \(outsideID) is not in any queue: only the app can start it")
        #expect(receipt.operations == [outsideID])
        // What the receipt says is what happened: cancelled, not finished, its dependent still held.
        #expect(outside.isCancelled && !outside.isFinished)
        #expect(!dependent.isReady)
        log.drain()
        #expect(log.count(outsideID) { $0.isCancelled } == 1)
        #expect(log.finished(outsideID) == nil)
        // A second cancel is no longer "gone": it is still there, cancelled, waiting for the app.
        #expect(try monitor.perform(.cancel(operations: [outsideID])).get().operations == [outsideID])

        // The app starts it: it finishes as cancelled without running, and its dependent runs.
        outside.start()
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == ["dependent"])
    }

    @Test("queue commands: suspend, resume, max concurrency, cancel all; bad values refused")
    func queueCommands() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let id = queue.queueID

        #expect(try monitor.perform(.setSuspended(queue: id, suspended: true)).get().message == "suspended \(id)")
        #expect(queue.isSuspended)
        #expect(try monitor.perform(.setSuspended(queue: id, suspended: true)).get().message == "\(id) is already suspended")
        for _ in 0..<4 { queue.addOperation(BlockOperation {}) }
        let cancelAll = try monitor.perform(.cancelAll(queue: id)).get()
        #expect(cancelAll.message == "cancelled all 4 operations of \(id)")
        let allCancelled = queue.operations.allSatisfy(\.isCancelled)
        #expect(allCancelled)

        for bad in [0, -2, Int.max] {
            let refused = error(monitor.perform(.setMaxConcurrency(queue: id, count: bad)))
            #expect(refused?.kind == .invalidArgument)
            #expect(queue.maxConcurrentOperationCount == -1)
        }
        #expect(try monitor.perform(.setMaxConcurrency(queue: id, count: 3)).get().message == "\(id) max concurrency 3 (was no limit)")
        #expect(queue.maxConcurrentOperationCount == 3)
        #expect(try monitor.perform(.setSuspended(queue: id, suspended: false)).get().message == "resumed \(id)")
        queue.waitUntilAllOperationsAreFinished()

        #expect(error(monitor.perform(.setSuspended(queue: QueueID(77), suspended: true))) ==
                CommandError(.unknownQueue, "there is no queue q77"))
        log.drain()
        let changes = log.events.map(\.change)
        #expect(changes.contains(.queueSuspended(queue: id, suspended: true)))
        #expect(changes.contains(.queueCancelledAll(queue: id)))
        #expect(changes.contains(.queueMaxConcurrency(queue: id, count: 3)))
        #expect(changes.contains(.queueSuspended(queue: id, suspended: false)))
    }

    @Test("a released queue is reported and refused by id")
    func releasedQueue() {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        weak var weakQueue: ObservedOperationQueue?
        var id = QueueID(0)
        do {
            let queue = ObservedOperationQueue(monitor: monitor, name: "short-lived")
            id = queue.queueID
            weakQueue = queue
            queue.addOperation {}
            queue.waitUntilAllOperationsAreFinished()
        }
        #expect(waitUntil { weakQueue == nil })
        // The release is reported by the queue's deinit, which may still be running elsewhere.
        #expect(waitUntil {
            _ = log.drain()
            return log.events.last?.change == .queueReleased(queue: id)
        })
        #expect(error(monitor.perform(.setSuspended(queue: id, suspended: true)))?.kind == .queueGone)
    }

    @Test("the main queue: tracked by sampling; Foundation ignores its setters, so commands are refused")
    func mainQueue() {
        let monitor = OperationMonitor()
        let id = monitor.track(OperationQueue.main)
        #expect(monitor.track(OperationQueue.main) == id)
        let refused = error(monitor.perform(.setSuspended(queue: id, suspended: true)))
        #expect(refused?.kind == .unsupported)
        #expect(refused?.message == "OperationQueue.main ignores isSuspended (Foundation rule)")
        #expect(error(monitor.perform(.cancelAll(queue: id)))?.kind == .unsupported)
        #expect(error(monitor.perform(.setMaxConcurrency(queue: id, count: 2)))?.kind == .unsupported)
        #expect(!OperationQueue.main.isSuspended)
    }

    @Test("a tracked plain queue takes the queue commands as an observed one does")
    func trackedQueueCommands() throws {
        let monitor = OperationMonitor()
        let queue = OperationQueue()
        let id = monitor.track(queue)
        #expect(try monitor.perform(.setSuspended(queue: id, suspended: true)).get().message == "suspended \(id)")
        #expect(queue.isSuspended)
        #expect(try monitor.perform(.setMaxConcurrency(queue: id, count: 2)).get().message == "\(id) max concurrency 2 (was no limit)")
        #expect(queue.maxConcurrentOperationCount == 2)
        for _ in 0..<3 { queue.addOperation(BlockOperation {}) }
        #expect(try monitor.perform(.cancelAll(queue: id)).get().message == "cancelled all 3 operations of \(id)")
        let allCancelled = queue.operations.allSatisfy(\.isCancelled)
        #expect(allCancelled)
        #expect(try monitor.perform(.setSuspended(queue: id, suspended: false)).get().message == "resumed \(id)")
        #expect(!queue.isSuspended)
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("add work from the catalog: count, name, QoS, priority and dependencies")
    func addWork() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.isSuspended = true
        let made = Recorder<Int>()
        try monitor.catalog.register("resize", summary: "resize an image", queue: queue) { index in
            made.append(index)
            return ObservableBlockOperation { usleep(100) }
        }
        try monitor.catalog.register("fetch", summary: "a foreign operation", queue: queue) { _ in BlockOperation {} }
        #expect(monitor.workTemplates == [
            WorkTemplateInfo(name: "resize", summary: "resize an image", queue: queue.queueID),
            WorkTemplateInfo(name: "fetch", summary: "a foreign operation", queue: queue.queueID),
        ])
        let base = try monitor.perform(.addWork(WorkRequest(template: "fetch"))).get()
        let request = WorkRequest(template: "resize", count: 3, name: "thumb", qualityOfService: .utility,
                                  priority: .high, dependencies: base.operations)
        let receipt = try monitor.perform(.addWork(request)).get()
        #expect(receipt.operations.count == 3)
        #expect(made.all == [0, 1, 2])
        #expect(receipt.message.hasPrefix("added 3 × resize to \(queue.queueID): "))
        log.drain()
        for (index, id) in receipt.operations.enumerated() {
            let info = try #require(log.added[id])
            #expect(info.name == "thumb \(index + 1)")
            #expect(info.qualityOfService == .utility)
            #expect(info.priority == .high && info.effectivePriority == .high)
            #expect(info.dependencies == base.operations)
        }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.waitForFinish(of: receipt.operations + base.operations))
    }

    @Test("add work refuses bad requests before making anything")
    func addWorkRefused() throws {
        let monitor = OperationMonitor()
        var queue: ObservedOperationQueue? = ObservedOperationQueue(monitor: monitor, name: "work")
        queue?.isSuspended = true
        let made = Recorder<Int>()
        try monitor.catalog.register("job", summary: "a job", queue: queue!) { index in
            made.append(index)
            return BlockOperation {}
        }
        #expect(throws: CommandError.self) { try monitor.catalog.register("two words", summary: "", queue: queue!) { _ in BlockOperation {} } }

        let cases: [(WorkRequest, CommandError.Kind, String)] = [
            (WorkRequest(template: "nope"), .unknownTemplate, "no work template named 'nope' (known: job)"),
            (WorkRequest(template: "job", count: 0), .invalidArgument, "count must be between 1 and 10000; got 0"),
            (WorkRequest(template: "job", count: -1), .invalidArgument, "count must be between 1 and 10000; got -1"),
            (WorkRequest(template: "job", count: 99_999_999), .invalidArgument, "count must be between 1 and 10000; got 99999999"),
            (WorkRequest(template: "job", priority: .barrier), .invalidArgument, "priority must be veryLow, low, normal, high or veryHigh"),
            (WorkRequest(template: "job", dependencies: [OperationID(4242)]), .unknownOperation, "there is no operation #4242"),
            (WorkRequest(template: "job", queue: QueueID(99)), .unknownQueue, "there is no queue q99"),
        ]
        for (request, kind, message) in cases {
            #expect(error(monitor.perform(.addWork(request))) == CommandError(kind, message))
        }
        #expect(made.all.isEmpty)
        #expect(queue?.operationCount == 0)

        queue?.isSuspended = false
        queue = nil
        let released = error(monitor.perform(.addWork(WorkRequest(template: "job"))))
        #expect(released == CommandError(.queueGone, "the queue of template 'job' was released"))
        #expect(made.all.isEmpty)
    }
}
