/// The names of what OpScope's spans say, defined once for the OTLP exporter and the OTLP JSON
/// file. OpenTelemetry's semantic conventions have no names for an operation queue's facts, so
/// they are `opscope.*`; the resource uses the conventions' `service.*` and `process.*`
/// (`ResourceField`).
public enum SpanField: String, Sendable, CaseIterable {
    /// The operation's id in its monitor (`#12` is 12).
    case operationID = "opscope.operation.id"
    /// The class name.
    case typeName = "opscope.operation.type"
    /// The queue's name.
    case queueName = "opscope.queue.name"
    /// The queue's id in its monitor (`q2` is 2).
    case queueID = "opscope.queue.id"
    /// `qualityOfService`.
    case qualityOfService = "opscope.operation.qos"
    /// `queuePriority` as set.
    case priority = "opscope.operation.priority"
    /// The priority the queue schedules it by (Linux Foundation: the QoS's when none was set).
    case effectivePriority = "opscope.operation.priority.effective"
    /// `isAsynchronous`.
    case asynchronous = "opscope.operation.asynchronous"
    /// `isCancelled` when exported.
    case cancelled = "opscope.operation.cancelled"
    /// A barrier block.
    case barrier = "opscope.operation.barrier"
    /// How the operation was observed: instrumented, hooked or sampled.
    case observation = "opscope.operation.observation"
    /// How the start was seen: exact, sampled or inferred.
    case startSeen = "opscope.operation.started.seen"
    /// How the finish was seen: exact, sampled or inferred.
    case finishSeen = "opscope.operation.finished.seen"
    /// Already in its queue when first seen: the span's start is when it was seen.
    case firstSeenLate = "opscope.operation.first_seen_late"
    /// Seconds from added to started.
    case waitSeconds = "opscope.operation.wait_seconds"
    /// Seconds from started to finished.
    case runSeconds = "opscope.operation.run_seconds"
    /// The ids of the operations it depends on (the links say the same, for viewers that do
    /// not draw links).
    case dependencies = "opscope.operation.dependencies"
    /// Pending, ready, executing or finished, when exported.
    case state = "opscope.operation.state"
    /// Not finished when exported.
    case unfinished = "opscope.operation.unfinished"
    /// Why it cannot go on (the model's `StuckCause`), when it is stuck.
    case stuckCause = "opscope.stuck.cause"
    /// A warning's kind (on a `warning` event).
    case warningKind = "opscope.warning.kind"
    /// A warning's text (on a `warning` event).
    case warningMessage = "opscope.warning.message"

    /// The span events.
    public enum Event: String, Sendable, CaseIterable {
        /// `isReady` became true.
        case ready = "opscope.operation.ready"
        /// The queue started it: the wait ends here.
        case started = "opscope.operation.started"
        /// `isCancelled` became true.
        case cancelled = "opscope.operation.cancelled"
        /// A warning about it appeared.
        case warning = "opscope.warning"
    }
}

/// What the session's root span says.
public enum SessionField: String, Sendable, CaseIterable {
    /// Events the spans' consumer lost (its subscription fell behind, or the recording lost
    /// them): operations whose changes were lost are seen again at the next keyframe.
    case eventsLost = "opscope.events_lost"
    /// Operation spans in the session.
    case spans = "opscope.spans"
}

/// The resource attributes OpScope sets, by OpenTelemetry's semantic conventions.
public enum ResourceField: String, Sendable, CaseIterable {
    /// The program's name, unless `OTEL_SERVICE_NAME` says otherwise.
    case serviceName = "service.name"
    /// The program's process id.
    case processID = "process.pid"
    /// The program's executable name.
    case executableName = "process.executable.name"
    /// The machine's name.
    case hostName = "host.name"
}
