import DashboardModel
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
    /// The sentence the narration line shows while paused instead of the newest entry: the event
    /// the last step back (`,`) went back over, or one a step forward (`.`) came to again after
    /// that, since the newest entry tells of a later moment. Not added to the log.
    public var steppedBack: NarrationEntry?
    /// Entries kept.
    public static let limit = 2_000
    /// The newest event the log tells (its sequence number): stepping forward over an event the
    /// log already has (after stepping back while paused) shows its sentence again rather than
    /// appending it a second time, later than newer ones.
    private(set) var toldThrough: UInt64?

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
        // What comes again after `time` is told again.
        toldThrough = nil
        // Emptied, the log's times count again from the next entry (they would show as +0 if
        // older than a first entry forgotten here).
        if entries.isEmpty { origin = nil }
        if let cursor, cursor >= entries.count { self.cursor = entries.isEmpty ? nil : entries.count - 1 }
        stepped = false
    }

    /// The newest entry.
    public var latest: NarrationEntry? { entries.last }
}

extension NarrationState {
    /// The most sentences one batch adds: more than a person can read; the rest are counted.
    public static let perBatch = 40

    /// Tells a batch of events just applied; `model` is the state after them. Nothing while
    /// narration is off. A flood is told by its last events, with one line counting the others.
    mutating func tell(_ events: [MonitorEvent], model: DashboardModel) {
        guard isOn, !events.isEmpty else { return }
        var told: [NarrationEntry] = []
        var skipped = 0
        // From the newest back: the sentences kept are the latest ones.
        for event in events.reversed() {
            if told.count >= Self.perBatch {
                if Narrator.tells(event.change) { skipped += 1 }
                continue
            }
            if let entry = Narrator.narrate(event, model: model) { told.append(entry) }
        }
        told.reverse()
        if skipped > 0, let first = told.first {
            told.insert(NarrationEntry(time: first.time, text: "… \(skipped) earlier changes in this moment, too many to narrate"), at: 0)
        }
        append(told)
        noteTold(events.lazy.map(\.sequence).max())
    }

    private mutating func noteTold(_ sequence: UInt64?) {
        guard let sequence else { return }
        toldThrough = max(toldThrough ?? sequence, sequence)
    }

    /// Tells the changes that led to `model`, the state a session started from (a program
    /// already running), so that the log begins where the program began. Nothing while
    /// narration is off. Beyond the log's limit, the earliest are counted, not told.
    mutating func tell(startingFrom model: DashboardModel) {
        guard isOn else { return }
        let events = StartingHistory.events(model)
        guard !events.isEmpty else { return }
        let untold = events.count - min(events.count, Self.limit - 1)
        var scratch = DashboardModel(configuration: model.configuration)
        // The untold ones at once; the told ones one by one, each with the state it made.
        if untold > 0 { scratch.apply(EventBatch(events: Array(events[..<untold]), droppedTotal: 0)) }
        var told: [NarrationEntry] = []
        for event in events[untold...] {
            scratch.apply(EventBatch(events: [event], droppedTotal: 0))
            if let entry = Narrator.narrate(event, model: scratch) { told.append(entry) }
        }
        if untold > 0, let first = told.first {
            told.insert(NarrationEntry(time: first.time, text: "… \(untold) earlier changes before the dashboard opened, too many to narrate"), at: 0)
        }
        append(told)
        noteTold(events.lazy.map(\.sequence).max())
    }

    /// Tells one event shown by stepping (`.`), whether narration is on or not: the narration
    /// line shows it while the display stays paused.
    mutating func tell(step event: MonitorEvent, model: DashboardModel) {
        let entry = Narrator.narrate(event, model: model)
            ?? NarrationEntry(time: event.time, text: "a change nobody needs told (a sampled queue depth)")
        stepped = true
        if let toldThrough, event.sequence <= toldThrough {
            // Already in the log (stepped back over, now forward again): shown, not logged twice.
            steppedBack = entry
            return
        }
        append([entry])
        noteTold(event.sequence)
        steppedBack = nil
    }

    /// Tells the event a step back (`,`) went back over (`model` is the state it made): the
    /// narration line tells it instead of the newest sentence, which is of a later moment. The
    /// log keeps only what happened, in order.
    mutating func tell(stepBack event: MonitorEvent, model: DashboardModel) {
        let told = Narrator.narrate(event, model: model)
        steppedBack = NarrationEntry(time: event.time, text: "went back before: " + (told?.text ?? "a sampled queue depth"),
                                     operation: told?.operation, queue: told?.queue)
        stepped = true
    }

    /// The sentence the narration line shows (`paused`: the display is), if it shows one.
    func line(paused: Bool) -> NarrationEntry? {
        guard isOn || (paused && stepped) else { return nil }
        if paused, let back = steppedBack { return back }
        return latest
    }
}
