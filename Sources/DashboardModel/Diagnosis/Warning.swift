import OperationEvents

/// Something wrong the dashboard points out, like tokio-console's lints: computed here, only
/// displayed by the views.
public struct Warning: Codable, Sendable, Equatable {
    /// The lints.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// An asynchronous operation has been executing longer than the threshold: does it call finish()?
        case longRunningAsynchronous
        /// A synchronous operation has been executing longer than the threshold: its `main()` has
        /// not returned (blocked on a lock, a semaphore, a synchronous wait?).
        case longRunningSynchronous
        /// `isFinished` reads true but the queue was never told: it holds the operation forever.
        case unsignalledFinish
        /// A cancelled operation keeps executing past the threshold: it ignores `isCancelled`.
        case cancelledStillExecuting
        /// A dependency cycle: its members never become ready.
        case cycle
        /// Not ready after a dependency was removed before it finished (Foundation on Linux never
        /// takes it off its count).
        case notReadyWithoutDependencies
        /// Not ready with no unfinished dependency it lists, and no removal that explains it: a
        /// condition of its own (an `isReady` override) or of its framework (a dependency its
        /// `dependencies` override hides) holds it.
        case heldByCondition
        /// Ready, its queue running with a free slot, and not started for a while: the queue was
        /// never told it became ready (an `isReady` override without its KVO notification).
        case readyNotStarted
        /// Operations wait on a dependency that was never added to an observed queue.
        case dependencyNeverEnqueued
        /// A suspended queue holds operations waiting to start: none starts until it is resumed.
        case suspendedQueueWithWork
        /// Events were dropped; the view started again from a keyframe (or took the monitor's
        /// corrections from the live state).
        case droppedEvents
    }

    /// The operation concerned, if any (for a queue's warning, the first it would start).
    public var operation: OperationID?
    /// The queue concerned, for a queue's warning.
    public var queue: QueueID?
    /// The lint.
    public var kind: Kind
    /// One sentence saying what is wrong and what to check.
    public var message: String

    /// Creates a warning.
    public init(operation: OperationID?, queue: QueueID? = nil, kind: Kind, message: String) {
        self.operation = operation
        self.queue = queue
        self.kind = kind
        self.message = message
    }
}
