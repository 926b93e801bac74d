import DashboardModel
import OperationEvents

/// Waiting operations grouped under what they wait for (view 2): everything behind one hanging
/// operation together, everything a suspended queue holds together, each cycle, each queue at
/// its limit. Built from the model's diagnoses; the worst causes come first.
public struct RootCauseGroups: Sendable {
    /// What a group of operations waits for.
    public enum Cause: Hashable, Sendable {
        /// One operation at the root of every chain (executing, never enqueued, not ready).
        case operation(OperationID)
        /// A suspended queue.
        case suspended(QueueID)
        /// A queue running its maximum number of operations.
        case limit(QueueID)
        /// A queue with a free slot: they start in start order.
        case turn(QueueID)
        /// A dependency cycle (its index in `model.cycles`).
        case cycle(Int)
        /// Dependencies the dashboard never saw.
        case unseen
        /// Dependencies still running normally (an asynchronous one not yet past the model's
        /// long-running threshold): nothing is wrong, they start when those finish.
        case running
    }

    /// One root cause and the operations it holds.
    public struct Group: Sendable, Equatable {
        /// The cause.
        public var cause: Cause
        /// The cause in words.
        public var title: String
        /// Lower is worse: cycles and never-enqueued work first, turns last.
        public var severity: Int
        /// The waiting operations, in id order, after the root when the cause is an operation
        /// (waiting itself, as a never-enqueued one, or running, as one that never calls
        /// finish()): every such group shows its cause, and the root is not one of its own
        /// `waiters`.
        public var members: [OperationID]
        /// The root cause when it is an operation the model holds (first in `members`).
        public var root: OperationID?

        /// The operations that wait for the cause: the members less the root.
        public var waiters: Int { members.count - (root == nil ? 0 : 1) }
    }

    /// The groups, worst first.
    public private(set) var groups: [Group] = []
    /// Each waiting operation's chain to the root (itself first).
    public private(set) var chains: [OperationID: [OperationID]] = [:]

    /// Groups the model's diagnoses.
    public static func build(_ model: DashboardModel) -> RootCauseGroups {
        var result = RootCauseGroups()
        let diagnoses = model.diagnoses()
        var byOperation: [OperationID: Diagnosis] = [:]
        for diagnosis in diagnoses { byOperation[diagnosis.operation] = diagnosis }
        let warned = Set(model.warnings().compactMap { $0.kind.stuckCause == nil ? nil : $0.operation })
        var members: [Cause: [OperationID]] = [:]
        var order: [Cause] = []
        for diagnosis in diagnoses {
            let cause = Self.cause(of: diagnosis, byOperation, warned, model)
            if members[cause] == nil { order.append(cause) }
            if case .operation(diagnosis.operation) = cause {} else {
                members[cause, default: []].append(diagnosis.operation)
            }
            result.chains[diagnosis.operation] = Diagnosis.path(from: diagnosis, through: byOperation, limit: 8)
        }
        result.groups = order.map { cause in
            let (title, severity) = Self.describe(cause, byOperation, warned, model)
            // The root is listed whether it waits too or runs (it has no diagnosis then): a group
            // of work behind a hung operation showed the waiters and not the cause.
            let root: OperationID? = if case .operation(let id) = cause, model.operations.contains(id) { id } else { nil }
            return Group(cause: cause, title: title, severity: severity, members: (root.map { [$0] } ?? []) + (members[cause] ?? []),
                         root: root)
        }
        result.groups.sort { ($0.severity, -$0.members.count, $0.title) < ($1.severity, -$1.members.count, $1.title) }
        return result
    }

    /// Where a diagnosis leads: the root operation's own situation, or the queue's. A root that
    /// is executing without a warning (not past the long-running threshold, finish not lost,
    /// not cancelled and going on) is work in progress, not a root cause.
    private static func cause(of diagnosis: Diagnosis, _ byOperation: [OperationID: Diagnosis], _ warned: Set<OperationID>,
                              _ model: DashboardModel) -> Cause {
        var terminal = diagnosis
        if diagnosis.kind == .waitingOnDependencies {
            guard let root = diagnosis.rootCause, root != diagnosis.operation else { return .unseen }
            guard let rootDiagnosis = byOperation[root], rootDiagnosis.kind != .waitingOnDependencies else {
                let executing = model.operations.read(root) { $0.state == .executing } ?? false
                return executing && !warned.contains(root) ? .running : .operation(root)
            }
            terminal = rootDiagnosis
        }
        let queue = terminal.queue ?? model.operations[terminal.operation]?.queue
        switch terminal.kind {
        case .queueSuspended: return queue.map(Cause.suspended) ?? .operation(terminal.operation)
        case .concurrencyLimit: return queue.map(Cause.limit) ?? .operation(terminal.operation)
        case .waitingForTurn: return queue.map(Cause.turn) ?? .operation(terminal.operation)
        case .cancelledWaitingForSlot:
            guard let queue, let record = model.queues[queue] else { return .operation(terminal.operation) }
            if record.isSuspended { return .suspended(queue) }
            return record.hasFreeSlot ? .turn(queue) : .limit(queue)
        case .cycle:
            if let index = model.cycles.firstIndex(where: { $0.contains(terminal.operation) }) { return .cycle(index) }
            return .operation(terminal.operation)
        case .notInAnyQueue, .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted, .waitingOnDependencies:
            return .operation(terminal.operation)
        }
    }

    private static func describe(_ cause: Cause, _ byOperation: [OperationID: Diagnosis], _ warned: Set<OperationID>,
                                 _ model: DashboardModel) -> (String, Int) {
        func queueName(_ id: QueueID) -> String { "\(id) '\(model.queues[id]?.name ?? "?")'" }
        switch cause {
        case .cycle(let index):
            let cycle = model.cycles.indices.contains(index) ? model.cycles[index] : []
            return ("a dependency cycle, none of them can ever start: " + model.cycleDescription(cycle), StuckCause.cycle.groupRank)
        case .operation(let id):
            guard let record = model.operations[id] else { return ("\(id) (no longer retained)", 8) }
            if record.state == .executing {
                var text = "\(record.label) executing \(DurationText.format(record.runTime(now: model.now) ?? 0))"
                if record.isAsynchronous { text += ", asynchronous" }
                if record.isCancelled { text += ", cancelled but still running" }
                guard warned.contains(id) else { return (text, 5) }
                let stuck = StuckCause.ofExecuting(unsignalledFinish: record.unsignalledFinish, cancelled: record.isCancelled,
                                                   asynchronous: record.isAsynchronous)
                return (text + ": " + (stuck.executingAdvice ?? ""), stuck.groupRank)
            }
            guard let diagnosis = byOperation[id] else { return (record.label, 8) }
            // A root waiting for something that goes on by itself ranks with the queues' limits.
            return (diagnosis.message, diagnosis.kind.stuckCause?.groupRank ?? 6)
        case .suspended(let queue):
            return ("queue \(queueName(queue)) is suspended, it starts nothing: " + Diagnosis.suspendedQueueAdvice,
                    StuckCause.queueSuspended.groupRank)
        case .limit(let queue):
            let record = model.queues[queue]
            return ("queue \(queueName(queue)) runs \(record?.executing ?? 0) of \(record?.limitText ?? "?"), its limit: they wait for a slot", 6)
        case .turn(let queue):
            return ("queue \(queueName(queue)) has a free slot: they start in start order", 7)
        case .unseen:
            return ("dependencies this dashboard never saw (added before it attached, or no longer retained)", 8)
        case .running:
            return ("dependencies still running: each starts when they finish (nothing is stuck here)", 9)
        }
    }
}
