/// Everything the monitor knows about an operation when it first sees it (or, in a snapshot, now).
public struct OperationInfo: Codable, Sendable, Equatable {
    /// The operation's id.
    public var id: OperationID
    /// The queue it was added to; `nil` for an operation seen only as another one's dependency.
    public var queue: QueueID?
    /// `Operation.name`, if the app set one.
    public var name: String?
    /// The dynamic type's name, e.g. `BlockOperation` or `DownloadOperation`.
    @inlinable
    public var typeName: String {
        get { typeNameStorage.string }
        set { typeNameStorage = .text(newValue) }
    }
    /// The type's name as kept: interned by the bridge, so that copying an announcement
    /// between threads does not retain the type name's string (see `InternedTypeNames`).
    @usableFromInline
    package var typeNameStorage: TypeNameStorage
    /// `queuePriority` as the operation reports it.
    public var priority: OperationPriority
    /// The priority the queue actually schedules it by: an explicit `queuePriority`, otherwise
    /// the one derived from its quality of service, except in serial queues (plain FIFO).
    public var effectivePriority: OperationPriority
    /// Whether `queuePriority` was set explicitly; `nil` when the monitor cannot tell
    /// (Foundation reports an unset priority as `.normal`).
    public var priorityIsExplicit: Bool?
    /// `qualityOfService`.
    public var qualityOfService: QoSClass
    /// `isAsynchronous`.
    public var isAsynchronous: Bool
    /// True for a block added with `addBarrierBlock`.
    public var isBarrier: Bool
    /// The operations this one waits for (including a pending barrier of its queue).
    public var dependencies: [OperationID]
    /// How the monitor observes this operation.
    public var observation: ObservationMode
    /// `isReady` when read.
    public var isReady: Bool
    /// `isExecuting` when read.
    public var isExecuting: Bool
    /// `isCancelled` when read.
    public var isCancelled: Bool

    /// Creates a description; the defaults describe a fresh, ready, normal-priority operation.
    ///
    /// Inlinable so that the bridge builds the description in place: called across the module
    /// boundary, the initializer copied the finished struct out (retaining and releasing its
    /// strings and array once more), a sixth of the registration of an instrumented operation
    /// in a profile of `opscope-bench micro`.
    @inlinable
    public init(
        id: OperationID,
        queue: QueueID? = nil,
        name: String? = nil,
        typeName: String = "Operation",
        priority: OperationPriority = .normal,
        effectivePriority: OperationPriority = .normal,
        priorityIsExplicit: Bool? = false,
        qualityOfService: QoSClass = .default,
        isAsynchronous: Bool = false,
        isBarrier: Bool = false,
        dependencies: [OperationID] = [],
        observation: ObservationMode = .instrumented,
        isReady: Bool = true,
        isExecuting: Bool = false,
        isCancelled: Bool = false
    ) {
        self.id = id
        self.queue = queue
        self.name = name
        self.typeNameStorage = .text(typeName)
        self.priority = priority
        self.effectivePriority = effectivePriority
        self.priorityIsExplicit = priorityIsExplicit
        self.qualityOfService = qualityOfService
        self.isAsynchronous = isAsynchronous
        self.isBarrier = isBarrier
        self.dependencies = dependencies
        self.observation = observation
        self.isReady = isReady
        self.isExecuting = isExecuting
        self.isCancelled = isCancelled
    }

    // The type name is coded under `typeName`, as a string, as it always was.
    private enum CodingKeys: String, CodingKey {
        case id, queue, name
        case typeNameStorage = "typeName"
        case priority, effectivePriority, priorityIsExplicit, qualityOfService, isAsynchronous, isBarrier
        case dependencies, observation, isReady, isExecuting, isCancelled
    }

    /// The name to show: the app's name, else the type name.
    public var displayName: String { name ?? typeName }
}
