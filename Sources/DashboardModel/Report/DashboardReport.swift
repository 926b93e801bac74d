import OperationEvents

/// The current state as a Codable value: what `opscope report --json` prints and what a program
/// can read in-process. The schema is documented in README.md and is a public interface.
public struct DashboardReport: Codable, Sendable, Equatable {
    /// One queue.
    public struct Queue: Codable, Sendable, Equatable {
        /// The queue's id.
        public var id: QueueID
        /// `name`.
        public var name: String
        /// `isSuspended`.
        public var suspended: Bool
        /// `maxConcurrentOperationCount`; -1 is Foundation's default (no fixed limit).
        public var maxConcurrent: Int
        /// Operations executing.
        public var executing: Int
        /// Unstarted operations (waiting on dependencies or ready).
        public var pending: Int
        /// Finished since observed, including those no longer retained.
        public var finished: Int
        /// `observed` or `sampled`.
        public var observation: QueueObservation
    }

    /// One retained operation.
    public struct Operation: Codable, Sendable, Equatable {
        /// The operation's id.
        public var id: OperationID
        /// The name to show: the app's name, else the type name.
        public var name: String
        /// Its queue; nil for an operation known only as a dependency.
        public var queue: QueueID?
        /// Pending, ready, executing or finished.
        public var state: OperationState
        /// `isCancelled`.
        public var cancelled: Bool
        /// `queuePriority` as declared.
        public var priority: OperationPriority
        /// The priority its queue schedules it by.
        public var effectivePriority: OperationPriority
        /// `qualityOfService`.
        public var qos: QoSClass
        /// The operations it waits for.
        public var dependencies: [OperationID]
        /// `isAsynchronous`.
        public var asynchronous: Bool
    }

    /// Monitor clock (nanoseconds) when the report was made.
    public var time: UInt64
    /// Every queue, in id order.
    public var queues: [Queue]
    /// Every retained operation, in id order.
    public var operations: [Operation]
    /// Each dependency cycle as a list of ids, in "waits on" order, first id repeated at the end.
    public var cycles: [[OperationID]]
    /// Why each operation that is neither executing nor finished is not running.
    public var diagnoses: [Diagnosis]
    /// What is wrong, program-wide first, then per operation.
    public var warnings: [Warning]
    /// Events lost before they reached the model.
    public var droppedEvents: Int

    /// True when the report shows a cycle or an operation that cannot progress on its own
    /// (`opscope report` exits with status 1 then).
    public var hasProblem: Bool {
        !cycles.isEmpty || warnings.contains { [.unsignalledFinish, .notReadyWithoutDependencies, .longRunningAsynchronous].contains($0.kind) }
            || diagnoses.contains { [.notInAnyQueue, .cycle, .notReadyWithoutDependencies].contains($0.kind) }
    }
}

extension DashboardModel {
    /// The report of the current state.
    public func report(now: UInt64? = nil) -> DashboardReport {
        let now = now ?? self.now
        let queueList = queues.values.sorted { $0.id < $1.id }.map { queue in
            DashboardReport.Queue(
                id: queue.id, name: queue.name, suspended: queue.isSuspended, maxConcurrent: queue.maxConcurrentOperationCount,
                executing: queue.executing, pending: queue.waiting, finished: queue.finished, observation: queue.observation)
        }
        let operationList = operations.values.sorted { $0.id < $1.id }.map { record in
            DashboardReport.Operation(
                id: record.id, name: record.displayName, queue: record.queue, state: record.state, cancelled: record.isCancelled,
                priority: record.priority, effectivePriority: record.effectivePriority, qos: record.qualityOfService,
                dependencies: record.dependencies, asynchronous: record.isAsynchronous)
        }
        return DashboardReport(time: now, queues: queueList, operations: operationList, cycles: cycles,
                               diagnoses: diagnoses(now: now), warnings: warnings(now: now), droppedEvents: droppedEvents)
    }
}
