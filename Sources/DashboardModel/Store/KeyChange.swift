import OperationEvents

/// One change of an operation's keys, kept for the detail pane: the "KVO keys" made visible.
public struct KeyChange: Sendable, Equatable {
    /// The key that changed.
    public enum Key: UInt8, Sendable {
        case added, isReady, isExecuting, isFinished, isCancelled, dependencies, queuePriority, unsignalledFinish
    }

    /// When (monitor clock, nanoseconds).
    public var time: UInt64
    /// Which key.
    public var key: Key
    /// The new value of a Boolean key (for `dependencies`: true added, false removed).
    public var value: Bool
    /// How the change was seen.
    public var origin: EventOrigin
    /// A related id or value: the dependency for `dependencies`, the priority's raw value for
    /// `queuePriority`. 32 bits keep an entry at 16 bytes.
    public var detail: Int32

    /// Creates a history entry.
    public init(time: UInt64, key: Key, value: Bool, origin: EventOrigin, detail: Int32 = 0) {
        self.time = time
        self.key = key
        self.value = value
        self.origin = origin
        self.detail = detail
    }

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
