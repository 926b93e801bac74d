import DashboardModel
import Foundation
import OpScope
import OpScopeTestSupport
import OperationBridge
import OperationEvents
import Synchronization
import Testing

/// Issue 17, misbehaving operations: asynchronous operations that get their notifications
/// wrong. For each, the program runs as it would without OpScope (every dependent runs once,
/// every operation is released), a dashboard that watched from the start shows every final
/// state, and `OpScopeDashboard.report(monitor)` made at the end agrees.
@Suite("Reliability: misbehaving asynchronous operations", .serialized, .timeLimit(.minutes(5)))
struct MisbehavingAsyncTests {
    @Test("isFinished posted twice, finish() called twice, a second finish notification after OpScope's own finish")
    func finishedTwice() {
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let dependentsRan = Occurrences()
        var truth: [String: Truth] = [:]
        do {
            let queue = ObservedOperationQueue(monitor: monitor, name: "twice", maxConcurrentOperationCount: 4)
            for index in 0..<60 {
                let operation: Operation
                switch index % 3 {
                case 0:
                    operation = HandRolledAsync("posts-twice-\(index)", lives, faults: .postsFinishedTwice) { op in
                        DispatchQueue.global().async { op.finish() }
                    }
                case 1:
                    operation = HandRolledAsync("finish-twice-\(index)", lives) { op in
                        DispatchQueue.global().async {
                            op.finish()
                            op.finish()
                        }
                    }
                default:
                    operation = CountedAsync("own-twice-\(index)", lives) { op in
                        DispatchQueue.global().async {
                            op.finish()
                            op.finish()
                            op.didChangeValue(forKey: "isFinished")
                        }
                    }
                }
                let dependent = CountedBlock("after-\(index)", lives) { _ in dependentsRan.note() }
                dependent.addDependency(operation)
                queue.addOperation(operation)
                queue.addOperation(dependent)
                truth[operation.name!] = .finished
                truth[dependent.name!] = .finished
            }
        }
        dependentsRan.wait(for: 60, "the dependents")
        lives.expectAllReleased()
        #expect(dependentsRan.value == 60, "a dependent ran twice")
        expectComplete(watcher.report(), truth, "the dashboard")
        #expect(watcher.model.stream.counters.anomalies == 0, "\(watcher.model.stream.counters)")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("finished without executing: start() posts only isFinished; and finished while still waiting in a suspended queue")
    func finishedWithoutExecuting() {
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let dependentsRan = Occurrences()
        var truth: [String: Truth] = [:]
        // Foundation keeps an operation finished before its queue started it in the queue's
        // priority list, unretained, for as long as the queue lives: the program (and this test)
        // must keep such operations until the queue is gone, with or without OpScope. The queue
        // outlives this scope while its last operations finish (each holds it), so the test
        // waits for the queue's deinit, not for the end of the scope.
        var keptUntilQueueGoes: [Operation] = []
        let queueLives = Lives()
        do {
            let queue = CountedQueue(monitor: monitor, name: "never-ran", maxConcurrentOperationCount: 2, lives: queueLives)
            for index in 0..<20 {
                let operation = HandRolledAsync("no-run-\(index)", lives, faults: .finishesWithoutExecuting)
                let dependent = CountedBlock("after-no-run-\(index)", lives) { _ in dependentsRan.note() }
                dependent.addDependency(operation)
                queue.addOperations([operation, dependent], waitUntilFinished: false)
                truth[operation.name!] = .finished
                truth[dependent.name!] = .finished
            }
            queue.isSuspended = true
            var early: [HandRolledAsync] = []
            for index in 0..<10 {
                let operation = HandRolledAsync("gave-up-\(index)", lives) { $0.finish() }
                let dependent = CountedBlock("after-gave-up-\(index)", lives) { _ in dependentsRan.note() }
                dependent.addDependency(operation)
                queue.addOperations([operation, dependent], waitUntilFinished: false)
                early.append(operation)
                keptUntilQueueGoes.append(operation)
                truth[operation.name!] = .finished
                truth[dependent.name!] = .finished
            }
            for operation in early { operation.forceFinished() }
            queue.isSuspended = false
            dependentsRan.wait(for: 30, "the dependents")
        }
        queueLives.expectAllReleased()
        keptUntilQueueGoes.removeAll()
        lives.expectAllReleased()
        let dashboard = watcher.report()
        expectComplete(dashboard, truth, "the dashboard")
        // Never started: no start may be shown for them.
        let started = dashboard.operations.filter { $0.name.hasPrefix("gave-up-") && $0.startedAt != nil }.map(\.name)
        #expect(started.isEmpty, "shown as started although their queue never started them: \(started)")
        // Their dependents did start, after them.
        let dependentsStarted = dashboard.operations.filter { $0.name.hasPrefix("after-gave-up-") && $0.startedAt != nil }
        #expect(dependentsStarted.count == 10)
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("finish() on another thread while the app cancels: seeded rounds, every final state and cancel flag right",
          arguments: ["instrumented", "hand-rolled"])
    func finishRacingCancel(flavor: String) {
        let seed = SeededRandom.seed(default: 1_717, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let ticket = Atomic<Int>(0)
        let rounds = 300
        let width = 4
        var races: [Race] = []
        do {
            let queue = ObservedOperationQueue(monitor: monitor, name: "race", maxConcurrentOperationCount: width)
            for round in 0..<rounds {
                let started = Occurrences()
                let ended = Occurrences()
                var batch: [(Race, Operation)] = []
                for slot in 0..<width {
                    let race = Race(name: "race-\(round)-\(slot)", finishSpin: Int.random(in: 0..<3_000, using: &random))
                    let finishing: @Sendable (Operation, @escaping @Sendable () -> Void) -> Void = { operation, finish in
                        started.note()
                        DispatchQueue.global().async {
                            Race.spin(race.finishSpin)
                            race.finishBegan.store(ticket.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue, ordering: .relaxed)
                            race.cancelledBeforeFinish.store(operation.isCancelled, ordering: .sequentiallyConsistent)
                            finish()
                            race.cancelledAfterFinish.store(operation.isCancelled, ordering: .sequentiallyConsistent)
                            race.finishEnded.store(ticket.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue, ordering: .relaxed)
                            ended.note()
                        }
                    }
                    let operation: Operation = flavor == "instrumented"
                        ? CountedAsync(race.name, lives) { op in finishing(op) { op.finish() } }
                        : HandRolledAsync(race.name, lives) { op in finishing(op) { op.finish() } }
                    batch.append((race, operation))
                }
                for (_, operation) in batch { queue.addOperation(operation) }
                started.wait(for: width, "round \(round) to start (seed \(seed))")
                for (race, operation) in batch {
                    Race.spin(Int.random(in: 0..<3_000, using: &random))
                    race.cancelBegan.store(ticket.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue, ordering: .relaxed)
                    operation.cancel()
                    race.cancelEnded.store(ticket.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue, ordering: .relaxed)
                }
                ended.wait(for: width, "round \(round) to finish (seed \(seed))")
                races += batch.map(\.0)
            }
        }
        lives.expectAllReleased()
        // A cancel that ended before the finish began must show; one that began after the
        // finish ended must not (Foundation ignores it); overlapping ones may go either way.
        var truth: [String: Truth] = [:]
        for race in races { truth[race.name] = Truth(state: .finished, cancelled: race.settledCancel) }
        let decided = races.filter { $0.settledCancel != nil }.count
        let dashboard = watcher.report()
        expectComplete(dashboard, truth, "the dashboard (seed \(seed), \(decided) of \(races.count) races decided)")
        // Where the two orders overlapped, the report must agree with Foundation's flag at the
        // finish: known exactly when it was the same just before and just after `finish()`.
        // (Foundation's own cancel checks `isFinished` a moment before it stores the flag, so
        // the flag can still land on an operation that finished: the state at the finish is
        // what the report shows.)
        let listed = dashboard.byName
        let known = races.filter(\.flagAtFinishIsKnown)
        let disagreeing = known.filter { race in
            listed[race.name].map { $0.cancelled != race.cancelledBeforeFinish.load(ordering: .relaxed) } ?? false
        }
        let described = disagreeing.prefix(8).map { "\($0.name) shown \(listed[$0.name]?.cancelled == true ? "" : "not ")cancelled" }
        #expect(disagreeing.isEmpty, "\(disagreeing.count) of \(known.count) differ from isCancelled at their finish (seed \(seed)): \(described)")
        #expect(known.count > races.count / 2, "only \(known.count) of \(races.count) races had a known flag at the finish")
        let counters = watcher.model.stream.counters
        #expect(counters.anomalies == 0, "the stream broke its order (seed \(seed)): \(counters)")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }
}

/// One operation's finish against the app's cancel, with the order each step took.
final class Race: @unchecked Sendable {
    let name: String
    let finishSpin: Int
    let finishBegan = Atomic<Int>(0)
    let finishEnded = Atomic<Int>(0)
    let cancelBegan = Atomic<Int>(0)
    let cancelEnded = Atomic<Int>(0)
    /// `isCancelled` read just before and just after `finish()` on the finishing thread.
    let cancelledBeforeFinish = Atomic<Bool>(false)
    let cancelledAfterFinish = Atomic<Bool>(false)

    init(name: String, finishSpin: Int) {
        self.name = name
        self.finishSpin = finishSpin
    }

    /// True when the cancel ended before the finish began, false when it began after the finish
    /// ended, nil when they overlapped.
    var settledCancel: Bool? {
        let (finishBegan, finishEnded) = (finishBegan.load(ordering: .relaxed), finishEnded.load(ordering: .relaxed))
        let (cancelBegan, cancelEnded) = (cancelBegan.load(ordering: .relaxed), cancelEnded.load(ordering: .relaxed))
        if cancelEnded < finishBegan { return true }
        if cancelBegan > finishEnded { return false }
        return nil
    }

    /// Whether Foundation's flag at the finish is known: the same before and after `finish()`.
    var flagAtFinishIsKnown: Bool {
        cancelledBeforeFinish.load(ordering: .relaxed) == cancelledAfterFinish.load(ordering: .relaxed)
    }

    /// Busy work of a seeded length, so that the two threads meet at varying points.
    static func spin(_ count: Int) {
        var value = 0
        for index in 0..<count { value &+= index &* 31 }
        if value == -1 { print(value) }
    }
}
