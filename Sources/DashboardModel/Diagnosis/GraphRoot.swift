import OperationEvents

/// Why an operation is the root of a wait that will not end by itself: what the dashboard's graph
/// marks and the exported graphs (DOT, Mermaid) mark, by the same rule. Each mark is a
/// `StuckCause` (`cause`), decided on the frame path from a few fields of the record: the rule
/// reads no history, so the two kinds of not ready are one mark, and a cancelled operation that
/// keeps executing is marked by how long it runs.
package enum GraphRoot: Int, Sendable, Comparable {
    /// In a dependency cycle: it can never become ready.
    case cycle
    /// Never added to an observed queue (known only as a dependency, or its queue released).
    case noQueue
    /// Asynchronous and executing for longer than the warning threshold: `finish()` never called?
    case neverFinishes
    /// Synchronous and executing for longer than the warning threshold: `main()` never returns?
    case neverReturns
    /// `isFinished` true but the queue was never told.
    case finishNotSignalled
    /// Pending although every dependency finished, for longer than the grace period.
    case notReady
    /// Ready with a free slot in a running queue, and not started past the grace period: the
    /// queue does not see it ready (an `isReady` that turned true untold).
    case notStarted
    /// Ready (or cancelled) in a suspended queue.
    case suspended

    /// The mark's words on the graph (`◆ in no queue`); nil for cycles, which the banner names.
    package var tag: String? {
        switch self {
        case .cycle: nil
        case .noQueue: "in no queue"
        case .neverFinishes: "never finishes?"
        case .neverReturns: "main() never returns?"
        case .finishNotSignalled: "finish not signalled"
        case .notReady: "not ready, no reason"
        case .notStarted: "not started"
        case .suspended: "queue suspended"
        }
    }

    /// The cause the mark shows.
    package var cause: StuckCause {
        switch self {
        case .cycle: .cycle
        case .noQueue: .notInAnyQueue
        case .neverFinishes: .neverFinishes
        case .neverReturns: .neverReturns
        case .finishNotSignalled: .unsignalledFinish
        case .notReady: .heldByCondition
        case .notStarted: .readyNotStarted
        case .suspended: .queueSuspended
        }
    }

    /// Worst first.
    package static func < (lhs: GraphRoot, rhs: GraphRoot) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The fields of a record the rule reads, copied out (a few words, no arrays or strings):
    /// handing a whole record to a function copies it, and retains everything it holds.
    package struct Facts: Sendable {
        package var id: OperationID
        package var state: OperationState
        package var isCancelled: Bool
        package var isAsynchronous: Bool
        package var unsignalledFinish: Bool
        package var sampled: Bool
        package var queue: QueueID?
        package var addedAt: UInt64
        package var startedAt: UInt64?

        /// The facts of the record at `pointer`, read field by field (on the frame path: no copy).
        @inline(__always)
        package init(_ pointer: UnsafePointer<OperationRecord>) {
            id = pointer.pointee.id
            state = pointer.pointee.state
            isCancelled = pointer.pointee.isCancelled
            isAsynchronous = pointer.pointee.isAsynchronous
            unsignalledFinish = pointer.pointee.unsignalledFinish
            sampled = pointer.pointee.observation == .sampled
            queue = pointer.pointee.queue
            addedAt = pointer.pointee.addedAt
            startedAt = pointer.pointee.startedAt
        }

        /// The facts of `record`.
        @inline(__always)
        package init(_ record: borrowing OperationRecord) {
            id = record.id
            state = record.state
            isCancelled = record.isCancelled
            isAsynchronous = record.isAsynchronous
            unsignalledFinish = record.unsignalledFinish
            sampled = record.observation == .sampled
            queue = record.queue
            addedAt = record.addedAt
            startedAt = record.startedAt
        }
    }

    /// Whether a queue is suspended and whether it was released, as the rule reads them.
    package typealias QueueState = (suspended: Bool, released: Bool)

    /// The root `record` is, if any, reading its queue from the model (the exports' use; a view
    /// that draws many operations reads every queue once and passes `queueState`).
    package static func of(_ record: borrowing OperationRecord, in model: DashboardModel) -> GraphRoot? {
        let dependencies = record.dependencies
        return of(Facts(record), in: model, waitsOnUnfinished: false,
                  queueState: { queue in model.queues.read(queue) { (suspended: $0.isSuspended, released: $0.isReleased) } },
                  dependencies: { _ in dependencies })
    }

    /// The root an operation with `facts` is, if any: a few comparisons. Only a pending
    /// operation none of whose dependencies is known to be unfinished (`waitsOnUnfinished`)
    /// reads its `dependencies` and their states.
    package static func of(_ facts: Facts, in model: DashboardModel, waitsOnUnfinished: Bool,
                           queueState: (QueueID) -> QueueState?, dependencies: (Facts) -> [OperationID]) -> GraphRoot? {
        // Most models have no cycle: skip the set lookup per operation.
        if !model.cycles.isEmpty, model.isInCycle(facts.id) { return .cycle }
        switch facts.state {
        case .finished:
            return nil
        case .executing:
            if facts.unsignalledFinish { return .finishNotSignalled }
            guard let startedAt = facts.startedAt, model.now > startedAt,
                  model.now - startedAt > model.configuration.longExecution else { return nil }
            return facts.isAsynchronous ? .neverFinishes : .neverReturns
        case .pending, .ready:
            guard let queue = facts.queue, let flags = queueState(queue), !flags.released else { return .noQueue }
            if flags.suspended, facts.state == .ready || facts.isCancelled { return .suspended }
            if facts.state == .ready { return !facts.isCancelled && model.isReadyNotStarted(facts.id) ? .notStarted : nil }
            guard facts.state == .pending, !facts.isCancelled, !facts.sampled, !waitsOnUnfinished else { return nil }
            var lastFinish = facts.addedAt
            for dependency in dependencies(facts) {
                guard let (state, finishedAt) = model.operations.withRecord(dependency, { ($0.pointee.state, $0.pointee.finishedAt) }),
                      state == .finished else { return nil }
                lastFinish = max(lastFinish, finishedAt ?? lastFinish)
            }
            return model.now > lastFinish && model.now - lastFinish > model.configuration.notReadyGrace ? .notReady : nil
        }
    }
}
