import Foundation

/// Runs child operations on a queue of its own and finishes when they all have. Cancelling the
/// group cancels its children. The delegate of the queue that runs the group (when it has one)
/// hears about the children's adds too, as the group's own queue reports them.
open class GroupProcedure: Procedure, ProcedureQueueDelegate, @unchecked Sendable {
    /// The group's own queue, suspended until the group executes.
    public let childQueue = ProcedureQueue()
    private let children: [Operation]
    private let lock = NSLock()
    // Safety: guarded by `lock`.
    private weak var outerDelegate: ProcedureQueueDelegate?

    public init(children: [Operation]) {
        self.children = children
        super.init()
        childQueue.isSuspended = true
        childQueue.delegate = self
    }

    /// The delegate of the queue that will run the group: set by `ProcedureQueue`.
    func adopt(outer delegate: ProcedureQueueDelegate?) {
        lock.withLock { outerDelegate = delegate }
    }

    open override func execute() {
        let done = BlockOperation { [weak self] in self?.finish() }
        done.name = "\(name ?? "group") done"
        for child in children { done.addDependency(child) }
        childQueue.addOperations(children + [done], waitUntilFinished: false)
        childQueue.isSuspended = false
    }

    /// Cancels the children too; the group still finishes once they have.
    open override func cancel() {
        super.cancel()
        for child in children { child.cancel() }
    }

    public func procedureQueue(_ queue: ProcedureQueue, willAdd operation: Operation) {
        lock.withLock { outerDelegate }?.procedureQueue(queue, willAdd: operation)
    }

    public func procedureQueue(_ queue: ProcedureQueue, didSetSuspended suspended: Bool) {
        lock.withLock { outerDelegate }?.procedureQueue(queue, didSetSuspended: suspended)
    }
}
