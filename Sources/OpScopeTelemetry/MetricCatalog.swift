/// The metrics OpScope exports, each named once with its help, its kind and its labels, by
/// Prometheus conventions: base units in the name (`_seconds`), `_total` on counters, and only
/// low-cardinality labels (a queue, a state, a cause; never an operation's id or name).
public enum OpScopeMetric: String, CaseIterable, Sendable {
    /// Unfinished operations of a queue by state (`state`: executing, ready, pending).
    case queueOperations = "opscope_queue_operations"
    /// 1 while the queue is suspended, else 0.
    case queueSuspended = "opscope_queue_suspended"
    /// The queue's `maxConcurrentOperationCount` (-1: Foundation's default, no fixed limit).
    case queueMaxConcurrency = "opscope_queue_max_concurrency"
    /// Operations of the queue that finished since it was first seen (cancelled ones included).
    case operationsFinished = "opscope_queue_operations_finished_total"
    /// Of those, the cancelled ones.
    case operationsCancelled = "opscope_queue_operations_cancelled_total"
    /// Time from an operation's add to its start.
    case operationWait = "opscope_operation_wait_seconds"
    /// Time from an operation's start to its finish.
    case operationRun = "opscope_operation_run_seconds"
    /// Operations that cannot go on without someone's help, by the cause that holds them
    /// (`cause`: a `StuckCause`; an operation waiting on stuck work counts under its root's cause).
    case stuckOperations = "opscope_stuck_operations"
    /// Events the metrics' own subscription lost (it fell behind; what it shows was rebuilt from
    /// a keyframe, and the histograms miss the starts and finishes in between).
    case eventsLost = "opscope_telemetry_events_lost_total"

    /// What a metric is, as Prometheus types it.
    public enum Kind: Sendable {
        /// A value that goes up and down.
        case gauge
        /// A count that only grows.
        case counter
        /// Observations in buckets (seconds).
        case histogram
    }

    /// The metric's name.
    public var name: String { rawValue }

    /// The metric's kind.
    public var kind: Kind {
        switch self {
        case .queueOperations, .queueSuspended, .queueMaxConcurrency, .stuckOperations: .gauge
        case .operationsFinished, .operationsCancelled, .eventsLost: .counter
        case .operationWait, .operationRun: .histogram
        }
    }

    /// The `# HELP` line's text.
    public var help: String {
        switch self {
        case .queueOperations: "Unfinished operations of the queue, by state (executing, ready, pending)."
        case .queueSuspended: "1 while the queue is suspended, else 0."
        case .queueMaxConcurrency: "The queue's maxConcurrentOperationCount (-1: no fixed limit)."
        case .operationsFinished: "Operations of the queue that finished since it was first seen, cancelled ones included."
        case .operationsCancelled: "Operations of the queue that finished cancelled since it was first seen."
        case .operationWait: "Seconds from an operation's add to its start."
        case .operationRun: "Seconds from an operation's start to its finish."
        case .stuckOperations: "Operations that cannot go on without help, by the cause that holds them."
        case .eventsLost: "Events the metrics subscription lost because it fell behind."
        }
    }

    /// The labels the metric carries, in order.
    public var labels: [String] {
        switch self {
        case .queueOperations: ["queue", "queue_id", "state"]
        case .queueSuspended, .queueMaxConcurrency, .operationsFinished, .operationsCancelled, .operationWait, .operationRun:
            ["queue", "queue_id"]
        case .stuckOperations: ["cause"]
        case .eventsLost: []
        }
    }

    /// The metric a name belongs to, if it is one of these.
    public init?(name: String) { self.init(rawValue: name) }
}
