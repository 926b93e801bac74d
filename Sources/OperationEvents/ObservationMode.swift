/// How the monitor learns about one operation: this decides which of its events are exact.
public enum ObservationMode: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// An `ObservableOperation` (or async / block variant) in an observed queue:
    /// every key change is reported exactly, at the moment Foundation makes it.
    case instrumented
    /// Any other operation added to an `ObservedOperationQueue` (or reported with
    /// `OperationMonitor.willAdd(_:to:)`): add, readiness and finish are exact; the start (and a
    /// cancel the app makes directly) is sampled, or inferred at finish.
    case hooked
    /// An operation of a queue the monitor only tracks (`monitor.track(queue)`): everything is sampled.
    case sampled
    /// An operation that other operations depend on but that is in no observed queue; sampled.
    case external

    /// One word for tables.
    public var description: String { rawValue }
}

/// How the monitor learns about one queue.
public enum QueueObservation: String, Codable, Sendable, CustomStringConvertible {
    /// An `ObservedOperationQueue`: every add and every state change is reported exactly.
    case observed
    /// A queue the app created elsewhere (or `OperationQueue.main`), polled by the sampler.
    case sampled
    /// A queue of the program's own class whose adds the program reports to the monitor
    /// (`OperationMonitor.willAdd(_:to:)`, from its subclass or its delegate): its operations are
    /// hooked (exact add, readiness and finish); its state, and any add not reported, are sampled.
    case reported

    public var description: String { rawValue }
}

/// Whether an event was seen as it happened, read by polling, or deduced.
public enum EventOrigin: String, Codable, Sendable, CustomStringConvertible {
    /// Reported by a hook at the moment of the change.
    case exact
    /// Read by the sampler; the change happened at most one sampling interval earlier.
    case sampled
    /// Not seen: deduced from a later exact event (e.g. a start implied by a finish).
    case inferred

    public var description: String { rawValue }
}
