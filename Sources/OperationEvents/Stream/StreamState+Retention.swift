extension StreamState {
    /// Trims finished operations beyond the retention's count and, with `now`, older than its
    /// age, oldest first; returns how many were trimmed. They stay counted in their queue's
    /// `finished` and `trimmed` totals.
    @discardableResult
    public mutating func trim(now: UInt64) -> Int {
        if now > time { time = now }
        var trimmed = trimExcess()
        guard let age = retention.maximumAge else { return trimmed }
        while let oldest = finishedOrder.first {
            guard let finishedAt = operations.read(oldest, { $0.finishedAt }), let finishedAt else {
                // No longer retained, or alive again: not this entry's to trim.
                finishedOrder.removeFirst()
                continue
            }
            guard finishedAt &+ age < now else { break }
            finishedOrder.removeFirst()
            forget(oldest)
            trimmed += 1
        }
        return trimmed
    }

    /// Trims the oldest finished operations beyond the retention's count.
    @discardableResult
    mutating func trimExcess() -> Int {
        var trimmed = 0
        while retainedFinished > retention.maximumFinished, let oldest = finishedOrder.first {
            finishedOrder.removeFirst()
            // Skip entries of operations no longer retained, or alive again after a deduced
            // finish (a later finish appended them anew).
            guard operations.read(oldest, { $0.state }) == .finished else { continue }
            forget(oldest)
            trimmed += 1
        }
        return trimmed
    }

    /// Removes a finished operation, counting it as trimmed and unlinking it from its
    /// dependencies; a released queue left without operations is forgotten too.
    private mutating func forget(_ id: OperationID) {
        guard let record = operations.remove(id) else { return }
        retainedFinished -= 1
        counters.trimmed += 1
        if let queue = record.queue, queues.contains(queue) {
            queues[queue]!.trimmed += 1
            queues[queue]!.retained -= 1
            if queues.read(queue, { $0.isReleased && $0.retained == 0 })! { queues[queue] = nil }
        } else {
            counters.trimmedWithoutQueue += 1
        }
        for dependency in record.dependencies where operations.contains(dependency) {
            operations[dependency]!.staleDependents += 1
            let (stale, count) = operations.read(dependency, { ($0.staleDependents, $0.dependents.count) })!
            if stale > 16, Int(stale) * 2 > count {
                let live = operations.read(dependency, { $0.dependents })!.filter { operations.contains($0) }
                operations[dependency]!.dependents = live
                operations[dependency]!.staleDependents = 0
            }
        }
    }

    /// Rebuilds `awaited` from the retained operations: entries of operations since trimmed
    /// are dropped. Runs when the map has grown well past the table (amortised O(1) per link).
    mutating func pruneAwaited() {
        var rebuilt: [OperationID: [OperationID]] = [:]
        var entries = 0
        operations.forEach { record in
            for dependency in record.pointee.dependencies where !operations.contains(dependency) {
                rebuilt[dependency, default: []].append(record.pointee.id)
                entries += 1
            }
        }
        awaited = rebuilt
        awaitedEntries = entries
    }
}
