import Foundation

/// Something that must hold before a procedure executes; evaluated once its dependencies have
/// finished. A condition that fails cancels the procedure.
public protocol Condition: Sendable {
    /// Calls `completion` with the verdict, at once or later, on any thread.
    func evaluate(for procedure: Procedure, completion: @escaping @Sendable (Bool) -> Void)
}

/// A condition decided from outside: it holds the procedure until `satisfy()` or `fail()`.
public final class ManualCondition: Condition, @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private var verdict: Bool?
    private var waiting: [@Sendable (Bool) -> Void] = []

    public init() {}

    public func evaluate(for procedure: Procedure, completion: @escaping @Sendable (Bool) -> Void) {
        let known: Bool? = lock.withLock {
            if verdict == nil { waiting.append(completion) }
            return verdict
        }
        if let known { completion(known) }
    }

    /// Lets the procedure run.
    public func satisfy() { decide(true) }
    /// Cancels the procedure.
    public func fail() { decide(false) }

    private func decide(_ value: Bool) {
        let callbacks: [@Sendable (Bool) -> Void] = lock.withLock {
            guard verdict == nil else { return [] }
            verdict = value
            defer { waiting = [] }
            return waiting
        }
        for callback in callbacks { callback(value) }
    }
}

/// Evaluates a procedure's conditions: an asynchronous operation the procedure depends on,
/// which its `dependencies` does not list. Runs on its queue's private evaluator queue.
final class ConditionEvaluator: Operation, @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private weak var procedure: Procedure?
    private let conditions: [Condition]
    private var executing = false
    private var finished = false
    private var remaining = 0
    private var failed = false

    init(procedure: Procedure, conditions: [Condition]) {
        self.procedure = procedure
        self.conditions = conditions
        super.init()
        name = "conditions of \(procedure.name ?? "a procedure")"
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        guard let procedure, !isCancelled else {
            end()
            return
        }
        willChangeValue(forKey: "isExecuting")
        lock.withLock {
            executing = true
            remaining = conditions.count
        }
        didChangeValue(forKey: "isExecuting")
        for condition in conditions {
            condition.evaluate(for: procedure) { [self] holds in
                let done: Bool = lock.withLock {
                    if !holds { failed = true }
                    remaining -= 1
                    return remaining == 0
                }
                guard done else { return }
                if lock.withLock({ failed }) { self.procedure?.cancel() }
                end()
            }
        }
    }

    private func end() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock {
            executing = false
            finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
