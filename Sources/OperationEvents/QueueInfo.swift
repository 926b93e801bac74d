/// What the monitor knows about a queue when it first sees it (or, in a snapshot, now).
public struct QueueInfo: Codable, Sendable, Equatable {
    /// The queue's id.
    public var id: QueueID
    /// `OperationQueue.name`.
    public var name: String
    /// `maxConcurrentOperationCount`; `-1` means Foundation's default (no fixed limit).
    public var maxConcurrentOperationCount: Int
    /// `isSuspended`.
    public var isSuspended: Bool
    /// `qualityOfService`.
    public var qualityOfService: QoSClass
    /// True for `OperationQueue.main`, whose setters Foundation ignores.
    public var isMainQueue: Bool
    /// How the monitor observes the queue.
    public var observation: QueueObservation

    /// Creates a description.
    public init(
        id: QueueID,
        name: String,
        maxConcurrentOperationCount: Int = -1,
        isSuspended: Bool = false,
        qualityOfService: QoSClass = .default,
        isMainQueue: Bool = false,
        observation: QueueObservation = .observed
    ) {
        self.id = id
        self.name = name
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.isSuspended = isSuspended
        self.qualityOfService = qualityOfService
        self.isMainQueue = isMainQueue
        self.observation = observation
    }

    /// True when the queue runs one operation at a time (and so ignores QoS-derived priorities).
    public var isSerial: Bool { maxConcurrentOperationCount == 1 }
}
