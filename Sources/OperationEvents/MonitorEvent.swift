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

    /// Whether the change was seen as it happened, sampled, or inferred: the former name of
    /// `origin`.
    ///
    /// Its type was called `EventSource` then, and is `EventOrigin` now (`.exact`, `.sampled`,
    /// `.inferred` are the same cases): the name `EventSource` belongs to the protocol of the
    /// things a dashboard reads events from (the monitor, a recording, a remote program).
    @available(*, deprecated, renamed: "origin",
               message: "the enum formerly named EventSource is EventOrigin; EventSource is now the protocol of event sources")
    public var source: EventOrigin {
        get { origin }
        set { origin = newValue }
    }

    /// Creates an event: the former spelling of `init(sequence:time:origin:change:)`.
    @available(*, deprecated, renamed: "init(sequence:time:origin:change:)",
               message: "the enum formerly named EventSource is EventOrigin; EventSource is now the protocol of event sources")
    public init(sequence: UInt64 = 0, time: UInt64, source: EventOrigin, change: Change) {
        self.init(sequence: sequence, time: time, origin: source, change: change)
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

        /// The operation whose state the change moves (added, ready, started, finished,
        /// cancelled, a lost finish, gone) and the words for the move (`started`); nil for a
        /// change of anything else (dependencies, priority, queues). A recording's index and its
        /// `{` `}` keys go from one such move to the next.
        public var stateMove: (operation: OperationID, words: String)? {
            switch self {
            case .operationAdded(let info): (info.id, "added")
            case .ready(let id, let ready): (id, ready ? "became ready" : "became not ready")
            case .started(let id): (id, "started")
            case .finished(let id, let cancelled): (id, cancelled ? "finished (cancelled)" : "finished")
            case .cancelled(let id): (id, "cancelled")
            case .unsignalledFinish(let id): (id, "reads finished, but its queue was never told")
            case .released(let id): (id, "is gone")
            case .dependencyAdded, .dependencyRemoved, .priorityChanged, .queueAppeared, .queueSuspended, .queueMaxConcurrency,
                 .queueRenamed, .queueQualityOfService, .queueCancelledAll, .queueDepth, .queueReleased:
                nil
            }
        }

        /// How the stream's causal order treats an operation's change (see `CausalSequencer`):
        /// each kind of operation change names its rule here, so that a new kind picks one
        /// rather than adding a case to the sequencer. Nil for a queue's change, which the
        /// queue's own rule orders (its appearance first, nothing after its release).
        public var orderingRule: OrderingRule? {
            switch self {
            case .operationAdded(let info): .announcement(info)
            case .ready(_, let isReady): .readiness(isReady)
            case .started: .start
            case .finished(_, let cancelled): .finish(cancelled: cancelled)
            case .cancelled: .cancellation
            case .dependencyAdded(_, let dependency): .dependencyAdded(dependency)
            case .dependencyRemoved(_, let dependency): .dependencyRemoved(dependency)
            case .released: .release
            case .priorityChanged, .unsignalledFinish: .asItComes
            case .queueAppeared, .queueSuspended, .queueMaxConcurrency, .queueRenamed, .queueQualityOfService,
                 .queueCancelledAll, .queueDepth, .queueReleased:
                nil
            }
        }

        /// The rules of the stream's causal order for an operation's changes
        /// (EVENT-FORMAT.md, "Causal order").
        public enum OrderingRule: Sendable {
            /// The operation's first announcement (or its joining a queue): it may claim a
            /// readiness its unfinished dependencies do not allow yet.
            case announcement(OperationInfo)
            /// `isReady` changed: true only after every dependency finished.
            case readiness(Bool)
            /// It started: after every dependency finished, once.
            case start
            /// It finished: after every dependency finished unless it was cancelled; its last event.
            case finish(cancelled: Bool)
            /// It was cancelled: from now on it waits for no dependency.
            case cancellation
            /// A dependency was added: it waits for that one too.
            case dependencyAdded(OperationID)
            /// A dependency was removed: it no longer waits for that one.
            case dependencyRemoved(OperationID)
            /// It is gone: its last event.
            case release
            /// Emitted as it comes, in the operation's order.
            case asItComes
        }

        /// The queue's name after the change, when the change gives one (its appearance, a
        /// rename).
        public var queueName: (queue: QueueID, name: String)? {
            switch self {
            case .queueAppeared(let info): (info.id, info.name)
            case .queueRenamed(let queue, let name): (queue, name)
            case .queueSuspended, .queueMaxConcurrency, .queueQualityOfService, .queueCancelledAll, .queueDepth, .queueReleased,
                 .operationAdded, .ready, .started, .finished, .cancelled, .dependencyAdded, .dependencyRemoved, .priorityChanged,
                 .unsignalledFinish, .released:
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
            case .operationAdded, .ready, .started, .finished, .cancelled, .dependencyAdded, .dependencyRemoved,
                 .priorityChanged, .unsignalledFinish, .released:
                nil
            }
        }

        /// The kinds of change without their values: what a stream line's `change` field names.
        /// Listed in the order of the cases above (`allCases` is every kind, for the tests that
        /// hold each coding to all of them).
        public enum Kind: Sendable, CaseIterable {
            case queueAppeared, queueSuspended, queueMaxConcurrency, queueRenamed, queueQualityOfService
            case queueCancelledAll, queueDepth, queueReleased
            case operationAdded, ready, started, finished, cancelled, dependencyAdded, dependencyRemoved
            case priorityChanged, unsignalledFinish, released

            /// The word the stream format names the kind with: its Swift name.
            @inlinable public var word: StaticString {
                switch self {
                case .queueAppeared: "queueAppeared"
                case .queueSuspended: "queueSuspended"
                case .queueMaxConcurrency: "queueMaxConcurrency"
                case .queueRenamed: "queueRenamed"
                case .queueQualityOfService: "queueQualityOfService"
                case .queueCancelledAll: "queueCancelledAll"
                case .queueDepth: "queueDepth"
                case .queueReleased: "queueReleased"
                case .operationAdded: "operationAdded"
                case .ready: "ready"
                case .started: "started"
                case .finished: "finished"
                case .cancelled: "cancelled"
                case .dependencyAdded: "dependencyAdded"
                case .dependencyRemoved: "dependencyRemoved"
                case .priorityChanged: "priorityChanged"
                case .unsignalledFinish: "unsignalledFinish"
                case .released: "released"
                }
            }
        }

        /// The change's kind.
        @inlinable public var kind: Kind {
            switch self {
            case .queueAppeared: .queueAppeared
            case .queueSuspended: .queueSuspended
            case .queueMaxConcurrency: .queueMaxConcurrency
            case .queueRenamed: .queueRenamed
            case .queueQualityOfService: .queueQualityOfService
            case .queueCancelledAll: .queueCancelledAll
            case .queueDepth: .queueDepth
            case .queueReleased: .queueReleased
            case .operationAdded: .operationAdded
            case .ready: .ready
            case .started: .started
            case .finished: .finished
            case .cancelled: .cancelled
            case .dependencyAdded: .dependencyAdded
            case .dependencyRemoved: .dependencyRemoved
            case .priorityChanged: .priorityChanged
            case .unsignalledFinish: .unsignalledFinish
            case .released: .released
            }
        }

        // The fields of each kind, stated once for every coding: the stream format writes and
        // reads them through these two (its bytes are the order of the writes), `CodableEventLine`
        // too. The synthesized `Codable` (keyframes' held events) follows from the cases.

        /// Writes the change's own fields (not its kind) to `writer`, in the stream format's order.
        @inlinable public func writeFields(into writer: inout some ChangeFieldWriter) {
            switch self {
            case .queueAppeared(let info):
                writer.write(.queue, info.id.rawValue)
                writer.write(.name, info.name)
                writer.write(.maxConcurrentOperationCount, info.maxConcurrentOperationCount)
                writer.write(.isSuspended, info.isSuspended)
                writer.write(qualityOfService: info.qualityOfService)
                writer.write(.isMainQueue, info.isMainQueue)
                writer.write(observation: info.observation)
            case .queueSuspended(let queue, let suspended):
                writer.write(.queue, queue.rawValue)
                writer.write(.isSuspended, suspended)
            case .queueMaxConcurrency(let queue, let count):
                writer.write(.queue, queue.rawValue)
                writer.write(.maxConcurrentOperationCount, count)
            case .queueRenamed(let queue, let name):
                writer.write(.queue, queue.rawValue)
                writer.write(.name, name)
            case .queueQualityOfService(let queue, let qos):
                writer.write(.queue, queue.rawValue)
                writer.write(qualityOfService: qos)
            case .queueCancelledAll(let queue), .queueReleased(let queue):
                writer.write(.queue, queue.rawValue)
            case .queueDepth(let queue, let operations):
                writer.write(.queue, queue.rawValue)
                writer.write(.operations, operations)
            case .operationAdded(let info):
                writer.write(.operation, info.id.rawValue)
                if let queue = info.queue { writer.write(.queue, queue.rawValue) }
                if let name = info.name { writer.write(.name, name) }
                writer.write(.typeName, info.typeName)
                writer.write(.priority, info.priority)
                writer.write(.effectivePriority, info.effectivePriority)
                if let explicit = info.priorityIsExplicit { writer.write(.priorityIsExplicit, explicit) }
                writer.write(qualityOfService: info.qualityOfService)
                writer.write(.isAsynchronous, info.isAsynchronous)
                writer.write(.isBarrier, info.isBarrier)
                writer.write(dependencies: info.dependencies)
                writer.write(observation: info.observation)
                writer.write(.isReady, info.isReady)
                writer.write(.isExecuting, info.isExecuting)
                writer.write(.isCancelled, info.isCancelled)
            case .ready(let operation, let isReady):
                writer.write(.operation, operation.rawValue)
                writer.write(.isReady, isReady)
            case .started(let operation), .cancelled(let operation), .unsignalledFinish(let operation),
                 .released(let operation):
                writer.write(.operation, operation.rawValue)
            case .finished(let operation, let cancelled):
                writer.write(.operation, operation.rawValue)
                writer.write(.isCancelled, cancelled)
            case .dependencyAdded(let operation, let dependency), .dependencyRemoved(let operation, let dependency):
                writer.write(.operation, operation.rawValue)
                writer.write(.dependency, dependency.rawValue)
            case .priorityChanged(let operation, let priority, let effective):
                writer.write(.operation, operation.rawValue)
                writer.write(.priority, priority)
                writer.write(.effectivePriority, effective)
            }
        }

        /// Reads a change of `kind` from its fields: the inverse of `writeFields(into:)`.
        @inlinable public init<Reader: ChangeFieldReader>(kind: Kind, reading reader: Reader) throws(Reader.Failure) {
            switch kind {
            case .queueAppeared:
                self = .queueAppeared(QueueInfo(
                    id: QueueID(try reader.integer(.queue)),
                    name: try reader.text(.name),
                    maxConcurrentOperationCount: try reader.integer(.maxConcurrentOperationCount),
                    isSuspended: try reader.flag(.isSuspended),
                    qualityOfService: try reader.readQualityOfService(),
                    isMainQueue: try reader.flag(.isMainQueue),
                    observation: try reader.readQueueObservation()))
            case .queueSuspended:
                self = .queueSuspended(queue: QueueID(try reader.integer(.queue)), suspended: try reader.flag(.isSuspended))
            case .queueMaxConcurrency:
                self = .queueMaxConcurrency(
                    queue: QueueID(try reader.integer(.queue)), count: try reader.integer(.maxConcurrentOperationCount))
            case .queueRenamed:
                self = .queueRenamed(queue: QueueID(try reader.integer(.queue)), name: try reader.text(.name))
            case .queueQualityOfService:
                self = .queueQualityOfService(queue: QueueID(try reader.integer(.queue)), qos: try reader.readQualityOfService())
            case .queueCancelledAll: self = .queueCancelledAll(queue: QueueID(try reader.integer(.queue)))
            case .queueDepth:
                self = .queueDepth(queue: QueueID(try reader.integer(.queue)), operations: try reader.integer(.operations))
            case .queueReleased: self = .queueReleased(queue: QueueID(try reader.integer(.queue)))
            case .operationAdded:
                self = .operationAdded(OperationInfo(
                    id: OperationID(try reader.integer(.operation)),
                    queue: try reader.optionalInteger(.queue).map { QueueID($0) },
                    name: try reader.optionalText(.name),
                    typeName: try reader.text(.typeName),
                    priority: try reader.priority(.priority),
                    effectivePriority: try reader.priority(.effectivePriority),
                    priorityIsExplicit: try reader.optionalFlag(.priorityIsExplicit),
                    qualityOfService: try reader.readQualityOfService(),
                    isAsynchronous: try reader.flag(.isAsynchronous),
                    isBarrier: try reader.flag(.isBarrier),
                    dependencies: try reader.readDependencies(),
                    observation: try reader.readOperationObservation(),
                    isReady: try reader.flag(.isReady),
                    isExecuting: try reader.flag(.isExecuting),
                    isCancelled: try reader.flag(.isCancelled)))
            case .ready:
                self = .ready(operation: OperationID(try reader.integer(.operation)), isReady: try reader.flag(.isReady))
            case .started: self = .started(operation: OperationID(try reader.integer(.operation)))
            case .finished:
                self = .finished(
                    operation: OperationID(try reader.integer(.operation)), cancelled: try reader.flag(.isCancelled))
            case .cancelled: self = .cancelled(operation: OperationID(try reader.integer(.operation)))
            case .dependencyAdded:
                self = .dependencyAdded(
                    operation: OperationID(try reader.integer(.operation)),
                    dependency: OperationID(try reader.integer(.dependency)))
            case .dependencyRemoved:
                self = .dependencyRemoved(
                    operation: OperationID(try reader.integer(.operation)),
                    dependency: OperationID(try reader.integer(.dependency)))
            case .priorityChanged:
                self = .priorityChanged(
                    operation: OperationID(try reader.integer(.operation)),
                    priority: try reader.priority(.priority),
                    effective: try reader.priority(.effectivePriority))
            case .unsignalledFinish: self = .unsignalledFinish(operation: OperationID(try reader.integer(.operation)))
            case .released: self = .released(operation: OperationID(try reader.integer(.operation)))
            }
        }
    }
}
