import DequeModule
import OperationEvents

/// One queue as the model states it: the stream's record of it (`StreamQueue`), with the
/// statistics derived from its operations' times.
public struct QueueRecord: Sendable {
    /// What the stream says about the queue.
    public let record: StreamQueue
    /// Wait and run time percentiles.
    public let latency: LatencyStatistics
    /// Finishes per second.
    public let throughput: ThroughputMeter

    /// The queue's id.
    public var id: QueueID { record.id }
    /// `name`.
    public var name: String { record.name }
    /// `maxConcurrentOperationCount` (-1: Foundation's default, no fixed limit).
    public var maxConcurrentOperationCount: Int { record.maxConcurrentOperationCount }
    /// `isSuspended`.
    public var isSuspended: Bool { record.isSuspended }
    /// `qualityOfService`.
    public var qualityOfService: QoSClass { record.qualityOfService }
    /// `OperationQueue.main`.
    public var isMainQueue: Bool { record.isMainQueue }
    /// Observed exactly or sampled.
    public var observation: QueueObservation { record.observation }
    /// The queue object was released.
    public var isReleased: Bool { record.isReleased }
    /// Operations a tracked queue holds, as last sampled (observed queues: nil).
    public var sampledDepth: Int? { record.sampledDepth }
    /// Unfinished operations waiting on dependencies.
    public var pending: Int { record.pending }
    /// Ready, not started.
    public var ready: Int { record.ready }
    /// Executing.
    public var executing: Int { record.executing }
    /// Finished since observed, including those no longer retained.
    public var finished: Int { record.finished }
    /// Of those, cancelled.
    public var cancelled: Int { record.cancelled }
    /// Finished operations no longer retained.
    public var trimmed: Int { record.trimmed }
    /// Unstarted operations (pending + ready).
    public var waiting: Int { record.waiting }
    /// `4` or `∞` for tables; `1` means serial.
    public var limitText: String { record.limitText }
    /// True when the queue may start another operation now.
    public var hasFreeSlot: Bool { record.hasFreeSlot }
}

/// The model's queues by id: the stream's records joined with what the model derives.
public struct QueueTable: Sendable {
    let records: StreamQueues
    let facts: RecordsByID<QueueFacts>

    /// The queue, if held.
    public subscript(id: QueueID) -> QueueRecord? {
        guard let record = records[id] else { return nil }
        return summary(record)
    }

    /// Every queue, in no particular order.
    public var values: [QueueRecord] { records.values.map(summary) }

    /// Every queue's id, in no particular order.
    public var ids: [QueueID] { records.ids }

    /// Number of queues.
    public var count: Int { records.count }

    /// True when there is none.
    public var isEmpty: Bool { records.isEmpty }

    /// True when `id` is held.
    public func contains(_ id: QueueID) -> Bool { records.contains(id) }

    /// Reads from the queue of `id`; nil when it is not held.
    public func read<T>(_ id: QueueID, _ body: (borrowing QueueRecord) -> T) -> T? {
        guard let record = self[id] else { return nil }
        return body(record)
    }

    private func summary(_ record: StreamQueue) -> QueueRecord {
        let derived = facts.read(record.id) { ($0.latency, $0.throughput) }
        return QueueRecord(record: record, latency: derived?.0 ?? LatencyStatistics(),
                            throughput: derived?.1 ?? ThroughputMeter(seconds: 1))
    }
}
