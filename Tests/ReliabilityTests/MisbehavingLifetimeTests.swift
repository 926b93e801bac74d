import DashboardModel
import DashboardUI
import Foundation
import OpScope
import OperationBridge
import OperationEvents
import Testing

/// Issue 17, misbehaving programs: 10,000 queues, a queue released while its operations run,
/// the monitor released while the program goes on, and a program that never drains its queues.
@Suite("Reliability: queues and monitors that come and go", .serialized, .timeLimit(.minutes(5)))
struct MisbehavingLifetimeTests {
    @Test("10,000 queues: all shown, a frame composes, all released afterwards")
    func tenThousandQueues() {
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let ran = Occurrences()
        let count = 10_000
        var truth: [String: Truth] = [:]
        do {
            var queues: [CountedQueue] = []
            queues.reserveCapacity(count)
            for index in 0..<count {
                let queue = CountedQueue(monitor: monitor, name: "queue-\(index)", lives: lives)
                queue.addOperation(CountedBlock("in-\(index)", lives) { _ in ran.note() })
                truth["in-\(index)"] = .finished
                queues.append(queue)
            }
            ran.wait(for: count, "one operation in each queue")
            let report = watcher.report()
            #expect(report.queues.count == count && report.queues.allSatisfy { !$0.released })
            var dashboard = Interaction()
            dashboard.keepSelectionValid(watcher.model)
            let text = FrameComposer().compose(watcher.model, dashboard, width: 200, height: 60).0.text
            #expect(text.contains("OpScope") && text.contains("queue-"))
        }
        lives.expectAllReleased()
        let report = watcher.report()
        expectComplete(report, truth, "the dashboard")
        let alive = report.queues.filter { !$0.released }.map(\.name)
        #expect(alive.count == 0, "\(alive.count) queues still shown as alive: \(alive.prefix(5))")
        let final = OpScopeDashboard.report(monitor)
        #expect(final.queues.allSatisfy { $0.released }, "report(monitor) shows released queues as alive")
        expectFinalReport(final, truth)
    }

    @Test("a queue released by the program while its operations run: they finish, then the queue goes")
    func queueReleasedWhileRunning() {
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let gate = Gate()
        let started = Occurrences()
        var truth: [String: Truth] = [:]
        weak var weakQueue: CountedQueue?
        do {
            let queue = CountedQueue(monitor: monitor, name: "dropped", maxConcurrentOperationCount: 2, lives: lives)
            weakQueue = queue
            for index in 0..<2 {
                let running = CountedBlock("running-\(index)", lives) { _ in started.note(); gate.pass() }
                let after = CountedBlock("after-\(index)", lives)
                after.addDependency(running)
                queue.addOperations([running, after], waitUntilFinished: false)
                truth[running.name!] = .finished
                truth[after.name!] = .finished
            }
            started.wait(for: 2, "the operations to start")
        }
        // The program holds the queue no longer; Foundation keeps it while its operations run.
        #expect(weakQueue != nil)
        var report = watcher.report()
        #expect(report.queues.first { $0.name == "dropped" }.map { !$0.released && $0.executing == 2 } == true, "\(report.queues)")
        gate.open()
        lives.expectAllReleased()
        #expect(weakQueue == nil)
        report = watcher.report()
        expectComplete(report, truth, "the dashboard")
        #expect(report.queues.first { $0.name == "dropped" }.map(\.released) ?? true, "the queue is still shown as alive")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("the monitor released while the program goes on: its queues keep working, operations finish and are released")
    func monitorReleased() {
        let lives = Lives()
        let gate = Gate()
        let started = Occurrences()
        let ranAfter = Occurrences()
        weak var weakMonitor: OperationMonitor?
        let plain = OperationQueue()
        var survivor: CountedBlock?
        do {
            let monitor = OperationMonitor()
            weakMonitor = monitor
            monitor.track(plain)
            let queue = CountedQueue(monitor: monitor, name: "outlives", maxConcurrentOperationCount: 5, lives: lives)
            let done = CountedBlock("done-before", lives)
            queue.addOperation(done)
            done.waitUntilFinished()
            survivor = done
            // Few held at once: each holds one of the dispatch pool's threads, which grows slowly.
            queue.addOperation(CountedBlock("held", lives) { _ in started.note(); gate.pass() })
            queue.addOperation(CountedForeign("foreign-held", lives) { _ in started.note(); gate.pass() })
            plain.addOperation(CountedForeign("plain-held", lives) { _ in started.note(); gate.pass() })
            started.wait(for: 3, "the operations to start")
            _ = OpScopeDashboard.report(monitor)
        }
        // The program let go of the monitor and its observed queue; the running operations keep
        // the queue (Foundation), the queue keeps the monitor.
        #expect(weakMonitor != nil)
        gate.open()
        // Once they finish, queue and monitor go, while the tracked queue goes on working.
        plain.waitUntilAllOperationsAreFinished()
        for index in 0..<50 { plain.addOperation(CountedForeign("plain-after-\(index)", lives) { _ in ranAfter.note() }) }
        // An operation the gone monitor observed, used again by the program.
        if let survivor {
            survivor.cancel()
            survivor.queuePriority = .high
            let next = CountedForeign("after-survivor", lives) { _ in ranAfter.note() }
            next.addDependency(survivor)
            plain.addOperation(next)
        }
        ranAfter.wait(for: 51, "the work added after the monitor went")
        plain.waitUntilAllOperationsAreFinished()
        survivor = nil
        lives.expectAllReleased()
        // The queue's deinit has begun (it counted itself); its last reference to the monitor
        // goes a moment later on the same thread.
        let released = Date().addingTimeInterval(30)
        while weakMonitor != nil, Date() < released { sched_yield() }
        #expect(weakMonitor == nil, "the monitor outlived its queue and the program's references")
    }

    @Test("a program that never drains its queues: the report says what waits and why")
    func neverDrains() throws {
        let time = ManualTime()
        let monitor = OperationMonitor.forTest(time: time)
        var watcher = Watcher(monitor)
        let lives = Lives()
        let gate = Gate()
        let started = Occurrences()
        let finished = Occurrences()
        var missing: CountedBlock? = CountedBlock("never-enqueued", lives)
        do {
            let serial = ObservedOperationQueue(monitor: monitor, name: "serial", maxConcurrentOperationCount: 1)
            let paused = ObservedOperationQueue(monitor: monitor, name: "paused")
            let other = ObservedOperationQueue(monitor: monitor, name: "other")
            paused.isSuspended = true
            serial.addOperation(CountedBlock("hog", lives) { _ in started.note(); gate.pass() })
            started.wait(for: 1, "the hog to start")
            for index in 0..<20 { serial.addOperation(CountedBlock("behind-hog-\(index)", lives) { _ in finished.note() }) }
            for index in 0..<10 { paused.addOperation(CountedBlock("paused-\(index)", lives) { _ in finished.note() }) }
            let orphan = CountedBlock("orphan", lives) { _ in finished.note() }
            orphan.addDependency(missing!)
            other.addOperation(orphan)
            time.advance(seconds: 60)
            monitor.sampleNow()
            for (consumer, report) in [("the dashboard", watcher.report()), ("report(monitor)", OpScopeDashboard.report(monitor))] {
                let ids = report.byName.mapValues(\.id)
                let kinds = Dictionary(report.diagnoses.map { ($0.operation, $0) }, uniquingKeysWith: { first, _ in first })
                #expect(report.byName["hog"]?.state == .executing, "\(consumer)")
                for index in 0..<20 {
                    let kind = ids["behind-hog-\(index)"].flatMap { kinds[$0]?.kind }
                    #expect(kind == .concurrencyLimit || kind == .waitingForTurn, "\(consumer): behind-hog-\(index): \(String(describing: kind))")
                }
                for index in 0..<10 {
                    #expect(ids["paused-\(index)"].flatMap { kinds[$0]?.kind } == .queueSuspended, "\(consumer): paused-\(index)")
                }
                let orphanDiagnosis = try #require(ids["orphan"].flatMap { kinds[$0] }, "\(consumer)")
                #expect(orphanDiagnosis.kind == .waitingOnDependencies && orphanDiagnosis.rootCause == ids["never-enqueued"],
                        "\(consumer): \(orphanDiagnosis)")
                #expect(ids["never-enqueued"].flatMap { kinds[$0]?.kind } == .notInAnyQueue, "\(consumer)")
                #expect(report.warnings.contains { $0.kind == .suspendedQueueWithWork }, "\(consumer)")
                #expect(report.hasProblem, "\(consumer)")
                // Known for a minute: the lint names the dependency nothing will start. Every
                // consumer, however late, starts from the monitor's history and knows it too.
                let lint = report.warnings.contains { $0.kind == .dependencyNeverEnqueued }
                #expect(lint, "\(consumer): \(report.warnings.map(\.kind))")
            }
            // The program ends the wait itself: the hog returns, the queue resumes, the missing
            // dependency is run by hand.
            gate.open()
            paused.isSuspended = false
            missing?.start()
            missing = nil
            finished.wait(for: 31, "everything that waited")
        }
        lives.expectAllReleased()
        let report = watcher.report()
        #expect(report.operations.allSatisfy { $0.state == .finished }, "\(report.operations.filter { $0.state != .finished }.map(\.name))")
    }
}
