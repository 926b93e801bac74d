import OpScopeTestSupport
import OperationEvents
import Testing

/// Applies every event of a script to a fresh state.
func streamState(_ script: EventScript, retention: StreamRetention = .dashboard) -> StreamState {
    var state = StreamState(retention: retention)
    for event in script.events { state.apply(event) }
    return state
}

@Suite("Stream state: the fold of a stream")
struct StreamStateTests {
    @Test("states, times, counts and key changes follow the events")
    func lifeOfAnOperation() throws {
        var script = EventScript()
        script.queue(1, "net", max: 2)
        script.add(1, queue: 1, "download")
        script.add(2, queue: 1, "parse", after: [1])
        script.start(1)
        script.finish(1)
        script.ready(2)
        script.start(2)
        let state = streamState(script)
        let queue = try #require(state[queue: QueueID(1)])
        #expect((queue.pending, queue.ready, queue.executing, queue.finished) == (0, 0, 1, 1))
        let first = try #require(state[1])
        #expect(first.state == .finished && first.startedAt != nil && first.finishedAt! > first.startedAt!)
        #expect(first.dependents == [2])
        #expect(first.history.map(\.key) == [.added, .isExecuting, .isExecuting, .isFinished])
        #expect(state[2]?.state == .executing && state[2]?.info.isExecuting == true && state[2]?.readyAt != nil)
        #expect(state.nextSequence == UInt64(script.events.count))
        #expect(state.counters.anomalies == 0)
    }

    @Test("events about unknown operations and queues are held, then counted when they never become known; nothing traps")
    func unknownIDs() {
        var state = StreamState()
        let changes = [
            MonitorEvent(sequence: 0, time: 1, change: .started(operation: 42)),
            MonitorEvent(sequence: 1, time: 2, change: .finished(operation: 42, cancelled: false)),
            MonitorEvent(sequence: 2, time: 3, change: .queueSuspended(queue: QueueID(9), suspended: true)),
            MonitorEvent(sequence: 3, time: 4, change: .dependencyRemoved(operation: 7, dependency: 8)),
        ].map { state.apply($0) }
        #expect(changes.allSatisfy { $0.effect == .none })
        #expect(state.operations.isEmpty && state.queues.isEmpty)
        // Enough later events about other unknown operations push the first ones out.
        for index in 0..<5_000 {
            state.apply(MonitorEvent(sequence: UInt64(4 + index), time: 5, change: .ready(operation: OperationID(1_000 + index), isReady: true)))
        }
        #expect(state.counters[.unknownOperation] >= 3 && state.counters[.unknownQueue] == 1)
    }

    @Test("an operation announced after its events: they are applied then, in arrival order")
    func heldUntilAnnounced() throws {
        var state = StreamState()
        state.apply(MonitorEvent(sequence: 0, time: 1, change: .queueAppeared(QueueInfo(id: QueueID(1), name: "q"))))
        state.apply(MonitorEvent(sequence: 1, time: 5, change: .started(operation: 3)))
        state.apply(MonitorEvent(sequence: 2, time: 6, change: .finished(operation: 3, cancelled: false)))
        let change = state.apply(MonitorEvent(sequence: 3, time: 4, change: .operationAdded(OperationInfo(id: 3, queue: QueueID(1)))))
        #expect(change.effect == .operationAdded(3))
        #expect(change.released.map(\.change.effect) == [.started(3), .finished(3)])
        let record = try #require(state[3])
        #expect(record.state == .finished && record.startedAt == 5 && record.finishedAt == 6)
        #expect(state[queue: QueueID(1)]?.finished == 1 && state[queue: QueueID(1)]?.executing == 0)
        #expect(state.counters.anomalies == 0)
    }

    @Test("an operation that depends on itself is finished once: the finish deduced for its dependency is the finish")
    func finishOfSelfDependency() throws {
        var state = StreamState()
        state.apply(MonitorEvent(sequence: 0, time: 1, change: .queueAppeared(QueueInfo(id: QueueID(1), name: "q"))))
        let info = OperationInfo(id: 3, queue: QueueID(1), dependencies: [3], observation: .hooked, isReady: false)
        state.apply(MonitorEvent(sequence: 1, time: 2, change: .operationAdded(info)))
        let change = state.apply(MonitorEvent(sequence: 2, time: 5, change: .finished(operation: 3, cancelled: false)))
        #expect(change.impliedFinishes == [3])
        let record = try #require(state[3])
        #expect(record.state == .finished && record.finishedAt == 5)
        #expect(state.retainedFinished == 1)
        #expect(state[queue: QueueID(1)]?.finished == 1 && state[queue: QueueID(1)]?.pending == 0)
        #expect(record.history.filter { $0.key == .isFinished }.count == 1)
    }

    @Test("repeats and steps that come too late are counted and change nothing")
    func repeatsAndLateSteps() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.run(1)
        script.ready(1, false)
        script.start(1)
        script.emit(.finished(operation: 1, cancelled: true))
        script.emit(.priorityChanged(operation: 1, priority: .high, effective: .high))
        let state = streamState(script)
        #expect(state[1]?.state == .finished && state[1]?.isCancelled == false && state[1]?.priority == .normal)
        #expect(state[queue: QueueID(1)]?.finished == 1)
        #expect(state.counters[.afterFinish] == 3 && state.counters[.duplicate] == 1)
    }

    @Test("sequence numbers: a gap is counted and reported, an old number is stale and skipped")
    func sequenceTracking() {
        var state = StreamState()
        state.apply(MonitorEvent(sequence: 0, time: 1, change: .queueAppeared(QueueInfo(id: QueueID(1), name: "q"))))
        let gap = state.apply(MonitorEvent(sequence: 5, time: 2, change: .queueSuspended(queue: QueueID(1), suspended: true)))
        #expect(gap.missedEvents == 4 && gap.effect == .queueChanged(QueueID(1)))
        #expect(state.counters.sequenceGaps == 1 && state.counters.missedEvents == 4 && state.nextSequence == 6)
        let stale = state.apply(MonitorEvent(sequence: 3, time: 3, change: .queueSuspended(queue: QueueID(1), suspended: false)))
        #expect(stale.anomaly == .stale && state[queue: QueueID(1)]?.isSuspended == true)
        #expect(state.counters[.stale] == 1)
    }

    @Test("a start deduces the finish of the direct dependencies only; a later exact finish confirms it, counted once")
    func deducedFinish() throws {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "root", observation: .hooked)
        script.add(2, queue: 1, "middle", after: [1], observation: .hooked)
        script.add(3, queue: 1, "leaf", after: [2], observation: .hooked)
        script.start(1)
        script.start(3)
        var state = streamState(script)
        #expect(state[2]?.state == .finished && state[2]?.finishWasInferred == true)
        #expect(state[1]?.state == .executing, "one level only: nothing walks the chain")
        let confirmed = state.apply(MonitorEvent(sequence: state.nextSequence, time: script.time + 5,
                                                 change: .finished(operation: 2, cancelled: false)))
        #expect(confirmed.effect == .finishConfirmed(2))
        #expect(state[2]?.finishWasInferred == false && state[2]?.finishedAt == script.time + 5)
        #expect(state[queue: QueueID(1)]?.finished == 1)
    }

    @Test("an instrumented dependency's finish is never deduced: a dependent that started went ahead of it")
    func instrumentedNotDeduced() throws {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "running")
        script.add(2, queue: 1, "impatient", after: [1])
        script.start(1)
        script.start(2)
        script.finish(2)
        var state = streamState(script)
        #expect(state[1]?.state == .executing, "its exact finish has not come: it still runs")
        #expect(state[2]?.state == .finished)
        #expect(state.counters.anomalies == 0)
        let finished = state.apply(MonitorEvent(sequence: state.nextSequence, time: script.time + 5,
                                                change: .finished(operation: 1, cancelled: false)))
        #expect(finished.effect == .finished(1))
        #expect(state[1]?.finishWasInferred == false && state[queue: QueueID(1)]?.finished == 2)
    }

    @Test("a deduced finish is undone when the operation shows it is alive")
    func revival() throws {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "a", after: [2])
        script.add(2, queue: 1, "b", after: [1])
        script.start(2)              // b's cancellation, which released it, is late
        script.cancel(2)
        script.finish(2, cancelled: true)
        script.ready(1)
        script.start(1)
        script.finish(1)
        let state = streamState(script)
        #expect(state[1]?.state == .finished && state[1]?.finishWasInferred == false && state[1]?.isCancelled == false)
        #expect(state[2]?.state == .finished && state[2]?.isCancelled == true)
        let queue = try #require(state[queue: QueueID(1)])
        #expect((queue.finished, queue.cancelled, queue.executing, queue.ready, queue.pending) == (2, 1, 0, 0, 0))
    }

    @Test("retention trims the oldest finished operations by count and by age, counted per queue")
    func retention() throws {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...30 {
            script.add(id, queue: 1, "op")
            script.run(id)
        }
        script.add(31, queue: nil, "orphan")
        script.emit(.finished(operation: 31, cancelled: false), source: .inferred)
        var state = streamState(script, retention: StreamRetention(maximumFinished: 10, maximumAge: 5_000_000_000))
        #expect(state.retainedFinished == 10 && state.operations.count == 10)
        #expect(state[queue: QueueID(1)]?.trimmed == 21 && state.counters.trimmedWithoutQueue == 0)
        #expect(state[queue: QueueID(1)]?.finished == 30)
        state.trim(now: script.time + 6_000_000_000)
        #expect(state.operations.isEmpty && state.retainedFinished == 0)
        #expect(state[queue: QueueID(1)]?.trimmed == 30 && state.counters.trimmedWithoutQueue == 1 && state.counters.trimmed == 31)
    }

    @Test("a released queue stays while it has operations, and is forgotten with the last")
    func releasedQueue() {
        var script = EventScript()
        script.queue(1, "temporary")
        script.queue(2, "empty")
        script.add(1, queue: 1, "op")
        script.run(1)
        script.emit(.queueReleased(queue: QueueID(1)))
        script.emit(.queueReleased(queue: QueueID(2)))
        var state = streamState(script, retention: StreamRetention(maximumFinished: 10, maximumAge: 0))
        #expect(state[queue: QueueID(1)]?.isReleased == true && state[queue: QueueID(2)] == nil)
        state.trim(now: script.time + 1)
        #expect(state.queues.isEmpty)
    }

    @Test("key changes are kept compactly, the latest `historyLimit`, with times, origins and details")
    func compactHistory() throws {
        var state = StreamState(retention: StreamRetention(maximumFinished: 10, historyLimit: 4))
        let base: UInt64 = 5_000_000_000_000
        state.apply(MonitorEvent(sequence: 0, time: base, change: .operationAdded(OperationInfo(id: 1, isReady: false))))
        state.apply(MonitorEvent(sequence: 1, time: base - 7, origin: .sampled, change: .ready(operation: 1, isReady: true)))
        state.apply(MonitorEvent(sequence: 2, time: base + 300_000_000_000, change: .dependencyAdded(operation: 1, dependency: 70_000)))
        state.apply(MonitorEvent(sequence: 3, time: base + 1, origin: .inferred, change: .priorityChanged(operation: 1, priority: .veryLow, effective: .low)))
        state.apply(MonitorEvent(sequence: 4, time: base + 2, change: .cancelled(operation: 1)))
        let history = try #require(state[1]).history
        #expect(history == [
            KeyChange(time: base - 7, key: .isReady, value: true, origin: .sampled),
            KeyChange(time: base + 300_000_000_000, key: .dependencies, value: true, origin: .exact, detail: 70_000),
            KeyChange(time: base + 1, key: .queuePriority, value: true, origin: .inferred, detail: -8),
            KeyChange(time: base + 2, key: .isCancelled, value: true, origin: .exact),
        ])
    }

    @Test("adopting a keyframe keeps the consumer's retention and trims to it")
    func adopt() {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...50 {
            script.add(id, queue: 1, "op")
            script.run(id)
        }
        let history = streamState(script, retention: StreamRetention(maximumFinished: 1_000))
        var dashboard = StreamState(retention: StreamRetention(maximumFinished: 5))
        dashboard.adopt(history)
        #expect(dashboard.retainedFinished == 5 && dashboard.retention.maximumFinished == 5)
        #expect(dashboard[queue: QueueID(1)]?.finished == 50 && dashboard[queue: QueueID(1)]?.trimmed == 45)
        #expect(dashboard.nextSequence == history.nextSequence)
    }
}
