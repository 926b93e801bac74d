import OperationEvents

/// The current state as a Codable value: what `opscope report --json` prints and what a program
/// can read in-process. The schema is documented in README.md and is a public interface.
public struct DashboardReport: Codable, Sendable, Equatable {
    /// One queue.
    public struct Queue: Codable, Sendable, Equatable {
        public var id: QueueID
        public var name: String
        public var suspended: Bool
        /// `maxConcurrentOperationCount`; -1 is Foundation's default (no fixed limit).
        public var maxConcurrent: Int
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
        public var id: OperationID
        public var name: String
        public var queue: QueueID?
        public var state: OperationState
        public var cancelled: Bool
        public var priority: OperationPriority
        public var effectivePriority: OperationPriority
        public var qos: QoSClass
        public var dependencies: [OperationID]
        public var asynchronous: Bool
    }

    /// Monitor clock (nanoseconds) when the report was made.
    public var time: UInt64
    public var queues: [Queue]
    public var operations: [Operation]
    /// Each dependency cycle as a list of ids, in "waits on" order, first id repeated at the end.
    public var cycles: [[OperationID]]
    public var diagnoses: [Diagnosis]
    public var warnings: [Warning]
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
