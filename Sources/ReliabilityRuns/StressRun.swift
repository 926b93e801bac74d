import DashboardModel
import Foundation
import OperationBridge
import OperationEvents
import Synchronization

/// The stress: `adders` threads add operations while the dashboard's commands (cancel, cancel
/// all, suspend/resume, max concurrency, add work) hit the same queues at random; a watchdog
/// fails the run if nothing moves for `stallSeconds`.
public struct StressRun: Sendable {
    public var seconds: Double
    public var adders = 4
    public var queues = 3
    public var stallSeconds = 10.0
    /// Whether an operation may depend on the previous one added by its thread in another queue.
    public var crossQueueChains = true
    /// Which commands the random commander sends (0-9 as in `run`; all by default).
    public var commandKinds = Set(0..<10)

    public init(seconds: Double) { self.seconds = seconds }

    public func run() -> RunResult {
        var result = RunResult()
        let started = Date()
        let monitor = OperationMonitor()
        let life = LifeCounter()
        let reducer = LiveReducer(monitor: monitor)
        reducer.start()
        let submitted = Atomic<Int>(0)
        let commands = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        var stalled = false
        do {
            let queueList = (0..<queues).map {
                ObservedOperationQueue(monitor: monitor, name: "stress-\($0)", maxConcurrentOperationCount: 1 + $0 * 3)
            }
            for queue in queueList {
                try? monitor.catalog.register("spin-\(queue.name!)", summary: "a short piece of work", queue: queue) { _ in
                    CountedOperation(life, spin: 500)
                }
            }
            let groups = DispatchGroup()
            // Adders.
            for adder in 0..<adders {
                let thread = Thread {
                    var random = SystemRandomNumberGenerator()
                    var previous: CountedOperation?
                    var previousQueue = -1
                    while !stop.load(ordering: .relaxed) {
                        let index = (adder + Int.random(in: 0..<queueList.count, using: &random)) % queueList.count
                        let queue = queueList[index]
                        if !crossQueueChains, index != previousQueue { previous = nil }
                        previousQueue = index
                        if queue.operationCount > 400 {
                            Thread.sleep(forTimeInterval: 0.001)
                            continue
                        }
                        let operation = CountedOperation(life, spin: Int.random(in: 10...2_000, using: &random))
                        if let previous, Bool.random(using: &random) { operation.addDependency(previous) }
                        queue.addOperation(operation)
                        previous = Bool.random(using: &random) ? operation : nil
                        submitted.wrappingAdd(1, ordering: .relaxed)
                    }
                    groups.leave()
                }
                groups.enter()
                thread.start()
            }
            // The dashboard's commands, at random, on ids the model knows (and some it does not).
            let commander = Thread {
                var random = SystemRandomNumberGenerator()
                var live: [OperationID] = []
                var queueIDs: [QueueID] = []
                var lookedAt = Date.distantPast
                while !stop.load(ordering: .relaxed) {
                    // The dashboard's view of the ids, refreshed ten times a second (as often as a
                    // person could act on it); some will be gone by the time a command uses them.
                    if Date().timeIntervalSince(lookedAt) > 0.1 {
                        let model = reducer.current
                        live = model.operations.values.filter { $0.state != .finished }.map(\.id)
                        queueIDs = model.queues.ids
                        lookedAt = Date()
                    }
                    let queue = queueIDs.randomElement(using: &random)
                    let command: MonitorCommand?
                    let kind = Int.random(in: 0..<10, using: &random)
                    guard commandKinds.contains(kind) else { continue }
                    switch kind {
                    case 0, 1, 2:
                        let ids = (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in live.randomElement(using: &random) }
                        command = ids.isEmpty ? nil : .cancel(operations: ids)
                    case 3: command = .cancel(operations: [OperationID(Int.random(in: 10_000_000...20_000_000, using: &random))])
                    case 4: command = queue.map { .cancelAll(queue: $0) }
                    case 5, 6: command = queue.map { .setSuspended(queue: $0, suspended: Bool.random(using: &random)) }
                    case 7: command = queue.map { .setMaxConcurrency(queue: $0, count: Int.random(in: 1...8, using: &random)) }
                    default:
                        let template = "spin-" + queueList.randomElement(using: &random)!.name!
                        let dependencies = live.randomElement(using: &random).map { [$0] } ?? []
                        command = .addWork(WorkRequest(template: template, count: Int.random(in: 1...20, using: &random), dependencies: dependencies))
                    }
                    if let command {
                        commands.wrappingAdd(1, ordering: .relaxed)
                        if case .failure = monitor.perform(command) { refused.wrappingAdd(1, ordering: .relaxed) }
                    }
                    Thread.sleep(forTimeInterval: 0.002)
                }
                groups.leave()
            }
            groups.enter()
            commander.start()
            // Watchdog: the adders and the queues must keep moving.
            var lastSubmitted = 0
            var lastChange = Date()
            while Date().timeIntervalSince(started) < seconds {
                Thread.sleep(forTimeInterval: 0.1)
                let now = submitted.load(ordering: .relaxed)
                if now != lastSubmitted {
                    lastSubmitted = now
                    lastChange = Date()
                } else if Date().timeIntervalSince(lastChange) > stallSeconds {
                    stalled = true
                    break
                }
            }
            stop.store(true, ordering: .relaxed)
            if groups.wait(timeout: .now() + stallSeconds) == .timedOut { stalled = true }
            // Leave the queues as a person would: resumed, and drained.
            for queue in queueList { queue.isSuspended = false }
            let drained = Date().addingTimeInterval(60)
            while queueList.contains(where: { $0.operationCount > 0 }), Date() < drained { Thread.sleep(forTimeInterval: 0.01) }
            if queueList.contains(where: { $0.operationCount > 0 }) { result.problems.append("queues did not drain within 60 s") }
            for queue in queueList { _ = monitor.catalog.unregister("spin-\(queue.name!)") }
        }
        result.collect(life: life, reducer: reducer, monitor: monitor)
        result.operations = submitted.load(ordering: .relaxed)
        result.seconds = Date().timeIntervalSince(started)
        result.commands = commands.load(ordering: .relaxed)
        result.refused = refused.load(ordering: .relaxed)
        if stalled { result.problems.append("no progress for \(stallSeconds) s: deadlock") }
        result.problems += result.sharedProblems()
        if result.commands == 0 { result.problems.append("no command was performed") }
        return result
    }
}
