import Foundation

/// The framework's operation: a locked state machine, conditions evaluated before it runs,
/// observers told of its life. Written the way Operation frameworks are (ProcedureKit,
/// PSOperations), to show OpScope code it does not own. It imports nothing of OpScope.
///
/// Its rules, which a tool must respect: dependencies may change only before it executes (the
/// mutators stop the program otherwise, as such frameworks do); `dependencies` lists only the
/// dependencies the program added, not the evaluator of its conditions, which is a real
/// Foundation dependency all the same.
open class Procedure: Operation, @unchecked Sendable {
    // Safety: every stored property is guarded by `lock`.

    /// Where a procedure is in its life; it only moves forward.
    public enum State: Int, Comparable, Sendable {
        case initialized, pending, executing, finishing, finished
        public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let lock = NSLock()
    private var state = State.initialized
    private var directDependencies: [Operation] = []
    private var conditionList: [Condition] = []
    private var evaluator: ConditionEvaluator?
    private var finishObservers: [@Sendable (Procedure) -> Void] = []
    private var didExecute = false

    public override init() {
        super.init()
    }

    /// The current state.
    public var procedureState: State { lock.withLock { state } }

    /// True once `execute()` was called (a cancelled procedure finishes without executing).
    public var executed: Bool { lock.withLock { didExecute } }

    /// The operation that evaluates the conditions, once enqueued: a dependency of this
    /// procedure that `dependencies` does not list. Public for tools only.
    public var conditionGate: Operation? { lock.withLock { evaluator } }

    // MARK: Dependencies (refused once executing)

    open override var dependencies: [Operation] { lock.withLock { directDependencies } }

    open override func addDependency(_ operation: Operation) {
        lock.withLock {
            precondition(state < .executing, "Procedure: dependencies cannot be modified after execution has begun")
            directDependencies.append(operation)
        }
        super.addDependency(operation)
    }

    open override func removeDependency(_ operation: Operation) {
        lock.withLock {
            precondition(state < .executing, "Procedure: dependencies cannot be modified after execution has begun")
            directDependencies.removeAll { $0 === operation }
        }
        super.removeDependency(operation)
    }

    // MARK: Conditions and observers

    /// Adds a condition, evaluated once the dependencies finished; one that fails cancels the
    /// procedure. Only before the procedure is enqueued.
    public func add(condition: Condition) {
        lock.withLock {
            precondition(state == .initialized, "Procedure: conditions are added before the procedure is enqueued")
            conditionList.append(condition)
        }
    }

    /// Calls `block` once the procedure has finished.
    public func addDidFinishBlock(_ block: @escaping @Sendable (Procedure) -> Void) {
        lock.withLock { finishObservers.append(block) }
    }

    /// Called by `ProcedureQueue` as the procedure is added: makes the condition evaluator (a
    /// hidden dependency, run on the queue's private queue).
    func willEnqueue(on queue: ProcedureQueue) {
        let made: ConditionEvaluator? = lock.withLock {
            precondition(state == .initialized, "Procedure: a procedure is enqueued once")
            state = .pending
            guard !conditionList.isEmpty else { return nil }
            let gate = ConditionEvaluator(procedure: self, conditions: conditionList)
            evaluator = gate
            return gate
        }
        guard let made else { return }
        for dependency in dependencies { made.addDependency(dependency) }
        super.addDependency(made)
        queue.evaluators.addOperation(made)
    }

    // MARK: Running

    open override var isExecuting: Bool { lock.withLock { state == .executing || state == .finishing } }
    open override var isFinished: Bool { lock.withLock { state == .finished } }

    open override func start() {
        let go: Bool = lock.withLock {
            guard state < .executing else { return false }
            return true
        }
        guard go else { return }
        if isCancelled {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        lock.withLock {
            state = .executing
            didExecute = true
        }
        didChangeValue(forKey: "isExecuting")
        execute()
    }

    /// The procedure's work: call `finish()` when done (from any thread).
    open func execute() {
        finish()
    }

    /// Ends the procedure; later calls are ignored.
    public func finish() {
        let wasExecuting: Bool? = lock.withLock {
            guard state < .finishing else { return nil }
            let executing = state == .executing
            state = .finishing
            return executing
        }
        guard let wasExecuting else { return }
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        willChangeValue(forKey: "isFinished")
        let observers: [@Sendable (Procedure) -> Void] = lock.withLock {
            state = .finished
            defer { finishObservers = [] }
            return finishObservers
        }
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
        for observer in observers { observer(self) }
    }
}
