import DashboardModel
import OperationEvents

/// Builds event streams for tests: times advance 1 ms per event unless set.
public struct EventScript {
    public init() {}

    public private(set) var events: [MonitorEvent] = []
    public var time: UInt64 = 1_000_000_000
    private var sequence: UInt64 = 0

    public mutating func emit(_ change: MonitorEvent.Change, source: EventOrigin = .exact, after step: UInt64 = 1_000_000) {
        time += step
        events.append(MonitorEvent(sequence: sequence, time: time, origin: source, change: change))
        sequence += 1
    }

    public mutating func queue(_ id: Int, _ name: String, max: Int = -1, suspended: Bool = false, main: Bool = false) {
        emit(.queueAppeared(QueueInfo(id: QueueID(id), name: name, maxConcurrentOperationCount: max,
                                      isSuspended: suspended, isMainQueue: main)))
    }

    public mutating func add(_ id: Int, queue: Int?, _ name: String, after dependencies: [Int] = [], ready: Bool? = nil,
                      priority: OperationPriority = .normal, effective: OperationPriority? = nil, qos: QoSClass = .default,
                      async: Bool = false, barrier: Bool = false, observation: ObservationMode = .instrumented) {
        emit(.operationAdded(OperationInfo(
            id: OperationID(id), queue: queue.map { QueueID($0) }, name: name, typeName: "Operation",
            priority: priority, effectivePriority: effective ?? (barrier ? .barrier : priority), qualityOfService: qos, isAsynchronous: async,
            isBarrier: barrier, dependencies: dependencies.map { OperationID($0) }, observation: observation,
            isReady: ready ?? dependencies.isEmpty)))
    }

    public mutating func ready(_ id: Int, _ value: Bool = true) { emit(.ready(operation: OperationID(id), isReady: value)) }
    public mutating func start(_ id: Int, after step: UInt64 = 1_000_000) { emit(.started(operation: OperationID(id)), after: step) }
    public mutating func finish(_ id: Int, cancelled: Bool = false, after step: UInt64 = 1_000_000) {
        emit(.finished(operation: OperationID(id), cancelled: cancelled), after: step)
    }
    public mutating func cancel(_ id: Int) { emit(.cancelled(operation: OperationID(id))) }

    /// Runs `id` through ready, start and finish.
    public mutating func run(_ id: Int) {
        start(id)
        finish(id)
    }

    /// A model with every event applied.
    public func model(_ configuration: ModelConfiguration = ModelConfiguration()) -> DashboardModel {
        var model = DashboardModel(configuration: configuration)
        model.apply(EventBatch(events: events, droppedTotal: 0))
        return model
    }
}

extension Identifier: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}
