import Foundation
@testable import OperationBridge
import OperationEvents
import Testing

/// Scenarios of the kind Foundation's own OperationQueue tests exercise, run on an
/// `ObservedOperationQueue`: whatever the threads do, the stream must show each dependency's
/// finish before its dependents' readiness and start. Foundation asks a finished operation's
/// dependents `isReady` in hash order, so without ordering a dependent was reported ready, or
/// even run, before the hidden dependent that reports the finish was asked.
@Suite("Causal order of the stream, on Foundation-style scenarios", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct CausalOrderTests {
    /// How the scenario's operations are made.
    enum Mix: String, CaseIterable, CustomStringConvertible {
        /// Plain `BlockOperation`s added with `addOperation(_:)`: hooked.
        case blocks
        /// Hooked dependencies, instrumented dependents (their readiness is reported from
        /// inside Foundation's finish path, the sharpest race).
        case instrumentedDependents

        var description: String { rawValue }

        func make(dependent: Bool, _ work: @escaping @Sendable () -> Void) -> Operation {
            if self == .instrumentedDependents, dependent { return ObservableBlockOperation(block: work) }
            return BlockOperation(block: work)
        }
    }

    /// Runs `scenario` `rounds` times, each on a fresh monitor, and checks every stream as a
    /// consumer subscribed before the work receives it from the hub.
    private func repeatScenario(_ rounds: Int, sourceLocation: SourceLocation = #_sourceLocation,
                                _ scenario: (OperationMonitor) -> Void) {
        var failures: [String] = []
        for round in 0..<rounds {
            let monitor = OperationMonitor()
            let log = EventLog(monitor)
            scenario(monitor)
            log.drain()
            let events = log.events
            let problems = causalViolations(events)
            if !problems.isEmpty { failures.append("round \(round): \(problems.prefix(3))") }
        }
        #expect(failures.count == 0, "\(failures.count) of \(rounds) streams out of causal order; \(failures.prefix(3))",
                sourceLocation: sourceLocation)
    }

    @Test("a dependency cycle broken by cancelling one member", arguments: Mix.allCases)
    func cycleBrokenByCancel(mix: Mix) {
        repeatScenario(60) { monitor in
            let queue = ObservedOperationQueue(monitor: monitor, name: "cycle")
            let ran = Recorder<String>()
            let first = mix.make(dependent: false) { ran.append("first") }
            let second = mix.make(dependent: true) { ran.append("second") }
            let after = mix.make(dependent: true) { ran.append("after") }
            first.addDependency(second)
            second.addDependency(first)
            after.addDependency(second)
            queue.addOperation(first)
            queue.addOperation(second)
            queue.addOperation(after)
            first.cancel()
            queue.waitUntilAllOperationsAreFinished()
            #expect(ran.all == ["second", "after"])
        }
    }

    @Test("a chain whose links alternate between two queues", arguments: Mix.allCases)
    func dependencyAcrossQueues(mix: Mix) {
        repeatScenario(40) { monitor in
            let queues = [ObservedOperationQueue(monitor: monitor, name: "left"),
                          ObservedOperationQueue(monitor: monitor, name: "right")]
            let order = Recorder<Int>()
            var previous: Operation?
            var chain: [Operation] = []
            for index in 0..<12 {
                let operation = mix.make(dependent: index > 0) { order.append(index) }
                if let previous { operation.addDependency(previous) }
                chain.append(operation)
                previous = operation
            }
            // Dependents first, so each waits when it is added.
            for (index, operation) in chain.enumerated().reversed() { queues[index % 2].addOperation(operation) }
            queues[0].waitUntilAllOperationsAreFinished()
            queues[1].waitUntilAllOperationsAreFinished()
            #expect(order.all == Array(0..<12))
        }
    }

    @Test("execution order of dependent operations: fan-out, fan-in, and priorities that dependencies override",
          arguments: Mix.allCases)
    func executionOrder(mix: Mix) {
        repeatScenario(40) { monitor in
            let queue = ObservedOperationQueue(monitor: monitor, name: "order", maxConcurrentOperationCount: 2)
            let order = Recorder<String>()
            let root = mix.make(dependent: false) { order.append("root") }
            let branches = (0..<4).map { index in mix.make(dependent: true) { order.append("branch\(index)") } }
            let join = mix.make(dependent: true) { order.append("join") }
            root.queuePriority = .veryLow
            join.queuePriority = .veryHigh
            for branch in branches {
                branch.addDependency(root)
                join.addDependency(branch)
            }
            queue.addOperation(join)
            for branch in branches { queue.addOperation(branch) }
            queue.addOperation(root)
            queue.waitUntilAllOperationsAreFinished()
            let all = order.all
            #expect(all.first == "root" && all.last == "join" && all.count == 6)
        }
    }
}
