import OperationEvents

/// Feeds a sequencer event by event, stamping times that grow by 1 µs, and keeps what came out.
struct SequencerFeed {
    var sequencer: CausalSequencer
    private(set) var output: [MonitorEvent] = []
    private(set) var time: UInt64 = 0
    private var ringSequence: UInt64 = 100

    init(window: CausalSequencer.Window = .standard, maximumSpan: Int = 16_384) {
        sequencer = CausalSequencer(window: window, maximumSpan: maximumSpan)
    }

    mutating func push(_ change: MonitorEvent.Change, origin: EventOrigin = .exact) {
        time += 1_000
        ringSequence += 1
        sequencer.push(MonitorEvent(sequence: ringSequence, time: time, origin: origin, change: change), into: &output)
    }

    mutating func push(_ changes: [MonitorEvent.Change]) {
        for change in changes { push(change) }
    }

    mutating func advance(by nanoseconds: UInt64) {
        time += nanoseconds
        sequencer.advance(to: time, into: &output)
    }

    mutating func releaseAll() {
        sequencer.releaseAll(into: &output)
    }

    /// The output's changes, in order.
    var changes: [MonitorEvent.Change] { output.map(\.change) }

    /// Where `change` is in the output (nil when absent).
    func position(of change: MonitorEvent.Change) -> Int? {
        output.firstIndex { $0.change == change }
    }

    /// The output event that is `change`.
    func event(_ change: MonitorEvent.Change) -> MonitorEvent? {
        output.first { $0.change == change }
    }
}

/// Short spellings for the scenarios.
enum Make {
    static func added(_ id: Int, queue: Int? = 1, dependencies: [Int] = [], ready: Bool? = nil,
                      observation: ObservationMode = .hooked, cancelled: Bool = false) -> MonitorEvent.Change {
        .operationAdded(OperationInfo(
            id: OperationID(id), queue: queue.map { QueueID($0) }, dependencies: dependencies.map { OperationID($0) },
            observation: observation, isReady: ready ?? dependencies.isEmpty, isCancelled: cancelled))
    }

    static func ready(_ id: Int, _ value: Bool = true) -> MonitorEvent.Change { .ready(operation: OperationID(id), isReady: value) }
    static func started(_ id: Int) -> MonitorEvent.Change { .started(operation: OperationID(id)) }
    static func finished(_ id: Int, cancelled: Bool = false) -> MonitorEvent.Change {
        .finished(operation: OperationID(id), cancelled: cancelled)
    }
    static func cancelled(_ id: Int) -> MonitorEvent.Change { .cancelled(operation: OperationID(id)) }
    static func released(_ id: Int) -> MonitorEvent.Change { .released(operation: OperationID(id)) }
    static func dependencyAdded(_ id: Int, on dependency: Int) -> MonitorEvent.Change {
        .dependencyAdded(operation: OperationID(id), dependency: OperationID(dependency))
    }
    static func dependencyRemoved(_ id: Int, on dependency: Int) -> MonitorEvent.Change {
        .dependencyRemoved(operation: OperationID(id), dependency: OperationID(dependency))
    }
    static func appeared(_ queue: Int) -> MonitorEvent.Change { .queueAppeared(QueueInfo(id: QueueID(queue), name: "q\(queue)")) }
    static func suspended(_ queue: Int, _ value: Bool = true) -> MonitorEvent.Change {
        .queueSuspended(queue: QueueID(queue), suspended: value)
    }
    static func queueReleased(_ queue: Int) -> MonitorEvent.Change { .queueReleased(queue: QueueID(queue)) }
}
