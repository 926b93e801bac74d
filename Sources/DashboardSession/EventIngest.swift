import DashboardModel
import OperationEvents

/// The first part of a session: moves events from a subscription into the model.
///
/// The subscription's first batch brings the past (where to start from), then live events
/// follow. A batch that starts afresh (the consumer fell behind, or asked after a gap) replaces
/// the model's state before its events are applied. When the model reports lost events, the
/// ingest resynchronises its subscription (the next batch starts with a keyframe): what every
/// live consumer does, rather than reading a snapshot of its own.
public struct EventIngest: Sendable {
    /// The model of the observed program, as far as events have arrived.
    public private(set) var model: DashboardModel
    private let subscription: any EventSubscription
    /// Events applied so far.
    public private(set) var eventsApplied = 0
    /// The recent past, for stepping and going back while the display is paused (sessions keep
    /// one; a one-shot report does not).
    public private(set) var history: PlaybackHistory?
    /// The source is a recording: a fresh start may go back in time, and the model's clock
    /// goes back with it.
    private let rewinds: Bool
    /// The state the subscription's first batch started from (the program as it was when the
    /// session opened), until taken: the narration tells how it came about.
    private var firstStart: DashboardModel?

    /// Subscribes to `source` as `consumer`, keeping `history` if given.
    public init(source: any EventSource, configuration: ModelConfiguration, consumer: String = "dashboard",
                history: PlaybackHistory? = nil) {
        model = DashboardModel(configuration: configuration)
        subscription = source.subscribe(SubscriptionRequest(consumer: consumer))
        rewinds = source.sourceInfo.kind == .recording
        self.history = history
        self.history?.restart(from: model)
    }

    /// Applies what the subscription holds, at most `budget` events in all (so that a flood
    /// cannot starve input and drawing); true when anything arrived.
    public mutating func ingest(budget: Int = 65_536) -> Bool {
        var ignored: [MonitorEvent]?
        return ingest(budget: budget, collecting: &ignored)
    }

    /// The same, appending the events applied to `collected` when it is not nil (for narration).
    public mutating func ingest(budget: Int = 65_536, collecting collected: inout [MonitorEvent]?) -> Bool {
        var taken = 0
        var changed = false
        while taken < budget {
            let batch = subscription.next(limit: min(16_384, budget - taken))
            if batch.start == nil, batch.events.isEmpty {
                // Drops are still recorded even when nothing else came.
                if batch.droppedTotal > model.droppedEvents { model.apply(batch) }
                break
            }
            if let start = batch.start {
                // A fresh start replaces the state: the history before it no longer leads here.
                if rewinds, case .keyframe(let state) = start, state.time < model.now {
                    // A replay moved back: the clock goes back to the keyframe's moment before
                    // anything is measured against it.
                    model.load(state)
                    model.rewindClock(to: state.time)
                    model.apply(EventBatch(events: [], droppedTotal: batch.droppedTotal))
                } else {
                    model.apply(EventBatch(start: start, events: [], droppedTotal: batch.droppedTotal))
                }
                history?.restart(from: model)
                if eventsApplied == 0, taken == 0 { firstStart = model }
                model.apply(EventBatch(events: batch.events, droppedTotal: batch.droppedTotal))
            } else if model.apply(batch) {
                // A gap in the sequence, or events lost: start afresh from the source's present.
                subscription.resynchronize()
            }
            history?.record(batch.events, liveModelAfter: model)
            collected?.append(contentsOf: batch.events)
            taken += batch.events.count
            eventsApplied += batch.events.count
            changed = true
            if batch.events.isEmpty { break }
        }
        return changed
    }

    /// The state the first batch started from, once (nil after, or when it had none).
    public mutating func takeFirstStart() -> DashboardModel? {
        defer { firstStart = nil }
        return firstStart
    }

    /// Moves the model's clock on (retention, durations) without an event.
    public mutating func advance(to time: UInt64) {
        model.advance(to: time)
    }

    /// Sets the model's clock to `time`, back as well as forward: a replay's clock jumps back
    /// when it seeks back.
    public mutating func follow(clock time: UInt64) {
        if time < model.now {
            model.rewindClock(to: time)
        } else if time > model.now {
            model.advance(to: time)
        }
    }

    /// Ends the subscription.
    public func close() {
        subscription.close()
    }
}
