/// The live state of every observed queue and unfinished operation, read at one moment.
///
/// A monitor reads one to repair its stream after its buffer dropped events (the corrections go
/// to every subscription), and a batch may start with one (`StreamStart.snapshot`). A consumer
/// that lost events does not read one: it resynchronises its subscription, whose next batch
/// starts with a keyframe. Whoever applies a snapshot applies only the events whose `sequence`
/// is at least `sequence` after it: earlier ones are already reflected here.
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
