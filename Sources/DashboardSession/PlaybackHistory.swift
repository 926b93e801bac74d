import DashboardModel
import OperationEvents

/// The recent past of a session's stream, kept so that a paused display can step through the
/// events that arrived since, and go back to any earlier moment still held.
///
/// Events are kept in order with a model saved every `keyframeInterval` events; the state at
/// any position is the nearest saved model at or before it with the events after it applied, so
/// a move costs at most one interval of events. Bounded: beyond `capacity` events the oldest
/// are dropped with the saved models before them.
public struct PlaybackHistory: Sendable {
    /// Events kept, oldest first; `events[i]` is at position `base + i`.
    private var events: [MonitorEvent] = []
    /// The position of `events[0]`: how many events were dropped from the front (or came before
    /// the last fresh start).
    public private(set) var base = 0
    /// Saved models: the state after the events before `position` were applied.
    private var keyframes: [(position: Int, model: DashboardModel)] = []
    /// Events between saved models.
    public let keyframeInterval: Int
    /// Events held at most.
    public let capacity: Int

    /// An empty history.
    public init(keyframeInterval: Int = 10_000, capacity: Int = 100_000) {
        self.keyframeInterval = max(1, keyframeInterval)
        self.capacity = max(self.keyframeInterval * 2, capacity)
    }

    /// The first position a display can go back to.
    public var start: Int { keyframes.first?.position ?? end }

    /// The position after the last event: the live state.
    public var end: Int { base + events.count }

    /// Starts over from `model` (a fresh start of the stream: the past before it is gone).
    public mutating func restart(from model: DashboardModel) {
        base = end
        events = []
        keyframes = [(end, model)]
    }

    /// Appends events the live model has just applied; `model` is the live model after them.
    public mutating func record(_ newEvents: [MonitorEvent], liveModelAfter model: DashboardModel) {
        guard !newEvents.isEmpty else { return }
        events += newEvents
        if let last = keyframes.last, end - last.position >= keyframeInterval { keyframes.append((end, model)) }
        trim()
    }

    /// The event at `position`, if held.
    public func event(at position: Int) -> MonitorEvent? {
        let index = position - base
        return events.indices.contains(index) ? events[index] : nil
    }

    /// The state at `position` (clamped to what is held): the events before it applied.
    public func model(at position: Int) -> DashboardModel? {
        let target = min(max(position, start), end)
        guard let keyframe = keyframes.last(where: { $0.position <= target }) else { return nil }
        var model = keyframe.model
        let slice = Array(events[(keyframe.position - base)..<(target - base)])
        if !slice.isEmpty { model.apply(EventBatch(events: slice, droppedTotal: model.droppedEvents)) }
        return model
    }

    /// The time of the event at `position`, or of the last one before it.
    public func time(at position: Int) -> UInt64? {
        event(at: min(position, end - 1))?.time
    }

    private mutating func trim() {
        guard events.count > capacity else { return }
        // Drop whole intervals from the front, keeping at least one saved model.
        let keep = keyframes.firstIndex { end - $0.position <= capacity } ?? keyframes.count - 1
        guard keep > 0 else { return }
        let cut = keyframes[keep].position - base
        events.removeFirst(cut)
        base += cut
        keyframes.removeFirst(keep)
    }
}
