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
        report("emit one event (clock + push)", timed: emitOnly)
        report("drain one event (ring, causal order, one subscription; history on the hub's thread)", drainOnly)
        report("  order one event: add, start, finish of a chain", orderChain)
        report("  order one event: every dependent held, then let out", orderHeld)
    }

    private func report(_ title: String, _ body: () -> Void) {
        report(title, setup: {}, measured: { _ in body() })
    }

    /// Like `report`, but times only `measured`, after an untimed `setup`.
    private func report<State>(_ title: String, setup: () -> State, measured: (State) -> Void) {
        report(title, timed: {
            let state = setup()
            let start = processCPUSeconds()
            measured(state)
            return processCPUSeconds() - start
        })
    }

    /// Like `report`, for a body that times only its own measured parts (CPU seconds). Every
    /// row is the best of five runs, in nanoseconds per operation.
    private func report(_ title: String, timed body: () -> Double) {
        var best = Double.infinity
        for _ in 0..<5 { best = min(best, body() / Double(count) * 1e9) }
        print(String(format: "  %-52@ %8.0f", title as NSString, best))
    }

    private func unobservedStart() {
        for _ in 0..<count { ObservableBlockOperation {}.start() }
    }

    private func observedStart() {
        registeredStart { ObservableBlockOperation {} }
    }

    /// Starts `count` operations made by `make`, each registered with an observed queue first
    /// (events drained every 10,000 so that the ring never fills).
    private func registeredStart<Made: Operation>(_ make: () -> Made) {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "micro")
        for index in 0..<count {
            let operation = make()
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
        registeredStart { BlockOperation {} }
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

    /// The producer's side alone: stamping and pushing announced operations' events. The hub
    /// runs only when read (no pump thread), and its draining between chunks is not timed: with
    /// a pump thread the process's CPU time would include the hub's work on every event (the
    /// "drain" row below).
    private func emitOnly() -> Double {
        var configuration = OperationMonitor.Configuration()
        configuration.pumpsAutomatically = false
        let monitor = OperationMonitor(configuration: configuration)
        let chunk = 9_999
        var timed = 0.0
        var emitted = 0
        var next = 1
        while emitted < count {
            let infos = (0..<(chunk / 3)).map { index in OperationInfo(id: OperationID(next + index), queue: QueueID(1)) }
            next += infos.count
            let start = processCPUSeconds()
            for info in infos {
                monitor.emitForBenchmark(.operationAdded(info))
                monitor.emitForBenchmark(.started(operation: info.id))
                monitor.emitForBenchmark(.finished(operation: info.id, cancelled: false))
            }
            timed += processCPUSeconds() - start
            emitted += infos.count * 3
            _ = monitor.drainEvents()
        }
        return timed * Double(count) / Double(emitted)
    }

    /// Ring and hub together, as a consumer reads: announced operations, each started and
    /// finished (every event goes through the ordering rules into one buffer; the hub's thread
    /// folds the history meanwhile, `opscope-bench hub` times that too).
    private func drainOnly() {
        let monitor = OperationMonitor()
        var drained = 0
        let perRound = 9_999
        for round in 0..<(count / perRound) {
            for index in 0..<(perRound / 3) {
                let id = OperationID(round * perRound + index + 1)
                monitor.emitForBenchmark(.operationAdded(OperationInfo(id: id, queue: QueueID(1))))
                monitor.emitForBenchmark(.started(operation: id))
                monitor.emitForBenchmark(.finished(operation: id, cancelled: false))
            }
            drained += monitor.drainEvents().events.count
        }
        if drained == -1 { print(drained) }
    }

    /// The sequencer alone, events in causal order: a chain, each operation depending on the
    /// one before (the common case: nothing is held, every dependency is already finished).
    private func orderChain() {
        var sequencer = CausalSequencer()
        var output: [MonitorEvent] = []
        output.reserveCapacity(10_000)
        var time: UInt64 = 0
        for index in 0..<(count / 3) {
            let id = OperationID(index + 1)
            let dependencies = index == 0 ? [] : [OperationID(index)]
            for change: MonitorEvent.Change in [
                .operationAdded(OperationInfo(id: id, queue: QueueID(1), dependencies: dependencies, isReady: false)),
                .started(operation: id), .finished(operation: id, cancelled: false),
            ] {
                time &+= 100
                sequencer.push(MonitorEvent(time: time, change: change), into: &output)
            }
            if output.count >= 9_000 { output.removeAll(keepingCapacity: true) }
        }
    }

    /// The sequencer's worst common case: a fan-out whose dependents all report their start
    /// before the dependency's finish, in rounds of 1,000, so every start is held and let out.
    private func orderHeld() {
        var sequencer = CausalSequencer()
        var output: [MonitorEvent] = []
        var time: UInt64 = 0
        var next = 1
        func push(_ change: MonitorEvent.Change) {
            time &+= 100
            sequencer.push(MonitorEvent(time: time, change: change), into: &output)
        }
        while next < count / 3 {
            let root = OperationID(next)
            push(.operationAdded(OperationInfo(id: root, queue: QueueID(1))))
            push(.started(operation: root))
            let dependents = (next + 1)..<(next + 1_000)
            for id in dependents {
                push(.operationAdded(OperationInfo(id: OperationID(id), queue: QueueID(1), dependencies: [root], isReady: false)))
            }
            for id in dependents { push(.started(operation: OperationID(id))) }
            push(.finished(operation: root, cancelled: false))
            for id in dependents { push(.finished(operation: OperationID(id), cancelled: false)) }
            next += 1_000
            output.removeAll(keepingCapacity: true)
        }
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
