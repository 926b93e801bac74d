import DashboardModel
import OperationEvents
import Testing

/// Nothing in the stream state or the model's apply, levels, cycles or critical path may recurse
/// per link or redo the chain per event: a chain 100,000 deep works in either enqueue order.
@Suite("Model: a chain 100,000 deep", .serialized, .timeLimit(.minutes(5)))
struct DeepChainTests {
    static let depth = 100_000

    /// A suspended queue holding a chain: each operation depends on the one before it.
    /// `dependentsFirst`: the deepest is announced first (its dependencies are not known yet).
    static func chain(dependentsFirst: Bool) -> [MonitorEvent] {
        var events = [MonitorEvent(sequence: 0, time: 1_000, change: .queueAppeared(QueueInfo(id: QueueID(1), name: "chain", isSuspended: true)))]
        events.reserveCapacity(depth + 1)
        let order = dependentsFirst ? Array((1...depth).reversed()) : Array(1...depth)
        for id in order {
            let info = OperationInfo(id: OperationID(id), queue: QueueID(1), name: "link", typeName: "BlockOperation",
                                     dependencies: id == 1 ? [] : [OperationID(id - 1)], observation: .hooked, isReady: id == 1)
            events.append(MonitorEvent(sequence: UInt64(events.count), time: UInt64(1_000 + events.count), change: .operationAdded(info)))
        }
        return events
    }

    static func apply(_ events: [MonitorEvent], to model: inout DashboardModel) {
        var start = 0
        while start < events.count {
            model.apply(EventBatch(events: Array(events[start..<min(events.count, start + 4_096)]), droppedTotal: 0))
            start += 4_096
        }
    }

    static var configuration: ModelConfiguration {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = depth
        configuration.finishedRetention = .max / 2
        return configuration
    }

    @Test("announced in either order: levels, no cycle, the critical path is the whole chain; then it runs to the end",
          arguments: [false, true])
    func chain(dependentsFirst: Bool) throws {
        var model = DashboardModel(configuration: Self.configuration)
        Self.apply(Self.chain(dependentsFirst: dependentsFirst), to: &model)
        #expect(model.operations.count == Self.depth)
        var wrongLevels = 0
        model.operations.forEach { record in
            if record.pointee.level != record.pointee.id.rawValue - 1 { wrongLevels += 1 }
        }
        #expect(wrongLevels == 0)
        #expect(model.cycles.isEmpty)
        let path = model.criticalPath()
        #expect(path.count == Self.depth && path.first == OperationID(1) && path.last == OperationID(Self.depth))
        let queue = try #require(model.queues[QueueID(1)])
        #expect((queue.pending, queue.ready) == (Self.depth - 1, 1))
        #expect(model.startOrder(of: QueueID(1)) == [OperationID(1)])

        // The queue resumes and the chain runs, link after link.
        var events: [MonitorEvent] = []
        var sequence = model.stream.nextSequence
        var time = model.now
        func emit(_ change: MonitorEvent.Change) {
            time += 10
            events.append(MonitorEvent(sequence: sequence, time: time, change: change))
            sequence += 1
        }
        emit(.queueSuspended(queue: QueueID(1), suspended: false))
        for id in 1...Self.depth {
            if id > 1 { emit(.ready(operation: OperationID(id), isReady: true)) }
            emit(.started(operation: OperationID(id)))
            emit(.finished(operation: OperationID(id), cancelled: false))
        }
        Self.apply(events, to: &model)
        #expect(model.queues[QueueID(1)]?.finished == Self.depth)
        #expect(model.criticalPath().isEmpty && model.stream.counters.anomalies == 0)
    }

    @Test("the deepest link starting first deduces one finish, not the whole chain")
    func deepestStartsFirst() throws {
        var model = DashboardModel(configuration: Self.configuration)
        var events = Self.chain(dependentsFirst: false)
        events.append(MonitorEvent(sequence: UInt64(events.count), time: 1_000_000, change: .started(operation: OperationID(Self.depth))))
        Self.apply(events, to: &model)
        #expect(model[OperationID(Self.depth - 1)]?.state == .finished)
        #expect(model[OperationID(Self.depth - 2)]?.state == .pending)
        #expect(model.retainedFinished == 1)
    }

    @Test("a loop 100,000 long is found, and broken by a cancel")
    func longLoop() throws {
        var model = DashboardModel(configuration: Self.configuration)
        var events = Self.chain(dependentsFirst: true)
        var time: UInt64 = 1_000_000
        func emit(_ change: MonitorEvent.Change) {
            time += 10
            events.append(MonitorEvent(sequence: UInt64(events.count), time: time, change: change))
        }
        emit(.dependencyAdded(operation: OperationID(1), dependency: OperationID(Self.depth)))
        emit(.ready(operation: OperationID(1), isReady: false))
        Self.apply(events, to: &model)
        #expect(model.cycles.count == 1 && model.cycles.first?.count == Self.depth + 1)
        #expect(model.isInCycle(OperationID(Self.depth / 2)))
        var events2: [MonitorEvent] = []
        var sequence = model.stream.nextSequence
        func emit2(_ change: MonitorEvent.Change) {
            time += 10
            events2.append(MonitorEvent(sequence: sequence, time: time, change: change))
            sequence += 1
        }
        emit2(.cancelled(operation: OperationID(1)))
        emit2(.ready(operation: OperationID(1), isReady: true))
        emit2(.queueSuspended(queue: QueueID(1), suspended: false))
        emit2(.started(operation: OperationID(1)))
        emit2(.finished(operation: OperationID(1), cancelled: true))
        Self.apply(events2, to: &model)
        // The cancel released the first link: what is left is a chain again.
        #expect(model.cycles.isEmpty && !model.isInCycle(OperationID(2)))
        #expect(model[OperationID(1)]?.level == 0 && model[OperationID(Self.depth)]?.level == Self.depth - 1)
        #expect(model.criticalPath().count == Self.depth - 1)
    }
}
