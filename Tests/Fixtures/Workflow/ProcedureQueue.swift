import Foundation

/// What a `ProcedureQueue` tells its delegate. Every method has a default that does nothing.
public protocol ProcedureQueueDelegate: AnyObject, Sendable {
    /// `operation` is about to be handed to Foundation (its conditions' evaluator exists).
    func procedureQueue(_ queue: ProcedureQueue, willAdd operation: Operation)
    /// `operation` was handed to Foundation.
    func procedureQueue(_ queue: ProcedureQueue, didAdd operation: Operation)
    /// A procedure of the queue finished.
    func procedureQueue(_ queue: ProcedureQueue, didFinish procedure: Procedure)
    /// `isSuspended` was set.
    func procedureQueue(_ queue: ProcedureQueue, didSetSuspended suspended: Bool)
}

extension ProcedureQueueDelegate {
    public func procedureQueue(_ queue: ProcedureQueue, willAdd operation: Operation) {}
    public func procedureQueue(_ queue: ProcedureQueue, didAdd operation: Operation) {}
    public func procedureQueue(_ queue: ProcedureQueue, didFinish procedure: Procedure) {}
    public func procedureQueue(_ queue: ProcedureQueue, didSetSuspended suspended: Bool) {}
}

/// The framework's queue: prepares each procedure as it is added (its conditions' evaluator,
/// on a private queue of its own) and tells a delegate about adds, finishes and suspension.
open class ProcedureQueue: OperationQueue, @unchecked Sendable {
    // Safety: `storedDelegate` is guarded by `lock`.
    private let lock = NSLock()
    private weak var storedDelegate: ProcedureQueueDelegate?
    /// Runs the condition evaluators: private, no program can reach it.
    let evaluators: OperationQueue

    public override init() {
        evaluators = OperationQueue()
        super.init()
        evaluators.name = "condition evaluators"
    }

    /// Told of adds, finishes and suspension (held weakly).
    public var delegate: ProcedureQueueDelegate? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    open override func addOperation(_ operation: Operation) {
        let procedure = operation as? Procedure
        procedure?.willEnqueue(on: self)
        (operation as? GroupProcedure)?.adopt(outer: delegate)
        if let procedure {
            procedure.addDidFinishBlock { [weak self] finished in
                guard let self else { return }
                self.delegate?.procedureQueue(self, didFinish: finished)
            }
        }
        delegate?.procedureQueue(self, willAdd: operation)
        super.addOperation(operation)
        delegate?.procedureQueue(self, didAdd: operation)
    }

    /// One by one, so that each is prepared (Foundation's own version adds them directly).
    open override func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        for operation in operations { addOperation(operation) }
        if wait {
            for operation in operations { operation.waitUntilFinished() }
        }
    }

    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: block))
    }

    open override var isSuspended: Bool {
        get { super.isSuspended }
        set {
            super.isSuspended = newValue
            delegate?.procedureQueue(self, didSetSuspended: newValue)
        }
    }
}
