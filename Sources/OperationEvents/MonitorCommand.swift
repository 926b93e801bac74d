/// Something the dashboard asks the monitor to do to the observed program, as a value.
public enum MonitorCommand: Codable, Sendable, Equatable {
    /// Call `cancel()` on each operation (a tagged set, or one).
    case cancel(operations: [OperationID])
    /// Call `cancelAllOperations()` on the queue.
    case cancelAll(queue: QueueID)
    /// Set `isSuspended`.
    case setSuspended(queue: QueueID, suspended: Bool)
    /// Set `maxConcurrentOperationCount` (a positive count, or -1 for Foundation's default).
    case setMaxConcurrency(queue: QueueID, count: Int)
    /// Make new operations from a registered work template and add them to a queue.
    case addWork(WorkRequest)
}

/// A request for new work from a template of the monitor's work catalog.
public struct WorkRequest: Codable, Sendable, Equatable {
    /// The largest `count` one request may ask for.
    public static let maximumCount = 10_000

    /// The template's registered name.
    public var template: String
    /// How many operations to make (1 ... `maximumCount`).
    public var count: Int
    /// A name for the new operations; several get `name 1`, `name 2`, ...
    public var name: String?
    /// Quality of service to set, if any.
    public var qualityOfService: QoSClass?
    /// Queue priority to set, if any (not `barrier`).
    public var priority: OperationPriority?
    /// Existing operations every new one depends on.
    public var dependencies: [OperationID]
    /// The queue to add to; `nil` means the template's own queue.
    public var queue: QueueID?

    /// Creates a request.
    public init(
        template: String,
        count: Int = 1,
        name: String? = nil,
        qualityOfService: QoSClass? = nil,
        priority: OperationPriority? = nil,
        dependencies: [OperationID] = [],
        queue: QueueID? = nil
    ) {
        self.template = template
        self.count = count
        self.name = name
        self.qualityOfService = qualityOfService
        self.priority = priority
        self.dependencies = dependencies
        self.queue = queue
    }
}

/// What a command did.
public struct CommandReceipt: Codable, Sendable, Equatable {
    /// One line for the status bar, e.g. `cancelled #12`.
    public var message: String
    /// The operations affected or created.
    public var operations: [OperationID]

    /// Creates a receipt.
    public init(message: String, operations: [OperationID] = []) {
        self.message = message
        self.operations = operations
    }
}

/// Why a command was refused. A refused command has changed nothing.
public typealias CommandError = CategorizedError<CommandErrorKind>

/// The category of a refused command (`CommandError.Kind`), for programs.
public enum CommandErrorKind: String, Codable, Sendable {
    /// No operation ever had this id.
    case unknownOperation
    /// The operation finished or was released; it can no longer be changed.
    case operationGone
    /// No queue ever had this id.
    case unknownQueue
    /// The queue was released.
    case queueGone
    /// No work template has this name.
    case unknownTemplate
    /// An argument is out of range or malformed.
    case invalidArgument
    /// Foundation ignores this request for this queue (e.g. setters of the main queue).
    case unsupported
}

/// A work template as the dashboard lists it.
public struct WorkTemplateInfo: Codable, Sendable, Equatable {
    /// The name `:add` uses.
    public var name: String
    /// One line saying what the work does.
    public var summary: String
    /// The queue the template adds to by default, if still alive.
    public var queue: QueueID?

    /// Creates a listing entry.
    public init(name: String, summary: String, queue: QueueID?) {
        self.name = name
        self.summary = summary
        self.queue = queue
    }
}
