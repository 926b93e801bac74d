import OperationEvents

extension KeyChange {
    /// How the change reads in the detail pane, e.g. `isReady false → true`. An operation first
    /// seen already added begins with what was read then (`first seen already added: ready`), so
    /// that a later `isReady true → false` follows from something shown.
    public var text: String {
        switch key {
        case .added where value: "added to its queue"
        case .added:
            "first seen already added: " + Self.describe(firstSeenKeys)
        case .isReady: "isReady \(!value) → \(value)"
        case .isExecuting: "isExecuting \(!value) → \(value)"
        case .isFinished: "isFinished false → true"
        case .isCancelled: "isCancelled false → true"
        case .dependencies: value ? "dependency added: #\(detail)" : "dependency removed: #\(detail)"
        case .queuePriority: "queuePriority → \(OperationPriority(rawValue: Int(detail))?.description ?? String(detail))"
        case .unsignalledFinish: "isFinished reads true, but the queue was never told"
        }
    }

    private static func describe(_ keys: (isReady: Bool, isExecuting: Bool, isCancelled: Bool)) -> String {
        var words = [keys.isExecuting ? "executing" : (keys.isReady ? "ready" : "not ready")]
        if keys.isCancelled { words.append("cancelled") }
        return words.joined(separator: ", ")
    }
}
