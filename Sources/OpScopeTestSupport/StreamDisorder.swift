import OperationEvents

/// Disorders an event stream the ways a consumer can meet: events out of order within a window,
/// repeated, lost.
public enum StreamDisorder {
    /// Drops events (`losses`: probability each), repeats some (`repeats`), and shuffles them
    /// within consecutive windows of `window` events. With `renumber`, the result is numbered
    /// afresh, as a producer that emitted in the wrong order would number it (the consumer sees
    /// a contiguous stream); without, events keep their numbers (the consumer sees gaps and
    /// stale events, as after transport faults).
    public static func disorder(_ events: [MonitorEvent], window: Int, repeats: Double = 0, losses: Double = 0,
                                renumber: Bool = true, using random: inout SeededRandom) -> [MonitorEvent] {
        var result: [MonitorEvent] = []
        result.reserveCapacity(events.count)
        for event in events {
            if losses > 0, Double.random(in: 0..<1, using: &random) < losses { continue }
            result.append(event)
            if repeats > 0, Double.random(in: 0..<1, using: &random) < repeats { result.append(event) }
        }
        let size = max(1, window)
        var start = 0
        while start < result.count {
            let end = min(result.count, start + size)
            result[start..<end].shuffle(using: &random)
            start = end
        }
        if renumber {
            for index in result.indices { result[index].sequence = UInt64(index) }
        }
        return result
    }
}

extension StreamState {
    /// What the monitor would read from the live objects if this state were the truth: every
    /// queue not released, every unfinished operation with its keys as they stand.
    public func liveSnapshot() -> MonitorSnapshot {
        let queueList = queues.values.filter { !$0.isReleased }.map(\.info).sorted { $0.id < $1.id }
        let operationList = operations.values.filter { $0.state != .finished }.map(\.info).sorted { $0.id < $1.id }
        return MonitorSnapshot(sequence: nextSequence, time: time, queues: queueList, operations: operationList,
                               droppedEvents: counters.eventsLost)
    }

    /// Differences between what this state and `other` say about the operations both hold, the
    /// unfinished operations of `other` this one lacks, and the queues' keys and counts; empty
    /// when they agree. `finishedOnly`: compare only the life (state and cancellation) of
    /// operations finished in `other`, for the moment before a snapshot corrected the rest.
    public func differences(from other: StreamState, finishedOnly: Bool = false) -> [String] {
        var result: [String] = []
        for truth in other.operations.values.sorted(by: { $0.id < $1.id }) {
            guard let mine = operations[truth.id] else {
                if truth.state != .finished { result.append("\(truth.id) missing (\(truth.state) in the truth)") }
                continue
            }
            if finishedOnly {
                guard truth.state == .finished else { continue }
                if mine.state != .finished || mine.isCancelled != truth.isCancelled {
                    result.append("\(truth.id): \(mine.state) cancelled \(mine.isCancelled), truth finished cancelled \(truth.isCancelled)")
                }
                continue
            }
            if mine.state != truth.state { result.append("\(truth.id): \(mine.state), truth \(truth.state)") }
            guard truth.state != .finished else { continue }
            if mine.isCancelled != truth.isCancelled { result.append("\(truth.id): cancelled \(mine.isCancelled), truth \(truth.isCancelled)") }
            if Set(mine.dependencies) != Set(truth.dependencies) {
                result.append("\(truth.id): dependencies \(mine.dependencies), truth \(truth.dependencies)")
            }
            if mine.queue != truth.queue { result.append("\(truth.id): queue \(String(describing: mine.queue)), truth \(String(describing: truth.queue))") }
            if (mine.priority, mine.effectivePriority) != (truth.priority, truth.effectivePriority) {
                result.append("\(truth.id): priority \(mine.priority)/\(mine.effectivePriority), truth \(truth.priority)/\(truth.effectivePriority)")
            }
        }
        guard !finishedOnly else { return result }
        for truth in other.queues.values.sorted(by: { $0.id < $1.id }) {
            guard let mine = queues[truth.id] else {
                result.append("queue \(truth.id) missing")
                continue
            }
            if mine.info != truth.info { result.append("queue \(truth.id): \(mine.info), truth \(truth.info)") }
            let counts = { (queue: StreamQueue) in [queue.pending, queue.ready, queue.executing] }
            if counts(mine) != counts(truth) {
                result.append("queue \(truth.id): pending/ready/executing \(counts(mine)), truth \(counts(truth))")
            }
        }
        return result
    }
}
