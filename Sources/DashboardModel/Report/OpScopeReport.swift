import OperationEvents

/// What OpScope knows about a program's operations, as one Codable value: every queue with its
/// counts and wait/run percentiles, every retained operation with its final state and times,
/// why each unstarted one is not running, the warnings, and how much history was trimmed or
/// lost. It is what `opscope report --json` prints and what `OpScopeDashboard.report(monitor)`
/// returns; its schema is schemas/report.schema.json (described in docs/report.md), a public interface.
public struct OpScopeReport: Codable, Sendable, Equatable {
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
        /// Of those, ready (`isReady` true): they wait for a slot, their turn, or a resume; the
        /// others wait on dependencies (the dashboard's queue line says `ready R  pending P`).
        public var ready: Int
        /// Finished since observed, including those no longer retained.
        public var finished: Int
        /// Of those, cancelled.
        public var cancelled: Int
        /// Finished operations no longer retained (trimmed by the retention of the monitor's
        /// history or of this model): counted here, absent from `operations`.
        public var trimmed: Int
        /// The queue object was released (its retained operations are still reported).
        public var released: Bool
        /// `observed` or `sampled`.
        public var observation: QueueObservation
        /// Wait times (added → started) of its retained operations, in nanoseconds.
        public var wait: LatencyStatistics.Percentiles
        /// Run times (started → finished), in nanoseconds.
        public var run: LatencyStatistics.Percentiles
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
        /// When it was added (first seen, with `firstSeenLate`), monitor clock in nanoseconds.
        public var addedAt: UInt64
        /// When it became ready.
        public var readyAt: UInt64?
        /// When it started.
        public var startedAt: UInt64?
        /// When it finished.
        public var finishedAt: UInt64?
        /// True when the finish was deduced rather than seen (absent otherwise).
        public var finishInferred: Bool?
        /// True when it was already added when first seen: `addedAt` is when it was first seen
        /// (absent otherwise).
        public var firstSeenLate: Bool?
        /// How the monitor observed it (absent from reports written before it was kept).
        public var observation: ObservationMode?
        /// How each of its times was seen (absent from reports written before it was kept).
        public var seen: Seen?
    }

    /// How each time of an operation was seen: `exact` (reported as it happened), `sampled`
    /// (read by polling, up to one sampling interval late) or `inferred` (deduced: a start
    /// implied by a finish, a finish implied by a dependent's start). A time the operation has not
    /// reached is absent.
    public struct Seen: Codable, Sendable, Equatable {
        /// `addedAt` (with `firstSeenLate`, when it was first seen).
        public var added: EventOrigin
        /// `readyAt`.
        public var ready: EventOrigin?
        /// `startedAt`.
        public var started: EventOrigin?
        /// `finishedAt`.
        public var finished: EventOrigin?

        /// The moments of `record`.
        public init(_ record: OperationRecord) {
            added = record.origin(of: .added) ?? .exact
            ready = record.origin(of: .ready)
            started = record.origin(of: .started)
            finished = record.origin(of: .finished)
        }

        /// Every moment the operation reached was seen as it happened.
        public var allExact: Bool { [added, ready, started, finished].allSatisfy { $0 == nil || $0 == .exact } }
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
    /// What is wrong: cycles and lost events first, then queues, then per operation.
    public var warnings: [Warning]
    /// Events lost before they reached the model.
    public var droppedEvents: Int
    /// Finished operations no longer retained, in all (per queue in `queues[].trimmed`; those of
    /// no queue, or of a queue since forgotten, only here): 0 when the report tells every
    /// operation the program ran.
    public var trimmed: Int

    /// True when the report shows a cycle or an operation that cannot progress on its own
    /// (`opscope report` exits with status 1 then), as `StuckCause.reportVerdict` decides: a
    /// suspended queue never counts, an operation not ready without dependencies counts once its
    /// warning is raised (after `notReadyGrace`), a cycle or a dependency in no queue as soon as
    /// it is diagnosed.
    public var hasProblem: Bool {
        !cycles.isEmpty
            || warnings.contains { $0.kind.stuckCause.map { $0.reportVerdict != .never } ?? false }
            || diagnoses.contains { $0.kind.stuckCause?.reportVerdict == .whenDiagnosed }
    }
}

extension OpScopeReport.Queue {
    /// Reads a queue of a report; `ready` is absent from reports written before it was kept
    /// (read as 0: the report said only how many waited).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(QueueID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        suspended = try container.decode(Bool.self, forKey: .suspended)
        maxConcurrent = try container.decode(Int.self, forKey: .maxConcurrent)
        executing = try container.decode(Int.self, forKey: .executing)
        pending = try container.decode(Int.self, forKey: .pending)
        ready = try container.decodeIfPresent(Int.self, forKey: .ready) ?? 0
        finished = try container.decode(Int.self, forKey: .finished)
        cancelled = try container.decode(Int.self, forKey: .cancelled)
        trimmed = try container.decode(Int.self, forKey: .trimmed)
        released = try container.decode(Bool.self, forKey: .released)
        observation = try container.decode(QueueObservation.self, forKey: .observation)
        wait = try container.decode(LatencyStatistics.Percentiles.self, forKey: .wait)
        run = try container.decode(LatencyStatistics.Percentiles.self, forKey: .run)
    }
}

extension OpScopeReport {
    /// The report of the current state. Linear in the operations and edges retained: each
    /// diagnosis names its root cause and chain length rather than the whole chain.
    init(_ model: DashboardModel, now: UInt64) {
        let queueList = model.queues.values.sorted { $0.id < $1.id }.map { queue in
            OpScopeReport.Queue(
                id: queue.id, name: queue.name, suspended: queue.isSuspended, maxConcurrent: queue.maxConcurrentOperationCount,
                executing: queue.executing, pending: queue.waiting, ready: queue.ready, finished: queue.finished, cancelled: queue.cancelled,
                trimmed: queue.trimmed, released: queue.isReleased, observation: queue.observation,
                wait: queue.latency.wait, run: queue.latency.run)
        }
        var operationList: [OpScopeReport.Operation] = []
        operationList.reserveCapacity(model.operations.count)
        model.operations.forEach { pointer in
            let record = pointer.pointee
            operationList.append(OpScopeReport.Operation(
                id: record.id, name: record.displayName, queue: record.queue, state: record.state, cancelled: record.isCancelled,
                priority: record.priority, effectivePriority: record.effectivePriority, qos: record.qualityOfService,
                dependencies: record.dependencies, asynchronous: record.isAsynchronous, addedAt: record.addedAt,
                readyAt: record.readyAt, startedAt: record.startedAt, finishedAt: record.finishedAt,
                finishInferred: record.finishWasInferred ? true : nil, firstSeenLate: record.firstSeenLate ? true : nil,
                observation: record.observation, seen: OpScopeReport.Seen(record)))
        }
        operationList.sort { $0.id < $1.id }
        self.init(time: now, queues: queueList, operations: operationList, cycles: model.cycles,
                  diagnoses: model.diagnoses(now: now), warnings: model.warnings(now: now), droppedEvents: model.droppedEvents,
                  trimmed: model.stream.counters.trimmed)
    }
}
