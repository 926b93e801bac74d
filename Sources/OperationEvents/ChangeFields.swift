/// The fields a change is written with, grouped by the type of their value, each with the key
/// the stream format spells it with (the Swift name; a test holds them together).
///
/// A key means the same thing on every line (`queue` is always a queue id, `isCancelled` always
/// the cancelled flag), so `jq 'select(.operation == 12)'` finds everything about operation 12,
/// its addition included. Grouped by type so that a coding maps each group to its storage with
/// one exhaustive switch, and a field of a new type does not compile until every coding has it.
extension MonitorEvent.Change {
    /// A field holding an integer (ids are their raw values).
    public enum IntegerField: Sendable, CaseIterable {
        case queue, operation, dependency, maxConcurrentOperationCount, operations

        /// The field's key.
        @inlinable public var key: StaticString {
            switch self {
            case .queue: "queue"
            case .operation: "operation"
            case .dependency: "dependency"
            case .maxConcurrentOperationCount: "maxConcurrentOperationCount"
            case .operations: "operations"
            }
        }
    }

    /// A field holding a flag.
    public enum FlagField: Sendable, CaseIterable {
        case isSuspended, isMainQueue, priorityIsExplicit, isAsynchronous, isBarrier, isReady, isExecuting, isCancelled

        /// The field's key.
        @inlinable public var key: StaticString {
            switch self {
            case .isSuspended: "isSuspended"
            case .isMainQueue: "isMainQueue"
            case .priorityIsExplicit: "priorityIsExplicit"
            case .isAsynchronous: "isAsynchronous"
            case .isBarrier: "isBarrier"
            case .isReady: "isReady"
            case .isExecuting: "isExecuting"
            case .isCancelled: "isCancelled"
            }
        }
    }

    /// A field holding a string.
    public enum TextField: Sendable, CaseIterable {
        case name, typeName

        /// The field's key.
        @inlinable public var key: StaticString {
            switch self {
            case .name: "name"
            case .typeName: "typeName"
            }
        }
    }

    /// A field holding an operation priority.
    public enum PriorityField: Sendable, CaseIterable {
        case priority, effectivePriority

        /// The field's key.
        @inlinable public var key: StaticString {
            switch self {
            case .priority: "priority"
            case .effectivePriority: "effectivePriority"
            }
        }
    }

    /// The key of the quality-of-service field.
    @inlinable public static var qualityOfServiceKey: StaticString { "qualityOfService" }
    /// The key of the observation field (a queue's or an operation's, by the change).
    @inlinable public static var observationKey: StaticString { "observation" }
    /// The key of an added operation's dependencies.
    @inlinable public static var dependenciesKey: StaticString { "dependencies" }
}

/// Where a coding writes a change's fields: `MonitorEvent.Change.writeFields(into:)` calls it
/// once per field, in the order the stream format writes them.
///
/// Generic (not an existential) so that each coding's writer is specialized: the stream
/// writer's hot path stays a straight run of stores.
public protocol ChangeFieldWriter {
    /// Writes an integer field.
    mutating func write(_ field: MonitorEvent.Change.IntegerField, _ value: Int)
    /// Writes a flag field.
    mutating func write(_ field: MonitorEvent.Change.FlagField, _ value: Bool)
    /// Writes a string field.
    mutating func write(_ field: MonitorEvent.Change.TextField, _ value: String)
    /// Writes a priority field.
    mutating func write(_ field: MonitorEvent.Change.PriorityField, _ value: OperationPriority)
    /// Writes the quality-of-service field.
    mutating func write(qualityOfService: QoSClass)
    /// Writes a queue's observation field.
    mutating func write(observation: QueueObservation)
    /// Writes an operation's observation field.
    mutating func write(observation: ObservationMode)
    /// Writes an added operation's dependencies.
    mutating func write(dependencies: [OperationID])
}

/// Where a coding reads a change's fields from: `MonitorEvent.Change.init(kind:reading:)` asks
/// for each field the kind has, in the order of its initializer, so the first missing field is
/// the one a damaged line is reported for.
///
/// A required field that is absent or unreadable throws the coding's own `Failure`.
public protocol ChangeFieldReader {
    /// The error a missing or unreadable field throws.
    associatedtype Failure: Error

    /// A required integer field.
    func integer(_ field: MonitorEvent.Change.IntegerField) throws(Failure) -> Int
    /// An integer field that may be absent.
    func optionalInteger(_ field: MonitorEvent.Change.IntegerField) throws(Failure) -> Int?
    /// A required flag field.
    func flag(_ field: MonitorEvent.Change.FlagField) throws(Failure) -> Bool
    /// A flag field that may be absent.
    func optionalFlag(_ field: MonitorEvent.Change.FlagField) throws(Failure) -> Bool?
    /// A required string field.
    func text(_ field: MonitorEvent.Change.TextField) throws(Failure) -> String
    /// A string field that may be absent.
    func optionalText(_ field: MonitorEvent.Change.TextField) throws(Failure) -> String?
    /// A required priority field.
    func priority(_ field: MonitorEvent.Change.PriorityField) throws(Failure) -> OperationPriority
    /// The required quality-of-service field.
    func readQualityOfService() throws(Failure) -> QoSClass
    /// A queue's required observation field.
    func readQueueObservation() throws(Failure) -> QueueObservation
    /// An operation's required observation field.
    func readOperationObservation() throws(Failure) -> ObservationMode
    /// An added operation's required dependencies.
    func readDependencies() throws(Failure) -> [OperationID]
}
