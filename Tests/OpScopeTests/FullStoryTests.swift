import Foundation
import OpScope
import Testing
import OpScopeTestSupport

/// A program as an app developer writes it, with the classic mistakes, that asks for
/// `OpScopeDashboard.report(monitor)` only at the end: the monitor's history gives the report
/// every operation the program ran, with its final state, and every problem.
@Suite("A report made only at the end tells the full story", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct FullStoryTests {
    @Test("async work that never finishes or forgets its notification, a cycle, a never-enqueued dependency, a suspended queue, a cross-queue chain")
    func fullStory() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let work = ObservedOperationQueue(monitor: monitor, name: "work")
        let paused = ObservedOperationQueue(monitor: monitor, name: "paused")
        let other = ObservedOperationQueue(monitor: monitor, name: "other")
        let finishesReported = DispatchGroup()
        func reportsFinish(_ operation: Operation) {
            finishesReported.enter()
            operation.completionBlock = { finishesReported.leave() }
        }

        // Ordinary work that finishes, some added as blocks, some as operations.
        var done: [Operation] = []
        for index in 0..<10 {
            let operation = BlockOperation {}
            operation.name = "done-\(index)"
            reportsFinish(operation)
            done.append(operation)
        }
        work.addOperations(done, waitUntilFinished: false)
        // An asynchronous operation that never finishes, and one that forgets to tell its queue.
        let stuck = ArticleAsyncOperation(name: "stuck", finishes: false, notifies: true)
        let forgetful = ArticleAsyncOperation(name: "forgetful", finishes: true, notifies: false)
        work.addOperation(stuck)
        work.addOperation(forgetful)
        // A cycle.
        let left = BlockOperation {}
        left.name = "left"
        let right = BlockOperation {}
        right.name = "right"
        left.addDependency(right)
        right.addDependency(left)
        work.addOperations([left, right], waitUntilFinished: false)
        // A dependency that is never enqueued.
        let orphan = BlockOperation {}
        orphan.name = "orphan"
        let waiter = BlockOperation {}
        waiter.name = "waiter"
        waiter.addDependency(orphan)
        work.addOperation(waiter)
        // A suspended queue with work waiting.
        paused.isSuspended = true
        for index in 0..<3 {
            let operation = BlockOperation {}
            operation.name = "paused-\(index)"
            paused.addOperation(operation)
        }
        // A chain across queues.
        let chain = (1...3).map { index in
            let operation = BlockOperation {}
            operation.name = "chain-\(index)"
            reportsFinish(operation)
            return operation
        }
        chain[1].addDependency(chain[0])
        chain[2].addDependency(chain[1])
        other.addOperation(chain[1])
        work.addOperations([chain[2], chain[0]], waitUntilFinished: false)

        // The program's work settles: what can finish has finished. Not `waitUntilFinished()`:
        // it can return as soon as `isFinished` turns true, a moment before Foundation posts the
        // finish (and OpScope reports it); a completion block runs after that.
        for operation in done + chain { operation.waitUntilFinished() }
        finishesReported.wait()
        #expect(stuck.started.wait() && forgetful.ended.wait())
        // The program's sampling runs (it sees the foreign operations' starts), time passes, and
        // it runs again (a finish is called unsignalled only when two readings agree).
        monitor.sampleNow()
        clock.advance(seconds: 20)
        monitor.sampleNow()

        let report = OpScopeDashboard.report(monitor)

        let byName = Dictionary(report.operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // The orphan has no dependency: it is ready, but no queue will ever start it.
        var expected: [String: OperationState] = ["stuck": .executing, "left": .pending, "right": .pending,
                                                  "orphan": .ready, "waiter": .pending]
        for index in 0..<10 { expected["done-\(index)"] = .finished }
        for index in 1...3 { expected["chain-\(index)"] = .finished }
        for index in 0..<3 { expected["paused-\(index)"] = .ready }
        for (name, state) in expected {
            #expect(byName[name]?.state == state, "\(name): \(String(describing: byName[name]?.state)), expected \(state)")
        }
        #expect(byName["forgetful"] != nil, "the operation that forgot its notification is in the report")
        #expect(report.operations.count == expected.count + 1)
        #expect(byName["chain-2"]?.queue == other.queueID)

        let warnings = Set(report.warnings.map(\.kind))
        #expect(warnings.isSuperset(of: [.unsignalledFinish, .longRunningAsynchronous, .cycle]), "\(report.warnings.map(\.message))")
        #expect(report.warnings.contains { $0.kind == .unsignalledFinish && $0.operation == byName["forgetful"]?.id })
        #expect(report.warnings.contains { $0.kind == .longRunningAsynchronous && $0.operation == byName["stuck"]?.id })
        let diagnoses = Dictionary(report.diagnoses.map { ($0.operation, $0) }, uniquingKeysWith: { first, _ in first })
        func diagnosis(_ name: String) -> Diagnosis? { byName[name].flatMap { diagnoses[$0.id] } }
        #expect(diagnosis("orphan")?.kind == .notInAnyQueue)
        #expect(diagnosis("waiter")?.kind == .waitingOnDependencies && diagnosis("waiter")?.rootCause == byName["orphan"]?.id)
        #expect(diagnosis("left")?.kind == .cycle && diagnosis("right")?.kind == .cycle)
        #expect(diagnosis("paused-0")?.kind == .queueSuspended)
        #expect(report.cycles.count == 1)
        let queues = Dictionary(uniqueKeysWithValues: report.queues.map { ($0.name, $0) })
        #expect(queues["work"]?.finished == 12 && queues["other"]?.finished == 1 && queues["paused"]?.pending == 3)
        #expect(report.droppedEvents == 0)
        #expect(report.hasProblem)

        // Let the program end cleanly.
        stuck.finish()
        forgetful.notifyAtLast()
        paused.isSuspended = false
        paused.waitUntilAllOperationsAreFinished()
    }
}
