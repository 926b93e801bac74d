/// What applying one event did to a stream state, so that a consumer keeps what it derives
/// (levels, start lists, cycles, latencies) up to date without looking at everything again.
public struct StreamChange: Sendable, Equatable {
    /// The main effect.
    public enum Effect: Sendable, Equatable {
        /// Nothing changed (see `anomaly`).
        case none
        /// A queue appeared (`isNew`), or a known one was announced again.
        case queueAppeared(QueueID, isNew: Bool)
        /// A queue's keys changed (suspension, limit, name, QoS, sampled depth).
        case queueChanged(QueueID)
        /// A queue was released (`forgotten`: it held no operation any more and was dropped).
        case queueReleased(QueueID, forgotten: Bool)
        /// A new operation.
        case operationAdded(OperationID)
        /// A known operation announced again: it may have moved to another queue, or gained
        /// dependencies.
        case operationUpdated(OperationID, queueChanged: Bool, gainedDependencies: Bool)
        /// `isReady` changed.
        case readinessChanged(OperationID)
        /// It started.
        case started(OperationID)
        /// It finished.
        case finished(OperationID)
        /// An exact finish replaced a deduced one (its time, perhaps its cancellation).
        case finishConfirmed(OperationID)
        /// It was cancelled.
        case cancelled(OperationID)
        /// It gained a dependency.
        case dependencyAdded(OperationID, dependency: OperationID)
        /// It lost a dependency.
        case dependencyRemoved(OperationID, dependency: OperationID)
        /// Its priority changed (`effectiveChanged`: the one its queue schedules by).
        case priorityChanged(OperationID, effectiveChanged: Bool)
        /// It reads finished although its queue was never told.
        case unsignalledFinish(OperationID)
        /// Something about an operation was recorded (a key change) without changing its state.
        case noted(OperationID)
    }

    /// The main effect.
    public var effect: Effect
    /// Operations the event showed must have finished although their finish was not seen yet
    /// (a dependent started or finished): they are now finished, deduced.
    public var impliedFinishes: [OperationID] {
        get { storedImpliedFinishes ?? [] }
        set { storedImpliedFinishes = newValue.isEmpty ? nil : newValue }
    }
    /// The operation was finished by deduction and the event showed it alive: its finish was
    /// undone before the effect.
    public var revived = false
    /// Why the event was not applied as it stands, if it was not.
    public var anomaly: StreamAnomaly?
    /// Events the sequence numbers skipped just before this one (0: none). The consumer should
    /// ask its subscription to resynchronise.
    public var missedEvents: UInt64 = 0
    /// Events about the operation or queue this event announced that arrived before it: held
    /// until now, applied just after it, each with what it changed.
    public var released: [ReleasedEvent] {
        get { storedReleased ?? [] }
        set { storedReleased = newValue.isEmpty ? nil : newValue }
    }
    /// True when events were released with this one (see `released`), without making the list.
    public var releasedAny: Bool { storedReleased != nil }
    /// True when the event implied finishes (see `impliedFinishes`), without making the list.
    public var impliesFinishes: Bool { storedImpliedFinishes != nil }

    // Stored as optionals, nil when empty (almost always): a change is made, returned and read
    // for every event, and an empty array is still a reference to retain and release at each
    // copy, where nil is not.
    private var storedImpliedFinishes: [OperationID]?
    private var storedReleased: [ReleasedEvent]?

    /// A change.
    public init(_ effect: Effect, anomaly: StreamAnomaly? = nil) {
        self.effect = effect
        self.anomaly = anomaly
    }

    /// The operation the effect is about, if any.
    public var operation: OperationID? {
        switch effect {
        case .operationAdded(let id), .operationUpdated(let id, _, _), .readinessChanged(let id), .started(let id),
             .finished(let id), .finishConfirmed(let id), .cancelled(let id), .dependencyAdded(let id, _),
             .dependencyRemoved(let id, _), .priorityChanged(let id, _), .unsignalledFinish(let id), .noted(let id):
            id
        case .none, .queueAppeared, .queueChanged, .queueReleased:
            nil
        }
    }
}
