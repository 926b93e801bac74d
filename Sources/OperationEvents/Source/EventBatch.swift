/// Events taken from a subscription in one call.
public struct EventBatch: Codable, Sendable, Equatable {
    /// Where to start from, before applying `events`: present in a subscription's first batch and
    /// after the consumer lost events. The consumer replaces its state with it.
    public var start: StreamStart?
    /// The events, in stream order (contiguous sequence numbers).
    public var events: [MonitorEvent]
    /// Events this consumer has lost so far (it fell behind, or the monitor's buffer was full).
    /// When it grows, `start` says how to carry on.
    public var droppedTotal: Int

    /// Creates a batch.
    public init(start: StreamStart? = nil, events: [MonitorEvent], droppedTotal: Int) {
        self.start = start
        self.events = events
        self.droppedTotal = droppedTotal
    }
}

/// A state to start from instead of events that came before.
public enum StreamStart: Codable, Sendable, Equatable {
    /// The live state read from the observed objects; events from `snapshot.sequence` on follow.
    case snapshot(MonitorSnapshot)
    /// The stream's own state so far (its retained past included); events from
    /// `keyframe.nextSequence` on follow. Loading it is adopting it.
    indirect case keyframe(StreamState)
}
