import DashboardModel
import OperationEvents

extension Interaction {
    /// True when arriving events should be narrated (the session skips the work otherwise).
    public var wantsNarration: Bool { state.narration.isOn }

    /// The most sentences one batch adds: more than a person can read; the rest are counted.
    public static let narrationPerBatch = 40

    /// Narrates a batch of events the session just applied; `model` is the state after them.
    /// Does nothing while narration is off. A flood is narrated by its last events, with one
    /// line counting the others.
    public mutating func narrate(_ events: [MonitorEvent], model: DashboardModel) {
        guard state.narration.isOn, !events.isEmpty else { return }
        clock = max(clock, model.now)
        var entries: [NarrationEntry] = []
        var skipped = 0
        // From the newest back: the sentences kept are the latest ones.
        for event in events.reversed() {
            if entries.count >= Self.narrationPerBatch {
                if case .queueDepth = event.change {} else { skipped += 1 }
                continue
            }
            if let entry = Narrator.narrate(event, model: model) { entries.append(entry) }
        }
        entries.reverse()
        if skipped > 0, let first = entries.first {
            entries.insert(NarrationEntry(time: first.time, text: "… \(skipped) earlier changes in this moment, too many to narrate"), at: 0)
        }
        state.narration.append(entries)
    }

    /// Narrates the changes that led to `model`, the state a session started from (a program
    /// already running), so that the log begins where the program began. Does nothing while
    /// narration is off. Beyond the log's limit, the earliest are counted, not told.
    public mutating func narrate(startingFrom model: DashboardModel) {
        guard state.narration.isOn else { return }
        let events = StartingHistory.events(model)
        guard !events.isEmpty else { return }
        let told = events.count - min(events.count, NarrationState.limit - 1)
        var scratch = DashboardModel(configuration: model.configuration)
        // The untold ones at once; the told ones one by one, each with the state it made.
        if told > 0 { scratch.apply(EventBatch(events: Array(events[..<told]), droppedTotal: 0)) }
        var entries: [NarrationEntry] = []
        for event in events[told...] {
            scratch.apply(EventBatch(events: [event], droppedTotal: 0))
            if let entry = Narrator.narrate(event, model: scratch) { entries.append(entry) }
        }
        if told > 0, let first = entries.first {
            entries.insert(NarrationEntry(time: first.time, text: "… \(told) earlier changes before the dashboard opened, too many to narrate"), at: 0)
        }
        state.narration.append(entries)
    }

    /// Narrates one event shown by stepping (`.`), whether narration is on or not: the
    /// narration line shows it while the display stays paused.
    public mutating func narrate(step event: MonitorEvent, model: DashboardModel) {
        clock = max(clock, model.now)
        let entry = Narrator.narrate(event, model: model)
            ?? NarrationEntry(time: event.time, text: "a change nobody needs told (a sampled queue depth)")
        state.narration.append([entry])
        state.narration.stepped = true
        state.narration.steppedBack = nil
    }

    /// Narrates the event a step back (`,`) went back over (`model` is the state it made): the
    /// narration line tells it instead of the newest sentence, which is of a later moment. The
    /// log keeps only what happened, in order.
    public mutating func narrate(stepBack event: MonitorEvent, model: DashboardModel) {
        let told = Narrator.narrate(event, model: model)
        state.narration.steppedBack = NarrationEntry(time: event.time, text: "went back before: " + (told?.text ?? "a sampled queue depth"),
                                                     operation: told?.operation, queue: told?.queue)
        state.narration.stepped = true
    }

    /// The display follows the program again (`p` after a pause): the status says so, stamped
    /// with the live clock `now`.
    public mutating func resumedLive(now: UInt64) {
        clock = max(clock, now)
        state.narration.steppedBack = nil
        if let status = state.status, !status.isError { state.status = ViewState.StatusLine(status.text, time: clock) }
    }

    /// Another program took the source's place (a socket served anew): a question about the
    /// old one's operations is closed unanswered, and its tags go, since ids start over.
    public mutating func forgetProgram() {
        if case .confirm = state.overlay { state.overlay = nil }
        state.table.tagged.removeAll()
        receiptNote = nil
    }

    /// The model's clock went back (a replay seeking back): narration after that moment goes.
    public mutating func rewound(to time: UInt64) {
        state.narration.forget(after: time)
    }

    /// The sentence the narration line shows, if it shows one.
    var narrationLine: NarrationEntry? {
        guard state.narration.isOn || (state.paused && state.narration.stepped) else { return nil }
        if state.paused, let back = state.narration.steppedBack { return back }
        return state.narration.latest
    }
}
