import DequeModule
import OperationEvents

/// What the model derives per queue: each queue's unstarted operations, one list per priority,
/// as Foundation keeps them (the start order reads them), and its wait, run and throughput
/// statistics. One table for both, so that a start or a finish visits its queue once.
///
/// Entries are appended when an operation is added (or moves, or changes priority) and dropped
/// lazily from the fronts once started, finished or moved; lists that may name an operation
/// twice are compacted at the end of the batch.
struct QueueFactsTable: Sendable {
    /// The facts by queue.
    private(set) var facts = RecordsByID<QueueFacts>()
    /// Queues that operations named before the queue appeared: listed once it does.
    private var awaited: Set<QueueID> = []

    /// The start lists of `queue`, barrier list first; empty when it has none.
    func startLists(of queue: QueueID) -> [Deque<OperationID>] {
        facts.read(queue, { $0.startLists }) ?? []
    }

    /// A queue appeared: its facts start. Returns true when operations named it before, and the
    /// start lists must be rebuilt to list them.
    mutating func queueAppeared(_ id: QueueID, throughputSeconds: Int) -> Bool {
        if !facts.contains(id) { facts[id] = QueueFacts(id: id, throughputSeconds: throughputSeconds) }
        return !awaited.isEmpty && awaited.remove(id) != nil
    }

    /// An operation named `queue` before the queue appeared.
    mutating func awaitQueue(_ queue: QueueID) { awaited.insert(queue) }

    /// The queue is gone, with its facts.
    mutating func forget(_ id: QueueID) { facts[id] = nil }

    /// Drops the facts of queues the stream no longer holds.
    mutating func forgetQueues(notIn queues: borrowing StreamQueues) {
        guard facts.count > queues.count else { return }
        for id in facts.ids where !queues.contains(id) { facts[id] = nil }
    }

    /// Appends an unstarted operation to its queue's list for its effective priority; `again`
    /// when it may be listed already (its lists are then compacted at the batch's end).
    mutating func enqueue(_ id: OperationID, again: Bool, _ operations: borrowing OperationRecords,
                          _ queues: borrowing StreamQueues, throughputSeconds: Int) {
        guard let (state, queue, priority) = operations.withRecord(id, { ($0.pointee.state, $0.pointee.queue, $0.pointee.effectivePriority) }),
              state < .executing, let queue, queues.contains(queue) else { return }
        if !facts.contains(queue) { facts[queue] = QueueFacts(id: queue, throughputSeconds: throughputSeconds) }
        facts.update(queue) { facts in
            facts.startLists[priority.schedulingIndex].append(id)
            if again { facts.mayHoldRepeats = true }
        }
    }

    /// An operation of `queue` started, having waited `wait` (nil: not known): its wait is
    /// recorded and the started entry leaves the lists, in one visit to the queue's facts.
    mutating func started(in queue: QueueID, wait: UInt64?, _ operations: borrowing OperationRecords) {
        facts.update(queue) { facts in
            if let wait { facts.latency.recordWait(nanoseconds: wait) }
            Self.dequeueFront(&facts, operations)
        }
    }

    /// An operation of `queue` finished at `time`, having run `run` (nil: not known).
    mutating func finished(in queue: QueueID, run: UInt64?, at time: UInt64, _ operations: borrowing OperationRecords) {
        facts.update(queue) { facts in
            if let run { facts.latency.recordRun(nanoseconds: run) }
            facts.throughput.record(at: time)
            Self.dequeueFront(&facts, operations)
        }
    }

    /// Drops started, finished and moved entries from the fronts of a queue's lists.
    private static func dequeueFront(_ facts: inout QueueFacts, _ operations: borrowing OperationRecords) {
        let queue = facts.id
        for index in facts.startLists.indices {
            while let first = facts.startLists[index].first, !isLive(first, in: queue, list: index, operations) {
                facts.startLists[index].removeFirst()
            }
        }
    }

    /// True while `id` belongs at this place of the queue's start lists.
    static func isLive(_ id: OperationID, in queue: QueueID, list index: Int, _ operations: borrowing OperationRecords) -> Bool {
        guard let (state, owner, priority) = operations.withRecord(id, { ($0.pointee.state, $0.pointee.queue, $0.pointee.effectivePriority) })
        else { return false }
        return state < .executing && owner == queue && priority.schedulingIndex == index
    }

    /// Rewrites the lists of queues that may name an operation twice: each live operation keeps
    /// its first place.
    mutating func compact(_ operations: borrowing OperationRecords) {
        for id in facts.ids where facts.read(id, { $0.mayHoldRepeats }) == true {
            let lists = facts.read(id, { $0.startLists })!
            var seen: Set<OperationID> = []
            let compacted = lists.enumerated().map { index, list in
                Deque(list.filter { Self.isLive($0, in: id, list: index, operations) && seen.insert($0).inserted })
            }
            facts[id]!.startLists = compacted
            facts[id]!.mayHoldRepeats = false
        }
    }

    /// Start lists of every queue rebuilt from the unstarted operations, in add order.
    mutating func rebuildStartLists(_ operations: borrowing OperationRecords, _ queues: borrowing StreamQueues,
                                    throughputSeconds: Int) {
        var unstarted: [(UInt64, OperationID)] = []
        operations.forEach { record in
            if record.pointee.state < .executing, record.pointee.queue != nil {
                unstarted.append((record.pointee.enqueueOrder, record.pointee.id))
            }
        }
        for id in facts.ids {
            facts[id]!.startLists = Array(repeating: [], count: OperationPriority.schedulingOrder.count)
            facts[id]!.mayHoldRepeats = false
        }
        for (_, id) in unstarted.sorted(by: { $0.0 < $1.0 }) {
            enqueue(id, again: false, operations, queues, throughputSeconds: throughputSeconds)
        }
    }

    /// Everything computed afresh from a stream state (a keyframe): the statistics can only use
    /// what is retained, the times of the operations it holds. Records the waits and runs per
    /// quality of service into `qosLatency` on the way.
    mutating func rebuild(_ operations: borrowing OperationRecords, _ queues: borrowing StreamQueues, throughputSeconds: Int,
                          qosLatency: inout QoSLatency) {
        facts = RecordsByID()
        for id in queues.ids {
            facts[id] = QueueFacts(id: id, throughputSeconds: throughputSeconds)
        }
        var finishes: [(UInt64, QueueID)] = []
        var samples: [(queue: QueueID?, qos: QoSClass, wait: UInt64?, run: UInt64?)] = []
        operations.forEach { record in
            let (addedAt, startedAt, finishedAt) = (record.pointee.addedAt, record.pointee.startedAt, record.pointee.finishedAt)
            // Only what was seen: the wait of an operation seen late, or the run of one seen
            // already executing, is not known.
            let wait = record.pointee.firstSeenLate ? nil : startedAt.map { $0 >= addedAt ? $0 - addedAt : 0 }
            var run: UInt64?
            if let startedAt = record.pointee.knownStart, let finishedAt { run = finishedAt >= startedAt ? finishedAt - startedAt : 0 }
            samples.append((record.pointee.queue, record.pointee.qualityOfService, wait, run))
            if let finishedAt, let queue = record.pointee.queue { finishes.append((finishedAt, queue)) }
        }
        for sample in samples {
            if let wait = sample.wait {
                if let queue = sample.queue, facts.contains(queue) { facts[queue]!.latency.recordWait(nanoseconds: wait) }
                qosLatency.recordWait(sample.qos, nanoseconds: wait)
            }
            if let run = sample.run {
                if let queue = sample.queue, facts.contains(queue) { facts[queue]!.latency.recordRun(nanoseconds: run) }
                qosLatency.recordRun(sample.qos, nanoseconds: run)
            }
        }
        for (time, queue) in finishes.sorted(by: { $0.0 < $1.0 }) where facts.contains(queue) {
            facts[queue]!.throughput.record(at: time)
        }
        rebuildStartLists(operations, queues, throughputSeconds: throughputSeconds)
    }
}

/// What the model derives about one queue: its start lists and its statistics.
struct QueueFacts: IdentifiedRecord {
    let id: QueueID
    var latency = LatencyStatistics()
    var throughput: ThroughputMeter
    /// Unstarted operations in add order, one list per priority in scheduling order (barrier
    /// first): Foundation's own structure. Entries are removed lazily (see `startOrder`).
    var startLists: [Deque<OperationID>] = Array(repeating: [], count: OperationPriority.schedulingOrder.count)
    /// An operation was listed again (it moved, its priority changed, it came back to life):
    /// the lists may name it twice until they are compacted at the end of the batch.
    var mayHoldRepeats = false

    init(id: QueueID, throughputSeconds: Int) {
        self.id = id
        throughput = ThroughputMeter(seconds: throughputSeconds)
    }
}
