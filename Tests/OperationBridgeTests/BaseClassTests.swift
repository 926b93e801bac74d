import Foundation
import OperationBridge
import OperationEvents
import Testing

/// An asynchronous operation that finishes when told to, for state-machine tests.
final class ManualAsyncOperation: ObservableAsyncOperation, @unchecked Sendable {
    let executed = Recorder<Int>()
    override func execute() { executed.append(1) }
}

@Suite("Base classes", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct BaseClassTests {
    @Test("ObservableAsyncOperation stays executing until finish(), then notifies its queue")
    func asyncLifecycle() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "async", maxConcurrentOperationCount: 1)
        let first = ManualAsyncOperation()
        let second = ManualAsyncOperation()
        queue.addOperations([first, second], waitUntilFinished: false)
        #expect(waitUntil { first.isExecuting })
        #expect(first.executed.all == [1])
        #expect(first.isExecuting && !first.isFinished)
        #expect(second.executed.all.isEmpty, "a serial queue must not start the next one before finish()")
        first.finish()
        #expect(waitUntil { second.isExecuting })
        second.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(first.isFinished && second.isFinished && !first.isExecuting)
        #expect(log.waitForFinish(of: log.addedOrder))
        let id = try #require(first.monitorID)
        #expect(log.events(for: id).map(\.change).filter { !$0.isAdded } == [
            .started(operation: id), .finished(operation: id, cancelled: false),
        ])
    }

    @Test("finish() is idempotent and safe from many threads at once")
    func finishFromManyThreads() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "race")
        for _ in 0..<50 {
            let operation = ManualAsyncOperation()
            let dependentRuns = Recorder<Int>()
            let dependent = ObservableBlockOperation { dependentRuns.append(1) }
            dependent.addDependency(operation)
            queue.addOperations([operation, dependent], waitUntilFinished: false)
            #expect(waitUntil { operation.isExecuting })
            DispatchQueue.concurrentPerform(iterations: 8) { _ in operation.finish() }
            queue.waitUntilAllOperationsAreFinished()
            #expect(dependentRuns.all.count == 1)
            let id = try #require(operation.monitorID)
            log.drain()
            #expect(log.count(id, where: \.isFinished) == 1)
        }
    }

    @Test("cancel before start: finishes without calling execute(), and its dependents run")
    func cancelBeforeStart() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "cancel")
        queue.isSuspended = true
        let operation = ManualAsyncOperation()
        let ran = Recorder<Int>()
        let dependent = ObservableBlockOperation { ran.append(1) }
        dependent.addDependency(operation)
        queue.addOperations([operation, dependent], waitUntilFinished: false)
        operation.cancel()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(operation.isFinished && operation.isCancelled)
        #expect(operation.executed.all.isEmpty)
        #expect(ran.all == [1])
        let id = try #require(operation.monitorID)
        log.drain()
        let changes = log.events(for: id).map(\.change).filter { !$0.isAdded }
        #expect(changes.contains(.cancelled(operation: id)))
        #expect(changes.last == .finished(operation: id, cancelled: true))
        #expect(!changes.contains(.started(operation: id)))
    }

    @Test("a cancelled operation started by hand finishes at once; start twice and early finish() do nothing")
    func manualStart() {
        let operation = ManualAsyncOperation()
        operation.finish()          // not started: ignored
        #expect(!operation.isFinished)
        operation.start()
        operation.start()           // second start: ignored
        #expect(operation.executed.all.count == 1)
        operation.finish()
        #expect(operation.isFinished && !operation.isExecuting)

        let cancelled = ManualAsyncOperation()
        cancelled.cancel()
        #expect(!cancelled.isFinished, "cancel() alone does not finish (see the class documentation)")
        cancelled.start()
        #expect(cancelled.isFinished && cancelled.executed.all.isEmpty)
    }

    @Test("isExecuting/isFinished of the synchronous class follow Foundation and are reported once")
    func syncOperation() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "sync")
        let observedInside = Recorder<Bool>()
        final class Probe: ObservableOperation, @unchecked Sendable {
            let seen: Recorder<Bool>
            init(_ seen: Recorder<Bool>) { self.seen = seen }
            override func main() { seen.append(isExecuting); seen.append(isFinished) }
        }
        let probe = Probe(observedInside)
        queue.addOperation(probe)
        queue.waitUntilAllOperationsAreFinished()
        #expect(observedInside.all == [true, false])
        let id = try #require(probe.monitorID)
        #expect(log.waitForFinish(of: [id]))
        #expect(log.count(id, where: \.isStarted) == 1)
        #expect(log.count(id, where: \.isFinished) == 1)
        #expect(probe.isFinished)
        log.drain()
        #expect(log.count(id, where: \.isFinished) == 1, "reading isFinished again must not report again")
    }

    @Test("priority and dependency changes after adding are reported")
    func changesAfterAdd() throws {
        let monitor = OperationMonitor()
        let log = EventLog(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "changes")
        queue.isSuspended = true
        let operation = ObservableBlockOperation {}
        let other = ObservableBlockOperation {}
        queue.addOperations([operation, other], waitUntilFinished: false)
        operation.queuePriority = .veryHigh
        operation.addDependency(other)
        operation.removeDependency(other)
        let id = try #require(operation.monitorID)
        let otherID = try #require(other.monitorID)
        log.drain()
        let changes = log.events(for: id).map(\.change)
        #expect(changes.contains(.priorityChanged(operation: id, priority: .veryHigh, effective: .veryHigh)))
        #expect(changes.contains(.dependencyAdded(operation: id, dependency: otherID)))
        #expect(changes.contains(.dependencyRemoved(operation: id, dependency: otherID)))
        #expect(changes.contains(.ready(operation: id, isReady: false)))
        // Foundation on Linux never makes it ready again (see the conformance test); cancelling does.
        operation.cancel()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        log.drain()
        #expect(log.events(for: id).map(\.change).contains(.ready(operation: id, isReady: true)))
    }

    @Test("an ObservableOperation in a plain queue behaves like an Operation and reports nothing")
    func unobserved() {
        let queue = OperationQueue()
        let ran = Recorder<Int>()
        let operation = ObservableBlockOperation { ran.append(1) }
        queue.addOperation(operation)
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == [1])
        #expect(operation.monitorID == nil)
    }
}

@Suite("Base classes: no lock-order deadlock with Foundation's waits", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct DeadlockFreedomTests {
    @Test("ObservableAsyncOperation finishing from other threads never deadlocks waitUntilFinished")
    func waitUntilFinishedIsSafe() {
        // The articles' recursive-lock operation deadlocks this loop within seconds on Linux
        // (Foundation holds its condition lock while reading isFinished; the operation holds
        // its lock while notifying). The base class takes no lock in either place.
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "wait")
        final class QuickAsync: ObservableAsyncOperation, @unchecked Sendable {
            override func execute() { DispatchQueue.global().async { self.finish() } }
        }
        let finished = Recorder<Int>()
        let worker = Thread {
            for round in 0..<200 {
                queue.addOperations((0..<20).map { _ in QuickAsync() }, waitUntilFinished: true)
                finished.append(round)
            }
        }
        worker.start()
        #expect(waitUntil(timeout: 60) { finished.all.count == 200 }, "stuck after \(finished.all.count) rounds")
        _ = monitor.drainEvents()
    }
}
