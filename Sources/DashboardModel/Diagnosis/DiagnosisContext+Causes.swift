import OperationEvents

/// The causes that end a chain: an operation's own situation, or its queue's.
extension DiagnosisContext {
    /// An operation's cause, or the dependencies whose causes decide it.
    mutating func start(_ record: OperationRecord) -> Start {
        let id = record.id
        let label = record.label
        if record.unsignalledFinish {
            return .cause(Cause(kind: nil, blockers: [], next: nil, root: id, length: 1, queue: record.queue,
                                text: "\(label) reads isFinished true but its queue was never told (no didChangeValue(forKey: \"isFinished\"))",
                                severity: 90, since: record.startedAt ?? record.addedAt))
        }
        if record.state == .executing {
            let elapsed = record.runTime(now: now) ?? 0
            var text = "\(label) executing \(DurationText.format(elapsed))"
            if record.isAsynchronous { text += ", asynchronous" }
            if record.isCancelled { text += ", cancelled but still running" }
            let tooLong = elapsed > model.configuration.longExecution
            if tooLong {
                text += ": " + (record.isAsynchronous ? Diagnosis.unfinishedAsynchronousAdvice : Diagnosis.unreturnedSynchronousAdvice)
            }
            let severity = tooLong ? 60 : 40
            return .cause(Cause(kind: nil, blockers: [], next: nil, root: id, length: 1, queue: record.queue,
                                text: text, severity: severity, since: record.startedAt ?? record.addedAt))
        }
        if model.isInCycle(id) { return .cause(cycleCause(record)) }
        if record.state == .pending, !record.isCancelled {
            let unfinished = record.dependencies.filter { (model.operations.read($0) { $0.state } ?? .finished) != .finished }
            if !unfinished.isEmpty { return .dependencies(unfinished) }
            return .cause(withoutDependencies(record))
        }
        return .cause(queueCause(record))
    }

    /// A member of a dependency cycle. The cycle that names its strongly connected component is
    /// summarised once per pass (a cycle of 10,000 operations must not cost 10,000² here); a
    /// member off that cycle lies on another one through the dependencies it has inside the
    /// component, and those are what hold it.
    private mutating func cycleCause(_ record: OperationRecord) -> Cause {
        let id = record.id
        let label = record.label
        let blockers: [OperationID]
        let text: String
        if let index = model.dependencyCycles.cycleIndex[id] {
            let summary = cycleSummary(index)
            if summary.onCycle.contains(id) {
                blockers = Array(summary.members.lazy.filter { $0 != id }.prefix(20))
                text = "\(label) is part of a dependency cycle: \(summary.description)"
            } else {
                let inside = record.dependencies.filter { model.dependencyCycles.cycleIndex[$0] == index }
                blockers = Array(inside.prefix(20))
                let names = inside.prefix(3).map(self.label).joined(separator: ", ") + (inside.count > 3 ? " and \(inside.count - 3) more" : "")
                text = "\(label) is part of a dependency cycle: it waits on \(names), which lead\(inside.count == 1 ? "s" : "") back to it "
                    + "through \(summary.description)"
            }
        } else {
            // Not named yet (the check runs at the end of a batch): only its membership is known.
            blockers = []
            text = "\(label) is part of a dependency cycle"
        }
        return Cause(kind: .cycle, blockers: blockers, next: nil, root: id, length: 1, queue: record.queue, text: text,
                     severity: 100, since: record.addedAt)
    }

    /// Pending, and no dependency it knows of is unfinished.
    private mutating func withoutDependencies(_ record: OperationRecord) -> Cause {
        // A barrier's readiness is derived (it starts once everything before it finished), and
        // an operation in no queue waits for the app whatever its readiness: the queue decides.
        guard !record.isBarrier, let queue = record.queue, let held = model.queues[queue], !held.isReleased else {
            return queueCause(record)
        }
        let id = record.id
        let label = record.label
        if record.dependencies.isEmpty {
            // Nothing it could be waiting for: not ready from the start, or since a dependency
            // was removed. No grace: no finish is on its way to make it ready.
            return notReady(record, queue: queue, listing: "lists no dependency")
        }
        if !readiness.isStuckNotReady(id) {
            let unseen = record.dependencies.filter { !model.operations.contains($0) }
            let text = unseen.isEmpty
                ? "\(label): its last dependency has just finished; Foundation makes it ready next"
                : "\(label) waits on " + unseen.prefix(5).map(\.description).joined(separator: ", ")
                    + (unseen.count > 5 ? " and \(unseen.count - 5) more" : "")
                    + " (not seen by this dashboard: added before it attached, or no longer retained)"
            return Cause(kind: .waitingOnDependencies, blockers: [], next: nil, root: id, length: 1, queue: queue,
                         text: text, severity: 5, since: record.addedAt)
        }
        return notReady(record, queue: queue, listing: "lists no unfinished dependency")
    }

    /// Not ready with nothing it lists to wait for: the removal the stream shows, else a
    /// condition it cannot see (claimed as no more than that).
    private func notReady(_ record: OperationRecord, queue: QueueID, listing: String) -> Cause {
        let removal = readiness.notReadyExplanation(of: record)
        return Cause(kind: removal == nil ? .heldByCondition : .notReadyWithoutDependencies, blockers: [], next: nil,
                     root: record.id, length: 1, queue: queue,
                     text: "\(record.label) is not ready and \(listing): \(removal ?? ReadinessRules.conditionText)",
                     severity: 75, since: record.addedAt)
    }

    /// Ready (or cancelled, or a barrier): the queue decides.
    private mutating func queueCause(_ record: OperationRecord) -> Cause {
        let id = record.id
        let label = record.label
        guard let queueID = record.queue, let queue = model.queues[queueID], !queue.isReleased else {
            let text = record.queue.map { "\(label)'s queue \($0) was released before it started: nothing starts it unless the app does" }
                ?? "\(label) was never added to an observed queue: nothing starts it unless the app does"
            return Cause(kind: .notInAnyQueue, blockers: [], next: nil, root: id, length: 1, queue: record.queue,
                         text: text, severity: 80, since: record.addedAt)
        }
        let queueName = "queue \(queueID) '\(queue.name)'"
        let cancelled = record.isCancelled
        let since = record.readyAt ?? record.addedAt
        if queue.isSuspended {
            let subject = cancelled ? "\(label) is cancelled and finishes when started, but \(queueName)" : "\(label) is ready but \(queueName)"
            return Cause(kind: cancelled ? .cancelledWaitingForSlot : .queueSuspended, blockers: [], next: nil, root: id, length: 1,
                         queue: queueID, text: subject + " is suspended: " + Diagnosis.suspendedQueueAdvice, severity: 70, since: since)
        }
        if !queue.hasFreeSlot {
            let holders = executing(in: queueID)
            let names = holders.prefix(3).map(self.label).joined(separator: ", ")
            let serial = queue.maxConcurrentOperationCount == 1 ? " (serial)" : ""
            let subject = cancelled ? "\(label) is cancelled and finishes when started, but" : "\(label) waits for a slot:"
            let holdersText = "\(names)\(holders.count > 3 ? " and \(holders.count - 3) more" : "") hold\(holders.count == 1 ? "s" : "") the slot\(holders.count == 1 ? "" : "s")"
            // The first holders only: a wide queue full of waiting work must not repeat every holder in
            // every waiting operation's diagnosis.
            return Cause(kind: cancelled ? .cancelledWaitingForSlot : .concurrencyLimit, blockers: Array(holders.prefix(20)), next: nil,
                         root: holders.first, length: 1, queue: queueID,
                         text: "\(subject) \(queueName) runs \(queue.executing) of \(queue.maxConcurrentOperationCount)\(serial): \(holdersText)",
                         severity: 50, since: since)
        }
        if !cancelled, readiness.isReadyNotStarted(id) {
            let waited = now - max(since, queue.record.roomSince)
            return Cause(kind: .readyNotStarted, blockers: [], next: nil, root: id, length: 1, queue: queueID,
                         text: "\(label) is ready and \(queueName) has a free slot, yet it has not started for \(DurationText.format(waited)): "
                             + Diagnosis.readyNotStartedAdvice,
                         severity: 75, since: since)
        }
        let order = startOrder(of: queueID)
        let position = order.positions[id] ?? order.ids.count
        // The first `free` operations of the start order all start now: none of them waits behind another.
        let free = queue.maxConcurrentOperationCount < 0 ? Int.max : queue.maxConcurrentOperationCount - queue.executing
        let mainNote = queue.isMainQueue ? " (the main queue runs only while the main thread is free)" : ""
        let text: String
        var ahead: [OperationID] = []
        if cancelled {
            text = "\(label) is cancelled and finishes as soon as \(queueName) starts it"
        } else if position == 0 {
            text = "\(label) is next to start in \(queueName)" + mainNote
        } else if position < free {
            let slots = free == Int.max ? "it has no fixed limit" : "\(free) slots are free"
            text = "\(label) is among the next to start in \(queueName): \(slots) and \(position) operation\(position == 1 ? " is" : "s are") before it" + mainNote
        } else {
            // How many are ahead, and the first few of them (not all: a deep queue would make
            // the whole pass quadratic).
            ahead = Array(order.ids.prefix(min(5, position)))
            text = "\(label) waits behind \(position) operation\(position == 1 ? "" : "s") of higher priority or added earlier in \(queueName)"
        }
        return Cause(kind: cancelled ? .cancelledWaitingForSlot : .waitingForTurn, blockers: ahead, next: nil, root: id, length: 1,
                     queue: queueID, text: text, severity: cancelled ? 20 : 30, since: since)
    }
}

/// What one pass computes once and looks up many times.
extension DiagnosisContext {
    /// A queue's start order and each operation's place in it.
    mutating func startOrder(of queue: QueueID) -> (ids: [OperationID], positions: [OperationID: Int]) {
        if let known = startOrders[queue] { return known }
        let ids = model.startOrder(of: queue)
        var positions: [OperationID: Int] = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { positions[id] = index }
        startOrders[queue] = (ids, positions)
        return (ids, positions)
    }

    /// The cycle at `index` of `model.cycles`: its first 21 members, every member (to tell
    /// those on it from the others of its component) and its description; once per pass.
    mutating func cycleSummary(_ index: Int) -> CycleSummary {
        if let known = cycleSummaries[index] { return known }
        let cycle = model.cycles[index]
        // A cycle is written with its first member again at the end: that repeat is no other member.
        let summary = CycleSummary(members: Array(cycle.dropLast().prefix(21)), onCycle: Set(cycle),
                                   description: model.cycleDescription(cycle))
        cycleSummaries[index] = summary
        return summary
    }

    /// The operations executing in `queue`, oldest first.
    mutating func executing(in queue: QueueID) -> [OperationID] {
        if executingByQueue == nil {
            var table: [QueueID: [(UInt64, OperationID)]] = [:]
            model.operations.forEach { record in
                if record.pointee.state == .executing, let queue = record.pointee.queue {
                    table[queue, default: []].append((record.pointee.startedAt ?? 0, record.pointee.id))
                }
            }
            executingByQueue = table.mapValues { $0.sorted { $0 < $1 }.map(\.1) }
        }
        return executingByQueue?[queue] ?? []
    }
}
