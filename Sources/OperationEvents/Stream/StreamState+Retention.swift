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
            prefetchTrims()
            finishedOrder.removeFirst()
            // Skip entries of operations no longer retained, or alive again after a deduced
            // finish (a later finish appended them anew).
            guard operations.read(oldest, { $0.state }) == .finished else { continue }
            forget(oldest)
            trimmed += 1
        }
        return trimmed
    }

    /// Starts loading what the trims a few finishes from now will read. The oldest finished
    /// operation's record went cold long ago (a retained history of 20,000 is megabytes), and
    /// reading its index entry, key and record one after the other cost a wait on memory each: a
    /// third of the history's fold while a busy program ran (`opscope-bench bridge`,
    /// BENCHMARKS.md). Two steps, since the record's place is known only from its index entry:
    /// the entry of the id 16 places on, the key and record of the id 8 places on (whose entry
    /// came in 8 trims ago). Steady trimming is one trim per finish, so the pipeline runs across
    /// calls.
    @inline(__always)
    private func prefetchTrims() {
        if let later = finishedOrder.peek(16) { operations.prefetchIndex(of: later) }
        if let soon = finishedOrder.peek(8) { operations.prefetchRecord(of: soon) }
    }

    /// Removes a finished operation, counting it as trimmed and unlinking it from its
    /// dependencies; a released queue left without operations is forgotten too.
    private mutating func forget(_ id: OperationID) {
        // Only its queue and dependencies are needed: the record is destroyed where it lies.
        guard let (queue, dependencies) = operations.read(id, { ($0.queue, $0.dependencies) }) else { return }
        operations.discard(id)
        retainedFinished -= 1
        counters.trimmed += 1
        let forgotten = queue.flatMap { queue in
            queues.update(queue) { queue -> Bool in
                queue.trimmed += 1
                queue.retained -= 1
                return queue.isReleased && queue.retained == 0
            }
        }
        if let forgotten {
            if forgotten { queues[queue!] = nil }
        } else {
            counters.trimmedWithoutQueue += 1
        }
        for dependency in dependencies {
            let compact = operations.update(dependency) { dependency -> Bool in
                dependency.staleDependents += 1
                return dependency.staleDependents > 16 && Int(dependency.staleDependents) * 2 > dependency.dependents.count
            }
            if compact == true {
                let live = operations.read(dependency, { $0.dependents })!.filter { operations.contains($0) }
                operations.update(dependency) { dependency in
                    dependency.dependents = live
                    dependency.staleDependents = 0
                }
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
