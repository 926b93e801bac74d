import Foundation
import OpScope
import WorkflowFixture

/// Reports a `ProcedureQueue`'s adds and suspension to OpScope: the wiring docs/embedding.md shows
/// for a framework's queue class, through the delegate the framework already has.
final class OpScopeQueueDelegate: ProcedureQueueDelegate {
    let monitor: OperationMonitor
    init(monitor: OperationMonitor) { self.monitor = monitor }

    func procedureQueue(_ queue: ProcedureQueue, willAdd operation: Operation) {
        // The framework's conditions are real dependencies its `dependencies` hides: named here.
        let hidden = (operation as? Procedure)?.conditionGate.map { [$0] } ?? []
        monitor.willAdd(operation, to: queue, hiddenDependencies: hidden)
    }

    func procedureQueue(_ queue: ProcedureQueue, didSetSuspended suspended: Bool) {
        monitor.queueDidChange(queue)
    }
}

/// How the program is watched.
enum Watching: String, CaseIterable, CustomStringConvertible, Sendable {
    /// Not at all: what the program does on its own.
    case unobserved
    /// `monitor.track(queue)`: everything sampled.
    case tracked
    /// The adapter API, from the framework's queue delegate.
    case adapter

    var description: String { rawValue }
}

/// A program written with the framework: one queue holding every kind of its operations, each
/// held by a gate the test opens, so that every state is reached by events, not by time.
///
/// - `fetch`: a procedure executing until `fetchGate` opens (it finishes later, from its work).
/// - `parse`: a procedure waiting for `fetch` (a visible dependency).
/// - `guarded`: a procedure held by a condition (`permission`): a hidden dependency.
/// - `group`: a group executing, its children on a queue of its own; `slowChild` waits for
///   `childGate`, `quickChild` finishes at once.
/// - `blocked`: a plain synchronous operation whose `main()` does not return until released.
/// - `plain`: a `BlockOperation` waiting for `parse`.
@MainActor
final class ProcedureWorld {
    let queue = ProcedureQueue()
    let fetchGate = Gate()
    let fetchStarted = Gate()
    let childGate = Gate()
    let childStarted = Gate()
    let permission = ManualCondition()
    let fetch: BlockProcedure
    let parse: BlockProcedure
    let guarded: BlockProcedure
    let quickChild: BlockProcedure
    let slowChild: BlockProcedure
    let group: GroupProcedure
    let blocked = BlockingOperation(name: "blocked")
    let plain: BlockOperation
    /// Set for the adapter: kept here, since the queue holds its delegate weakly.
    var delegate: OpScopeQueueDelegate?

    init() {
        queue.name = "workflow"
        queue.maxConcurrentOperationCount = 4
        let fetchGate = fetchGate, fetchStarted = fetchStarted, childGate = childGate, childStarted = childStarted
        fetch = BlockProcedure(name: "fetch") { finish in
            fetchStarted.open()
            DispatchQueue.global().async {
                fetchGate.wait()
                finish()
            }
        }
        parse = BlockProcedure(name: "parse") { finish in finish() }
        parse.addDependency(fetch)
        guarded = BlockProcedure(name: "guarded") { finish in finish() }
        guarded.add(condition: permission)
        quickChild = BlockProcedure(name: "quick child") { finish in finish() }
        slowChild = BlockProcedure(name: "slow child") { finish in
            childStarted.open()
            DispatchQueue.global().async {
                childGate.wait()
                finish()
            }
        }
        group = GroupProcedure(children: [quickChild, slowChild])
        group.name = "group"
        plain = BlockOperation {}
        plain.name = "plain"
        plain.addDependency(parse)
    }

    /// Every operation of the program by name, the group's children included.
    var operations: [String: Operation] {
        ["fetch": fetch, "parse": parse, "guarded": guarded, "group": group, "quick child": quickChild,
         "slow child": slowChild, "blocked": blocked, "plain": plain]
    }

    /// Watches the queue as `watching` says (before anything is added: the adapter reports adds).
    func watch(_ watching: Watching, by monitor: OperationMonitor?) {
        guard let monitor else { return }
        switch watching {
        case .unobserved: break
        case .tracked: monitor.track(queue)
        case .adapter:
            let delegate = OpScopeQueueDelegate(monitor: monitor)
            self.delegate = delegate
            queue.delegate = delegate
        }
    }

    /// Adds everything and waits until the executing ones are inside their work.
    func start() {
        queue.addOperations([fetch, parse, guarded, group, blocked, plain], waitUntilFinished: false)
        _ = fetchStarted.wait()
        _ = childStarted.wait()
        _ = blocked.waitUntilEntered()
    }

    /// Opens every gate and waits until the program's work is over.
    func finishEverything() {
        fetchGate.open()
        childGate.open()
        permission.satisfy()
        blocked.release()
        for operation in operations.values { operation.waitUntilFinished() }
        queue.waitUntilAllOperationsAreFinished()
        group.childQueue.waitUntilAllOperationsAreFinished()
    }

    /// What the program can observe of each operation at the end.
    struct Outcome: Equatable, CustomStringConvertible {
        var cancelled: Bool
        var finished: Bool
        /// `execute()` ran (procedures), or `main()` entered (the blocking operation).
        var executed: Bool?
        var dependencies: [String]

        var description: String {
            "cancelled \(cancelled), finished \(finished), executed \(executed.map(String.init) ?? "-"), after \(dependencies)"
        }
    }

    func outcomes(extra: [Operation] = []) -> [String: Outcome] {
        var all = operations
        for operation in extra { all[operation.name ?? "?"] = operation }
        let names = Dictionary(all.map { (ObjectIdentifier($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        return all.mapValues { operation in
            Outcome(cancelled: operation.isCancelled, finished: operation.isFinished,
                    executed: (operation as? Procedure)?.executed,
                    dependencies: operation.dependencies.map { names[ObjectIdentifier($0)] ?? "?" }.sorted())
        }
    }
}
