import OperationEvents

extension KeyChange {
    /// How the change reads in the detail pane, e.g. `isReady false → true`.
    public var text: String {
        switch key {
        case .added: "added to its queue"
        case .isReady: "isReady \(!value) → \(value)"
        case .isExecuting: "isExecuting \(!value) → \(value)"
        case .isFinished: "isFinished false → true"
        case .isCancelled: "isCancelled false → true"
        case .dependencies: value ? "dependency added: #\(detail)" : "dependency removed: #\(detail)"
        case .queuePriority: "queuePriority → \(OperationPriority(rawValue: Int(detail))?.description ?? String(detail))"
        case .unsignalledFinish: "isFinished reads true, but the queue was never told"
        }
    }
}
