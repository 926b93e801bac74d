import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Stream state: corrections from a live snapshot")
struct StreamStateCorrectionsTests {
    @Test("after lost events, the corrections make the state agree with the snapshot; applied again they are no-ops")
    func converge() throws {
        var script = EventScript()
        script.queue(1, "q", max: 2)
        script.queue(2, "gone")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c")
        script.add(4, queue: 2, "d")
        script.start(1)
        var state = streamState(script)
        // Lost: #1 finished, #2 became ready and started, #3 was cancelled, queue 2 went, #5 came.
        let snapshot = MonitorSnapshot(
            sequence: 40, time: script.time + 10,
            queues: [QueueInfo(id: QueueID(1), name: "q", maxConcurrentOperationCount: 1, isSuspended: true)],
            operations: [
                OperationInfo(id: 2, queue: QueueID(1), name: "b", dependencies: [1], isExecuting: true),
                OperationInfo(id: 3, queue: QueueID(1), name: "c", priority: .high, effectivePriority: .high, isCancelled: true),
                OperationInfo(id: 5, queue: QueueID(1), name: "e", dependencies: [2], isReady: false),
            ],
            droppedEvents: 9)
        let corrections = state.corrections(toMatch: snapshot)
        #expect(corrections.map(\.sequence) == Array(state.nextSequence..<(state.nextSequence + UInt64(corrections.count))))
        #expect(corrections.allSatisfy { $0.time == snapshot.time })
        for event in corrections { state.apply(event) }
        #expect(state[1]?.state == .finished && state[1]?.finishWasInferred == true)
        #expect(state[4]?.state == .finished)
        #expect(state[2]?.state == .executing)
        #expect(state[3]?.isCancelled == true && state[3]?.effectivePriority == .high && state[3]?.state == .ready)
        #expect(state[5]?.state == .pending && state[5]?.dependencies == [2])
        #expect(state[queue: QueueID(1)]?.isSuspended == true && state[queue: QueueID(1)]?.maxConcurrentOperationCount == 1)
        #expect(state[queue: QueueID(2)]?.isReleased == true)
        #expect(state.counters.anomalies == 0, "corrections are valid events")
        #expect(state.corrections(toMatch: snapshot).isEmpty, "nothing left to correct")
    }

    @Test("a deduced finish the snapshot contradicts is undone; an exact one is final")
    func revive() {
        var script = EventScript()
        script.queue(1, "q", suspended: true)
        script.add(1, queue: 1, "waiting", observation: .hooked)
        script.add(2, queue: 1, "dependent", after: [1], observation: .hooked)
        script.add(3, queue: 1, "done", observation: .hooked)
        script.run(3)
        // A cancelled dependent's start, seen before its cancellation: #1 taken as finished.
        script.start(2)
        var state = streamState(script)
        #expect(state[1]?.finishWasInferred == true)
        let snapshot = MonitorSnapshot(
            sequence: state.nextSequence, time: script.time + 1,
            queues: [QueueInfo(id: QueueID(1), name: "q", isSuspended: true)],
            operations: [
                OperationInfo(id: 1, queue: QueueID(1), name: "waiting"),
                OperationInfo(id: 2, queue: QueueID(1), name: "dependent", dependencies: [1], isExecuting: true, isCancelled: true),
                OperationInfo(id: 3, queue: QueueID(1), name: "done"),
            ],
            droppedEvents: 0)
        for event in state.corrections(toMatch: snapshot) { state.apply(event) }
        #expect(state[1]?.state == .ready && state[1]?.finishedAt == nil)
        #expect(state[2]?.isCancelled == true)
        #expect(state[3]?.state == .finished, "an exact finish stays")
        #expect(state[queue: QueueID(1)]?.finished == 1 && state[queue: QueueID(1)]?.ready == 1)
    }

    @Test("catching up moves the state to the snapshot's position")
    func catchUp() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        var state = streamState(script)
        let snapshot = MonitorSnapshot(sequence: 100, time: script.time + 1, queues: [QueueInfo(id: QueueID(1), name: "q")],
                                       operations: [], droppedEvents: 7)
        let applied = state.catchUp(to: snapshot)
        #expect(applied.map(\.change.effect) == [.finished(1)])
        #expect(state.nextSequence == 100 && state.counters.eventsLost == 7)
        #expect(state.apply(MonitorEvent(sequence: 99, time: 0, change: .queueReleased(queue: QueueID(1)))).anomaly == .stale)
    }
}
