/// Events taken from the monitor's buffer in one call, with the running count of events it had to drop.
public struct EventBatch: Codable, Sendable, Equatable {
    /// The events, in the order they were produced.
    public var events: [MonitorEvent]
    /// Events dropped since the monitor started because the buffer was full. When this grows,
    /// the consumer has missed changes and should re-synchronise from a snapshot.
    public var droppedTotal: Int

    /// Creates a batch.
    public init(events: [MonitorEvent], droppedTotal: Int) {
        self.events = events
        self.droppedTotal = droppedTotal
    }
}
