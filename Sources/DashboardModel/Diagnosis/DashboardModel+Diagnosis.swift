import OperationEvents

extension DashboardModel {
    /// Why `id` is not running, with the chain to the root cause; nil when it is executing or
    /// finished (or not retained).
    public func diagnosis(of id: OperationID, now: UInt64? = nil) -> Diagnosis? {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return context.diagnosis(of: id)
    }

    /// The diagnosis of every operation that is neither executing nor finished, in id order.
    /// Chains are computed once and shared, so this is linear in the graph's size.
    public func diagnoses(now: UInt64? = nil) -> [Diagnosis] {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return operations.values.filter { $0.state < .executing }.map(\.id).sorted().compactMap { context.diagnosis(of: $0) }
    }
}

/// Memoised causes for one diagnosis pass.
struct DiagnosisContext {
    /// Why an operation has not finished, as seen from the operations waiting for it.
    struct Cause {
        var kind: Diagnosis.Kind?
        var blockers: [OperationID]
        /// From the operation to the root.
        var chain: [OperationID]
        var root: OperationID?
        var queue: QueueID?
        /// The root's situation, e.g. "#7 download executing 34 s, asynchronous".
        var text: String
        /// Higher is worse; the worst dependency is the one shown.
        var severity: Int
        /// Since when the root has been in its situation (earlier is worse at equal severity).
        var since: UInt64
    }

    let model: DashboardModel
    let now: UInt64
    private var causes: [OperationID: Cause] = [:]
    private var inProgress: Set<OperationID> = []
    private var executingByQueue: [QueueID: [OperationID]]?
    private var startOrders: [QueueID: (ids: [OperationID], positions: [OperationID: Int])] = [:]
    private var cycleSummaries: [Int: ([OperationID], String)] = [:]

    init(model: DashboardModel, now: UInt64) {
        self.model = model
        self.now = now
    }

    mutating func diagnosis(of id: OperationID) -> Diagnosis? {
        guard let record = model.operations[id], record.state < .executing, let cause = cause(of: id),
              let kind = cause.kind else { return nil }
        let message: String
        if kind == .waitingOnDependencies {
            let path = cause.chain.map(label).joined(separator: " waits on ")
            let others = cause.blockers.count - 1
            message = path + ": " + cause.text + (others > 0 ? " (and \(others) more unfinished dependenc\(others == 1 ? "y" : "ies"))" : "")
        } else {
            message = cause.text
        }
        return Diagnosis(operation: id, kind: kind, blockers: cause.blockers, chain: cause.chain,
                         rootCause: cause.root, queue: cause.queue, message: message)
    }

    private func label(_ id: OperationID) -> String { model.operations[id]?.label ?? id.description }

    private mutating func cause(of id: OperationID) -> Cause? {
        if let known = causes[id] { return known }
        guard let record = model.operations[id], record.state != .finished else { return nil }
        if inProgress.contains(id) {
            return Cause(kind: .cycle, blockers: [], chain: [id], root: id, queue: nil,
                         text: "\(record.label) is part of a dependency cycle", severity: 100, since: record.addedAt)
        }
        inProgress.insert(id)
        let cause = computeCause(record)
        inProgress.remove(id)
        causes[id] = cause
        return cause
    }

    private mutating func computeCause(_ record: OperationRecord) -> Cause {
        let id = record.id
        let label = record.label
        if record.unsignalledFinish {
            return Cause(kind: nil, blockers: [], chain: [id], root: id, queue: record.queue,
                         text: "\(label) reads isFinished true but its queue was never told (no didChangeValue(forKey: \"isFinished\"))",
                         severity: 90, since: record.startedAt ?? record.addedAt)
        }
        if record.state == .executing {
            let elapsed = record.runTime(now: now) ?? 0
            var text = "\(label) executing \(DurationText.format(elapsed))"
            if record.isAsynchronous { text += ", asynchronous" }
            if record.isCancelled { text += ", cancelled but still running" }
            let severity = record.isAsynchronous && elapsed > model.configuration.longAsynchronousExecution ? 60 : 40
            return Cause(kind: nil, blockers: [], chain: [id], root: id, queue: record.queue,
                         text: text, severity: severity, since: record.startedAt ?? record.addedAt)
        }
        if model.isInCycle(id) {
            // Computed once per cycle: a cycle of 10,000 operations must not cost 10,000² here.
            let (members, description) = cycleSummary(containing: id)
            return Cause(kind: .cycle, blockers: members.filter { $0 != id }.prefix(20).map { $0 }, chain: [id], root: id,
                         queue: nil, text: "\(label) is part of a dependency cycle: \(description)",
                         severity: 100, since: record.addedAt)
        }
        if record.state == .pending, !record.isCancelled {
            return dependencyCause(record)
        }
        return queueCause(record)
    }

    /// Pending: the worst unfinished dependency, followed down to its root.
    private mutating func dependencyCause(_ record: OperationRecord) -> Cause {
        let unfinished = record.dependencies.filter { (model.operations[$0]?.state ?? .finished) != .finished }
        guard !unfinished.isEmpty else {
            if !model.isStuckNotReady(record.id, now: now) {
                let unseen = record.dependencies.filter { model.operations[$0] == nil }
                let text = unseen.isEmpty
                    ? "\(record.label): its last dependency has just finished; Foundation makes it ready next"
                    : "\(record.label) waits on " + unseen.map(\.description).joined(separator: ", ")
                        + " (not seen by this dashboard: added before it attached, or no longer retained)"
                return Cause(kind: .waitingOnDependencies, blockers: [], chain: [record.id], root: record.id, queue: record.queue,
                             text: text, severity: 5, since: record.addedAt)
            }
            return Cause(kind: .notReadyWithoutDependencies, blockers: [], chain: [record.id], root: record.id,
                         queue: record.queue,
                         text: "\(record.label) is not ready although none of its dependencies is unfinished "
                             + "(a custom isReady, or Foundation lost count: on Linux removeDependency of an unfinished "
                             + "dependency never releases it; only cancel() does)",
                         severity: 75, since: record.addedAt)
        }
        var worst: Cause?
        for dependency in unfinished {
            guard let candidate = cause(of: dependency) else { continue }
            if let current = worst, (current.severity, UInt64.max - current.since) >= (candidate.severity, UInt64.max - candidate.since) {
                continue
            }
            worst = candidate
        }
        guard let worst else {
            return Cause(kind: .waitingOnDependencies, blockers: unfinished, chain: [record.id], root: nil, queue: nil,
                         text: "dependencies unfinished", severity: 10, since: record.addedAt)
        }
        return Cause(kind: .waitingOnDependencies, blockers: unfinished, chain: [record.id] + worst.chain,
                     root: worst.root, queue: worst.queue, text: worst.text, severity: worst.severity, since: worst.since)
    }

    /// Ready (or cancelled): the queue decides.
    private mutating func queueCause(_ record: OperationRecord) -> Cause {
        let id = record.id
        let label = record.label
        guard let queueID = record.queue, let queue = model.queues[queueID], !queue.isReleased else {
            return Cause(kind: .notInAnyQueue, blockers: [], chain: [id], root: id, queue: nil,
                         text: "\(label) was never added to an observed queue: nothing starts it unless the app does",
                         severity: 80, since: record.addedAt)
        }
        let queueName = "queue \(queueID) '\(queue.name)'"
        let cancelled = record.isCancelled
        if queue.isSuspended {
            let subject = cancelled ? "\(label) is cancelled and finishes when started, but \(queueName)" : "\(label) is ready but \(queueName)"
            return Cause(kind: cancelled ? .cancelledWaitingForSlot : .queueSuspended, blockers: [], chain: [id],
                         root: id, queue: queueID, text: subject + " is suspended", severity: 70, since: record.readyAt ?? record.addedAt)
        }
        if !queue.hasFreeSlot {
            let holders = executing(in: queueID)
            let names = holders.prefix(3).map { model.operations[$0]?.label ?? $0.description }.joined(separator: ", ")
            let serial = queue.maxConcurrentOperationCount == 1 ? " (serial)" : ""
            let subject = cancelled ? "\(label) is cancelled and finishes when started, but" : "\(label) waits for a slot:"
            return Cause(kind: cancelled ? .cancelledWaitingForSlot : .concurrencyLimit, blockers: holders, chain: [id],
                         root: holders.first, queue: queueID,
                         text: "\(subject) \(queueName) runs \(queue.executing) of \(queue.maxConcurrentOperationCount)\(serial): \(names) hold\(holders.count == 1 ? "s" : "") the slot\(holders.count == 1 ? "" : "s")",
                         severity: 50, since: record.readyAt ?? record.addedAt)
        }
        let order = startOrder(of: queueID)
        let position = order.positions[id] ?? order.ids.count
        // How many are ahead, and the first few of them (not all: a deep queue would make the
        // whole pass quadratic).
        let aheadCount = position
        let ahead = Array(order.ids.prefix(min(5, position)))
        let text: String
        if cancelled {
            text = "\(label) is cancelled and finishes as soon as \(queueName) starts it"
        } else if aheadCount == 0 {
            text = "\(label) is next to start in \(queueName)" + (queue.isMainQueue ? " (the main queue runs only while the main thread is free)" : "")
        } else {
            text = "\(label) waits behind \(aheadCount) operation\(aheadCount == 1 ? "" : "s") of higher priority or added earlier in \(queueName)"
        }
        return Cause(kind: cancelled ? .cancelledWaitingForSlot : .waitingForTurn, blockers: ahead,
                     chain: [id], root: id, queue: queueID, text: text, severity: cancelled ? 20 : 30,
                     since: record.readyAt ?? record.addedAt)
    }

    /// A queue's start order and each operation's place in it, computed once per pass.
    private mutating func startOrder(of queue: QueueID) -> (ids: [OperationID], positions: [OperationID: Int]) {
        if let known = startOrders[queue] { return known }
        let ids = model.startOrder(of: queue)
        var positions: [OperationID: Int] = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { positions[id] = index }
        startOrders[queue] = (ids, positions)
        return (ids, positions)
    }

    /// The members (first 21) and the description of the cycle containing `id`, once per cycle.
    private mutating func cycleSummary(containing id: OperationID) -> ([OperationID], String) {
        guard let index = model.cycles.firstIndex(where: { $0.contains(id) }) else { return ([id], model.cycleDescription([id, id])) }
        if let known = cycleSummaries[index] { return known }
        let cycle = model.cycles[index]
        let summary = (Array(cycle.prefix(21)), model.cycleDescription(cycle))
        cycleSummaries[index] = summary
        return summary
    }

    private mutating func executing(in queue: QueueID) -> [OperationID] {
        if executingByQueue == nil {
            var table: [QueueID: [OperationRecord]] = [:]
            for record in model.operations.values where record.state == .executing {
                if let queue = record.queue { table[queue, default: []].append(record) }
            }
            executingByQueue = table.mapValues { $0.sorted { ($0.startedAt ?? 0, $0.id) < ($1.startedAt ?? 0, $1.id) }.map(\.id) }
        }
        return executingByQueue?[queue] ?? []
    }
}
