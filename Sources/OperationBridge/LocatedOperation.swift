import Foundation
import OperationEvents

/// An operation found by id for a command, with what is needed to report changes to it.
struct LocatedOperation {
    enum Kind {
        case instrumented
        case hooked(SamplingWindow.Entry)
        case sampled
        case barrier
    }

    let id: OperationID
    /// Nil for a barrier block, which Foundation gives no handle to.
    let operation: Operation?
    let queue: QueueID?
    let kind: Kind
}
