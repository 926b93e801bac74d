import OperationEvents

/// Why an operation that is neither executing nor finished is not running, down to the root cause.
public struct Diagnosis: Codable, Sendable, Equatable {
    /// The kinds of reason, from the queue's point of view.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Waits for dependencies; `chain` leads to the one that blocks everything.
        case waitingOnDependencies
        /// Ready, but its queue is suspended.
        case queueSuspended
        /// Ready, but its queue already runs its maximum number of operations (`blockers` hold the slots).
        case concurrencyLimit
        /// Ready and next in line (or behind `blockers`, which start first).
        case waitingForTurn
        /// In no observed queue: nothing will start it unless the app does.
        case notInAnyQueue
        /// Part of a dependency cycle (`blockers`): it can never become ready.
        case cycle
        /// Cancelled; finishes as soon as its queue starts it (needs a free slot and a running queue).
        case cancelledWaitingForSlot
        /// Not ready although no dependency is unfinished: a custom `isReady`, or Foundation lost
        /// count (on Linux, `removeDependency` of an unfinished dependency never releases it).
        case notReadyWithoutDependencies
    }

    /// The operation diagnosed.
    public var operation: OperationID
    /// The reason.
    public var kind: Kind
    /// What directly holds it: unfinished dependencies, the operations holding the slots, the
    /// operations ahead of it, or the other members of its cycle.
    public var blockers: [OperationID]
    /// From this operation to the root cause: `[C, B, A]` for "C waits on B waits on A".
    public var chain: [OperationID]
    /// The operation at the root of the chain, when the cause is an operation.
    public var rootCause: OperationID?
    /// The queue involved, when the cause is a queue's state.
    public var queue: QueueID?
    /// One sentence, e.g. `#9 update waits on #8 parse waits on #7 download: #7 download executing 34 s, asynchronous`.
    public var message: String

    /// Creates a diagnosis.
    public init(operation: OperationID, kind: Kind, blockers: [OperationID], chain: [OperationID],
                rootCause: OperationID?, queue: QueueID?, message: String) {
        self.operation = operation
        self.kind = kind
        self.blockers = blockers
        self.chain = chain
        self.rootCause = rootCause
        self.queue = queue
        self.message = message
    }
}
