import Foundation
@_spi(Benchmark) import OperationBridge
import OperationEvents

/// Single-threaded costs of the bridge's pieces, in nanoseconds per operation (best of 5).
struct MicroBenchmark {
    var count = 200_000

    func run() {
        print("single-threaded costs, ns per operation (best of 5)")
        report("ObservableBlockOperation init+start, unobserved", unobservedStart)
        report("ObservableBlockOperation init+start, observed", observedStart)
        report("  of which: registration (added event)", setup: {
            (OperationMonitor(), (0..<count).map { _ in ObservableBlockOperation {} })
        }, measured: { state in
            let queue = ObservedOperationQueue(monitor: state.0, name: "micro")
            for (index, operation) in state.1.enumerated() {
                queue.registerForBenchmark(operation)
                if index % 10_000 == 0 { _ = state.0.drainEvents() }
            }
            _ = state.0.drainEvents()
        })
        report("BlockOperation init+start", plainBlockStart)
        report("BlockOperation init+start with armed sentinel", hookedStart)
        report("  floor: bare dependent, armed, fired, detached", foundationFloor)
        report("  not exact: a completion block (runs later, elsewhere)", completionBlockStart)
        report("  not exact: an appended execution block", executionBlockStart)
        report("emit one event (clock + push)", emitOnly)
        report("drain one event", drainOnly)
    }

    private func report(_ title: String, _ body: () -> Void) {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = processCPUSeconds()
            body()
            best = min(best, (processCPUSeconds() - start) / Double(count) * 1e9)
        }
        print(String(format: "  %-52@ %8.0f", title as NSString, best))
    }

    /// Like `report`, but times only `measured`, after an untimed `setup`.
    private func report<State>(_ title: String, setup: () -> State, measured: (State) -> Void) {
        var best = Double.infinity
        for _ in 0..<5 {
            let state = setup()
            let start = processCPUSeconds()
            measured(state)
            best = min(best, (processCPUSeconds() - start) / Double(count) * 1e9)
        }
        print(String(format: "  %-52@ %8.0f", title as NSString, best))
    }

    private func unobservedStart() {
        for _ in 0..<count { ObservableBlockOperation {}.start() }
    }

    private func observedStart() {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "micro")
        for index in 0..<count {
            let operation = ObservableBlockOperation {}
            queue.registerForBenchmark(operation)
            operation.start()
            if index % 10_000 == 0 { _ = monitor.drainEvents() }
        }
        _ = monitor.drainEvents()
    }

    private func plainBlockStart() {
        for _ in 0..<count { BlockOperation {}.start() }
    }

    private func hookedStart() {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "micro")
        for index in 0..<count {
            let operation = BlockOperation {}
            queue.registerForBenchmark(operation)
            operation.start()
            if index % 10_000 == 0 { _ = monitor.drainEvents() }
        }
        _ = monitor.drainEvents()
    }

    /// What any exact finish hook costs on Linux: Foundation's own work to link a dependent,
    /// call its `isReady` at the finish, and unlink it. No bookkeeping, no events.
    private func foundationFloor() {
        let dependent = BareDependent()
        for _ in 0..<count {
            let operation = BlockOperation {}
            dependent.addDependency(operation)
            operation.start()
            dependent.removeDependency(operation)
        }
        if dependent.fired == -1 { print(dependent.fired) }
    }

    /// The other per-operation signal Foundation gives: a completion block. It is dispatched to
    /// a global queue after the finish (so it is late and unordered, not exact) and replaces
    /// the app's own block. Timed until every block ran (CPU of all threads).
    private func completionBlockStart() {
        let group = DispatchGroup()
        for _ in 0..<count {
            let operation = BlockOperation {}
            group.enter()
            operation.completionBlock = { group.leave() }
            operation.start()
        }
        group.wait()
    }

    /// A `BlockOperation` runs its blocks in order, so an appended one runs at the end of
    /// `main()`; but the app sees it in `executionBlocks`, a block it appends later runs after
    /// it, and a cancelled operation never runs it.
    private func executionBlockStart() {
        for _ in 0..<count {
            let operation = BlockOperation {}
            operation.addExecutionBlock {}
            operation.start()
        }
    }

    private func emitOnly() {
        let monitor = OperationMonitor()
        for index in 0..<count {
            monitor.emitForBenchmark(.started(operation: OperationID(index)))
            if index % 10_000 == 0 { _ = monitor.drainEvents() }
        }
        _ = monitor.drainEvents()
    }

    private func drainOnly() {
        let monitor = OperationMonitor()
        var drained = 0
        for round in 0..<(count / 10_000) {
            for index in 0..<10_000 { monitor.emitForBenchmark(.started(operation: OperationID(round * 10_000 + index))) }
            drained += monitor.drainEvents().events.count
        }
        if drained == -1 { print(drained) }
    }
}

/// A dependent that only counts the finishes it is told of.
private final class BareDependent: Operation, @unchecked Sendable {
    var fired = 0
    override var isReady: Bool {
        fired &+= 1
        return true
    }
}
