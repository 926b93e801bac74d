/// One change the monitor saw: the "KVO keys" of an operation, reconstructed, and the state of its queue.
///
/// Events are plain values: they can be recorded to a file, replayed, or sent to another process.
public struct MonitorEvent: Codable, Sendable, Equatable {
    /// Position in the monitor's event stream; strictly increasing in the order events were produced.
    /// A snapshot states the sequence number from which events are not yet reflected in it.
    public var sequence: UInt64
    /// Monotonic time in nanoseconds (the monitor's clock), when the change happened or was seen.
    public var time: UInt64
    /// Whether the change was seen as it happened, sampled, or inferred.
    public var origin: EventOrigin
    /// What changed.
    public var change: Change

    /// Creates an event.
    public init(sequence: UInt64 = 0, time: UInt64, origin: EventOrigin = .exact, change: Change) {
        self.sequence = sequence
        self.time = time
        self.origin = origin
        self.change = change
    }

    /// The kinds of change, each naming the key it reconstructs.
    public enum Change: Codable, Sendable, Equatable {
        /// A queue became observed or tracked.
        indirect case queueAppeared(QueueInfo)
        /// `isSuspended` changed.
        case queueSuspended(queue: QueueID, suspended: Bool)
        /// `maxConcurrentOperationCount` changed.
        case queueMaxConcurrency(queue: QueueID, count: Int)
        /// `name` changed.
        case queueRenamed(queue: QueueID, name: String)
        /// `qualityOfService` changed.
        case queueQualityOfService(queue: QueueID, qos: QoSClass)
        /// `cancelAllOperations()` was called.
        case queueCancelledAll(queue: QueueID)
        /// How many operations a tracked queue holds (`operationCount`), read by sampling: a deep
        /// tracked queue's operations are registered a bounded number per walk, front first.
        case queueDepth(queue: QueueID, operations: Int)
        /// The queue object was deallocated; no further events name it.
        case queueReleased(queue: QueueID)

        /// The operation was added to a queue (or first seen as a dependency).
        indirect case operationAdded(OperationInfo)
        /// `isReady` changed.
        case ready(operation: OperationID, isReady: Bool)
        /// `isExecuting` became true.
        case started(operation: OperationID)
        /// `isExecuting` became false and `isFinished` true; `cancelled` is `isCancelled` at that moment.
        case finished(operation: OperationID, cancelled: Bool)
        /// `isCancelled` became true.
        case cancelled(operation: OperationID)
        /// `addDependency` after the operation was first seen.
        case dependencyAdded(operation: OperationID, dependency: OperationID)
        /// `removeDependency` after the operation was first seen.
        case dependencyRemoved(operation: OperationID, dependency: OperationID)
        /// `queuePriority` changed; `effective` is what the scheduler now uses.
        case priorityChanged(operation: OperationID, priority: OperationPriority, effective: OperationPriority)
        /// `isFinished` reads true but the queue was never notified (no `didChangeValue(forKey: "isFinished")`):
        /// the queue keeps the operation forever and its dependents never run.
        case unsignalledFinish(operation: OperationID)
        /// A sampled or external operation disappeared without a finish being seen.
        case released(operation: OperationID)

        /// The operation this change is about, if any.
        public var operation: OperationID? {
            switch self {
            case .operationAdded(let info): info.id
            case .ready(let id, _), .started(let id), .finished(let id, _), .cancelled(let id),
                 .dependencyAdded(let id, _), .dependencyRemoved(let id, _), .priorityChanged(let id, _, _),
                 .unsignalledFinish(let id), .released(let id):
                id
            case .queueAppeared, .queueSuspended, .queueMaxConcurrency, .queueRenamed, .queueQualityOfService,
                 .queueCancelledAll, .queueDepth, .queueReleased:
                nil
            }
        }

        /// The queue this change is about, if it is a queue change.
        public var queue: QueueID? {
            switch self {
            case .queueAppeared(let info): info.id
            case .queueSuspended(let id, _), .queueMaxConcurrency(let id, _), .queueRenamed(let id, _),
                 .queueQualityOfService(let id, _), .queueCancelledAll(let id), .queueDepth(let id, _),
                 .queueReleased(let id):
                id
            default: nil
            }
        }
    }
}
