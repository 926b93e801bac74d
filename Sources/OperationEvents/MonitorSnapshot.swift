/// The live state of every observed queue and unfinished operation, read at one moment.
///
/// A consumer that lost events (see `EventBatch.droppedTotal`) rebuilds its state from a snapshot,
/// then applies only the events whose `sequence` is at least `sequence`: earlier ones are already
/// reflected here.
public struct MonitorSnapshot: Codable, Sendable, Equatable {
    /// Events with a smaller sequence number happened before this snapshot was read.
    public var sequence: UInt64
    /// When the snapshot was read (monitor clock, nanoseconds).
    public var time: UInt64
    /// Every queue still alive.
    public var queues: [QueueInfo]
    /// Every operation not yet finished, with its keys as read now.
    public var operations: [OperationInfo]
    /// The dropped-events count when the snapshot was read.
    public var droppedEvents: Int

    /// Creates a snapshot.
    public init(sequence: UInt64, time: UInt64, queues: [QueueInfo], operations: [OperationInfo], droppedEvents: Int) {
        self.sequence = sequence
        self.time = time
        self.queues = queues
        self.operations = operations
        self.droppedEvents = droppedEvents
    }
}
