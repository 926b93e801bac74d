import DashboardModel
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Model: reducer")
struct ReducerTests {
    @Test("states and queue counts follow the events")
    func statesAndCounts() throws {
        var script = EventScript()
        script.queue(1, "network", max: 2)
        script.add(1, queue: 1, "download")
        script.add(2, queue: 1, "parse", after: [1])
        script.add(3, queue: 1, "thumbnail")
        var model = script.model()
        var queue = try #require(model.queues[QueueID(1)])
        #expect((queue.pending, queue.ready, queue.executing, queue.finished) == (1, 2, 0, 0))
        #expect(model[2]?.state == .pending)

        script.start(1)
        script.finish(1)
        script.ready(2)
        script.start(2)
        model = script.model()
        queue = try #require(model.queues[QueueID(1)])
        #expect((queue.pending, queue.ready, queue.executing, queue.finished) == (0, 1, 1, 1))
        #expect(model[1]?.state == .finished && model[2]?.state == .executing && model[3]?.state == .ready)
        #expect(model[1]?.dependents == [2])
        #expect(model[2]?.level == 1)
    }

    @Test("state only moves forward: late and duplicate events change nothing")
    func monotonic() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.run(1)
        script.ready(1, false)
        script.start(1)
        script.emit(.finished(operation: 1, cancelled: true))
        let model = script.model()
        #expect(model[1]?.state == .finished)
        #expect(model[1]?.isCancelled == false)
        #expect(model.queues[QueueID(1)]?.finished == 1)
    }

    @Test("a dependent's start implies that its dependencies finished (hooked finishes may come later)")
    func impliedFinish() throws {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a", observation: .hooked)
        script.add(2, queue: 1, "b", after: [1], observation: .hooked)
        script.start(1)
        script.ready(2)
        script.start(2)
        var model = script.model()
        let first = try #require(model[1])
        #expect(first.state == .finished)
        #expect(first.history.last?.origin == .inferred)
        script.finish(1)
        model = script.model()
        #expect(model.queues[QueueID(1)]?.finished == 1, "the late exact finish is not counted twice")
    }

    @Test("history records each key change with its source")
    func history() throws {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a", after: [2])
        script.ready(1)
        script.emit(.started(operation: 1), source: .sampled)
        script.finish(1)
        let record = try #require(script.model()[1])
        #expect(record.history.map(\.text) == ["added to its queue", "isReady false → true", "isExecuting false → true",
                                              "isExecuting true → false", "isFinished false → true"])
        #expect(record.history[2].origin == .sampled)
    }

    @Test("finished operations are retained by count and by time, then counted as expired")
    func retention() {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = 10
        configuration.finishedRetention = 5_000_000_000
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...30 {
            script.add(id, queue: 1, "op")
            script.run(id)
        }
        var model = script.model(configuration)
        #expect(model.retainedFinished == 10)
        #expect(model.operations.count == 10)
        #expect(model.expired[QueueID(1)] == 20)
        #expect(model.queues[QueueID(1)]?.finished == 30)
        model.advance(to: script.time + 6_000_000_000)
        #expect(model.retainedFinished == 0 && model.operations.isEmpty)
        #expect(model.expired[QueueID(1)] == 30)
    }

    @Test("memory stays bounded: a hub's dependents list is compacted as they expire")
    func hubCompaction() throws {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = 50
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "hub", observation: .external)
        // Cancelled dependents finish without their dependency: the hub stays, they expire.
        for id in 2...2_000 {
            script.add(id, queue: 1, "leaf", after: [1])
            script.cancel(id)
            script.finish(id, cancelled: true)
        }
        let model = script.model(configuration)
        let hub = try #require(model[1])
        #expect(hub.dependents.count < 200, "\(hub.dependents.count) dependents kept for 50 retained")
    }

    @Test("after lost events, a snapshot rebuilds the live state and older events are ignored")
    func resync() throws {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        script.start(1)
        var model = DashboardModel()
        let lost1 = model.apply(EventBatch(events: script.events, droppedTotal: 0))
        #expect(!lost1)
        // Events were lost: #1 finished, #2 started, #3 was added.
        let lost2 = model.apply(EventBatch(events: [], droppedTotal: 7))
        #expect(lost2)
        let snapshot = MonitorSnapshot(
            sequence: 100, time: script.time + 5_000_000,
            queues: [QueueInfo(id: QueueID(1), name: "q", isSuspended: true)],
            operations: [
                OperationInfo(id: 2, queue: QueueID(1), name: "b", isExecuting: true),
                OperationInfo(id: 3, queue: QueueID(1), name: "c", dependencies: [2], isReady: false),
            ],
            droppedEvents: 7)
        model.resync(from: snapshot)
        #expect(model[1]?.state == .finished)
        #expect(model[2]?.state == .executing)
        #expect(model[3]?.state == .pending && model[3]?.dependencies == [2])
        #expect(model.queues[QueueID(1)]?.isSuspended == true)
        #expect(model.droppedEvents == 7)
        // A stale event from before the snapshot does not undo anything.
        model.apply(MonitorEvent(sequence: 50, time: script.time, change: .finished(operation: 2, cancelled: false)))
        #expect(model[2]?.state == .executing)
        let queue = try #require(model.queues[QueueID(1)])
        #expect((queue.pending, queue.ready, queue.executing) == (1, 0, 1))
    }

    @Test("levels: 1 + the largest level of the dependencies, updated when edges change")
    func levels() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [1])
        script.add(4, queue: 1, "d", after: [2, 3])
        script.add(5, queue: 1, "e")
        var model = script.model()
        #expect([1, 2, 3, 4, 5].map { model[OperationID($0)]!.level } == [0, 1, 1, 2, 0])
        script.emit(.dependencyAdded(operation: 1, dependency: 5))
        model = script.model()
        #expect([1, 2, 3, 4, 5].map { model[OperationID($0)]!.level } == [1, 2, 2, 3, 0])
        script.emit(.dependencyRemoved(operation: 1, dependency: 5))
        model = script.model()
        #expect(model[4]?.level == 2)
    }

    @Test("cycles are found, named and marked, whatever their size, without hanging", arguments: [1, 2, 3, 10_000])
    func cycles(size: Int) throws {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...size {
            script.add(id, queue: 1, "n\(id)", after: id == 1 ? [] : [id - 1])
        }
        script.add(size + 1, queue: 1, "outside", after: [size])
        script.emit(.dependencyAdded(operation: 1, dependency: OperationID(size)))
        let model = script.model()
        #expect(model.cycles.count == 1)
        let cycle = try #require(model.cycles.first)
        #expect(cycle.count == size + 1 && cycle.first == cycle.last)
        #expect((1...size).allSatisfy { model.isInCycle(OperationID($0)) })
        #expect(!model.isInCycle(OperationID(size + 1)))
        if size == 2 {
            #expect(model.cycleDescription(cycle) == "#1 n1 waits on #2 n2 waits on #1 n1")
            #expect(model.isCycleEdge(from: 1, to: 2) && model.isCycleEdge(from: 2, to: 1))
        }
        #expect(model.warnings().contains { $0.kind == .cycle })
    }
}
