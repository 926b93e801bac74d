import OperationEvents

/// One sentence of narration: what changed and why, in the terms of the lessons.
public struct NarrationEntry: Sendable, Equatable {
    /// When the change happened (the monitor's clock).
    public var time: UInt64
    /// The sentence.
    public var text: String
    /// The operation it is about, if any (Enter in the log jumps to it).
    public var operation: OperationID?
    /// The queue it is about, if any.
    public var queue: QueueID?

    /// An entry.
    public init(time: UInt64, text: String, operation: OperationID? = nil, queue: QueueID? = nil) {
        self.time = time
        self.text = text
        self.operation = operation
        self.queue = queue
    }
}

/// The narration: on or off (`t`), the log kept for the narration view, and where that view is.
public struct NarrationState: Sendable, Equatable {
    /// Sentences are made for arriving events (`t`; a session may start with it on).
    public var isOn = false
    /// The log, oldest first, at most `limit` entries.
    public private(set) var entries: [NarrationEntry] = []
    /// The time of the first entry ever: the log shows times from there.
    public private(set) var origin: UInt64?
    /// Entries dropped from the front of the log so far.
    public private(set) var dropped = 0
    /// The selected entry of the narration view; nil follows the newest.
    public var cursor: Int?
    /// The last entry came from stepping while paused (`.`): the narration line shows it even
    /// when narration is off.
    public var stepped = false
    /// The event the last step back (`,`) went back over, told: the narration line shows it while
    /// paused, since the newest entry tells of a later moment. Not in the log.
    public var steppedBack: NarrationEntry?
    /// Entries kept.
    public static let limit = 2_000

    /// Narration off, an empty log.
    public init() {}

    /// Appends entries, dropping the oldest beyond the limit (the cursor keeps its entry).
    public mutating func append(_ new: [NarrationEntry]) {
        guard !new.isEmpty else { return }
        if origin == nil { origin = new.first?.time }
        entries += new
        let excess = entries.count - Self.limit
        if excess > 0 {
            entries.removeFirst(excess)
            dropped += excess
            cursor = cursor.map { max(0, $0 - excess) }
        }
    }

    /// Forgets the entries after `time`: a replay moved back, and they tell of moments not
    /// reached yet (they come again as the replay plays on).
    public mutating func forget(after time: UInt64) {
        guard let keep = entries.lastIndex(where: { $0.time <= time }).map({ $0 + 1 }) ?? (entries.isEmpty ? nil : 0),
              keep < entries.count else { return }
        entries.removeSubrange(keep...)
        // Emptied, the log's times count again from the next entry (they would show as +0 if
        // older than a first entry forgotten here).
        if entries.isEmpty { origin = nil }
        if let cursor, cursor >= entries.count { self.cursor = entries.isEmpty ? nil : entries.count - 1 }
        stepped = false
    }

    /// The newest entry.
    public var latest: NarrationEntry? { entries.last }
}
