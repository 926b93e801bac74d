import OperationEvents

/// Why an operation that is neither executing nor finished is not running, down to the root cause.
///
/// A diagnosis names the root cause, the length of the chain that leads to it and the next link
/// only, so that every diagnosis has a bounded size however deep the chain: the full path is
/// reconstructed by following `next` from diagnosis to diagnosis (`path(from:through:limit:)`),
/// or asked for with `DashboardModel.dependencyChain(of:)`.
public struct Diagnosis: Codable, Sendable, Equatable {
    /// The kinds of reason, from the queue's point of view.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Waits for dependencies; `next` leads to the one that blocks everything.
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
        /// Not ready after a dependency was removed before it finished: on Linux Foundation never
        /// takes a removed unfinished dependency off its count, so only `cancel()` releases it.
        case notReadyWithoutDependencies
        /// Not ready, with no unfinished dependency it lists and no removal that explains it: a
        /// condition of its own (an `isReady` override) or of its framework (a dependency its
        /// `dependencies` override hides, a lock) holds it. Only what the stream shows is claimed.
        case heldByCondition
        /// Ready, its queue running with a free slot, yet not started for a while: Foundation
        /// does not see it ready (an `isReady` that turned true without its KVO notification),
        /// or the threads that run the queue's work are all busy.
        case readyNotStarted
    }

    /// The operation diagnosed.
    public var operation: OperationID
    /// The reason.
    public var kind: Kind
    /// What directly holds it: its unfinished dependencies, the operations holding the slots
    /// (the first 20), the first operations ahead of it (5), or other members of its cycle (20).
    public var blockers: [OperationID]
    /// The next link towards the root cause: the dependency it waits on whose own cause is the
    /// worst (`waitingOnDependencies` only).
    public var next: OperationID?
    /// Operations from this one to the root cause, both counted: 3 for "C waits on B waits on
    /// A"; 1 when the cause is the operation's own situation.
    public var chainLength: Int
    /// The operation at the root of the chain, when the cause is an operation.
    public var rootCause: OperationID?
    /// The root cause's queue: the queue whose state holds the root (suspended, full, not
    /// starting it), else the root operation's own. For an operation that waits on another
    /// queue's work this is that queue, not its own (`OperationRecord.queue` is its own).
    public var queue: QueueID?
    /// One sentence of bounded length, e.g. `#9 update waits on #8 parse waits on #7 download:
    /// #7 download executing 34 s, asynchronous`; a long chain is shortened to its first links,
    /// its length and its root.
    public var message: String

    /// Creates a diagnosis.
    public init(operation: OperationID, kind: Kind, blockers: [OperationID], next: OperationID? = nil, chainLength: Int = 1,
                rootCause: OperationID?, queue: QueueID?, message: String) {
        self.operation = operation
        self.kind = kind
        self.blockers = blockers
        self.next = next
        self.chainLength = chainLength
        self.rootCause = rootCause
        self.queue = queue
        self.message = message
    }

    /// What to do about a suspended queue, as Foundation has it (no key of any viewer: the
    /// report says it too).
    public static let suspendedQueueAdvice = "resume it (isSuspended = false)"

    /// What to check about a ready operation its queue does not start. Foundation caches
    /// readiness and asks `isReady` again only when told, or (on Linux) in the pass after
    /// something else happens on the queue.
    public static let readyNotStartedAdvice = "the queue does not see it ready. Does its isReady turn true without "
        + "willChangeValue/didChangeValue(forKey: \"isReady\")? Foundation caches readiness and asks again only when told "
        + "(on Linux also when other work of the queue finishes). Or are the threads that run the queue's work all busy?"

    /// What to check about a synchronous operation executing past the long-running threshold:
    /// Foundation finishes it when `main()` returns, so it is still inside `main()`.
    public static let unreturnedSynchronousAdvice = "main() has not returned: is it blocked (a lock, a semaphore, a "
        + "synchronous wait on other work) or looping? Cancelling does not stop it unless main() checks isCancelled"

    /// What to check about an asynchronous operation executing past the long-running threshold.
    /// Cancelling does not finish an executing operation, and its dependents wait for its
    /// finish, cancelled or not: cancel() alone unblocks nothing.
    public static let unfinishedAsynchronousAdvice = "does it ever finish? Its work must call finish() (isFinished true, "
        + "with didChangeValue(forKey: \"isFinished\")); cancel() unblocks its dependents only if it then finishes"

    /// The path from `diagnosis`'s operation towards its root cause, following `next` through
    /// `diagnoses` (by operation), at most `limit` operations: `[C, B, A]` for "C waits on B
    /// waits on A". It ends at the root, or at the first link without a diagnosis (an executing
    /// root), or after `limit` operations.
    public static func path(from diagnosis: Diagnosis, through diagnoses: [OperationID: Diagnosis], limit: Int = .max) -> [OperationID] {
        var path = [diagnosis.operation]
        var current = diagnosis
        while path.count < limit, let next = current.next {
            path.append(next)
            guard let following = diagnoses[next] else { break }
            current = following
        }
        return path
    }
}
