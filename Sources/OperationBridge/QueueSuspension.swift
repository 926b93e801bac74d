import Synchronization

/// Counts the resumes of an observed queue, so that the finish of a hooked operation can tell
/// whether its queue can have started it.
///
/// A hooked operation's start is seen only by sampling; at its finish the bridge infers the
/// start it missed. That holds for operations their queue started, not for one that declares
/// itself finished while it still waits (an asynchronous operation giving up on a timer in a
/// suspended queue). An operation added while its queue was suspended, and finished before the
/// queue was resumed, cannot have been started: Foundation starts nothing in a suspended queue,
/// and starting an enqueued operation by hand traps.
final class QueueSuspension: Sendable {
    private let resumes = Atomic<Int>(0)

    /// Called before Foundation resumes the queue (before any operation can start).
    func willResume() {
        resumes.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// The mark of an add: nil unless the queue is suspended. The count is read before the
    /// flag, so a resume between the two reads shows at the finish.
    func mark(isSuspended: () -> Bool) -> SuspensionMark? {
        let count = resumes.load(ordering: .sequentiallyConsistent)
        return isSuspended() ? SuspensionMark(suspension: self, resumes: count) : nil
    }

    fileprivate var count: Int { resumes.load(ordering: .sequentiallyConsistent) }
}

/// An add made while the queue was suspended.
struct SuspensionMark: Sendable {
    let suspension: QueueSuspension
    let resumes: Int

    /// True when the queue has not been resumed since the add: nothing it holds has started.
    var stillSuspended: Bool { suspension.count == resumes }
}
