/// Where an operation is in its life. Cancellation is a separate flag
/// that combines with any state (a cancelled operation still has to be started to finish).
public enum OperationState: String, Codable, Sendable, CaseIterable, Comparable {
    /// Waiting on dependencies (`isReady` is false).
    case pending
    /// Ready, not started: waiting for its queue to start it.
    case ready
    /// Executing.
    case executing
    /// Finished.
    case finished

    private var rank: Int {
        switch self {
        case .pending: 0
        case .ready: 1
        case .executing: 2
        case .finished: 3
        }
    }

    /// Earlier in an operation's life.
    public static func < (lhs: OperationState, rhs: OperationState) -> Bool { lhs.rank < rhs.rank }
}
