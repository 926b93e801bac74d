import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// An operation first seen in a snapshot (after events were lost, or by a consumer that started
/// late) was added earlier, unseen: its history starts with what was read then, marked as read,
/// so that a later change follows from something shown, and its wait time is not pretended.
@Suite("Stream state: operations first seen already added")
struct StreamStateFirstSeenTests {
    static func lateState() -> (StreamState, snapshotTime: UInt64) {
        var script = EventScript()
        script.queue(1, "net")
        script.add(1, queue: 1, "seen")
        var state = streamState(script)
        let time = script.time + 5_000_000
        let snapshot = MonitorSnapshot(
            sequence: 40, time: time, queues: [QueueInfo(id: QueueID(1), name: "net")],
            operations: [
                OperationInfo(id: 1, queue: QueueID(1), name: "seen"),
                OperationInfo(id: 2, queue: QueueID(1), name: "ready one", isReady: true),
                OperationInfo(id: 3, queue: QueueID(1), name: "running", isExecuting: true, isCancelled: true),
                OperationInfo(id: 4, queue: QueueID(1), name: "tracked", observation: .sampled),
            ],
            droppedEvents: 3)
        state.catchUp(to: snapshot)
        return (state, time)
    }

    @Test("the first entry is what was read, not an add; the next change follows from it")
    func history() throws {
        var (state, time) = Self.lateState()
        let seen = try #require(state[1])
        #expect(!seen.firstSeenLate && seen.history.first == KeyChange(time: seen.addedAt, key: .added, value: true, origin: .exact))

        let ready = try #require(state[2])
        #expect(ready.firstSeenLate && ready.addedAt == time)
        #expect(ready.history == [KeyChange(time: time, key: .added, value: false, origin: .sampled, detail: 1)])
        #expect(ready.history[0].firstSeenKeys == (isReady: true, isExecuting: false, isCancelled: false))
        let running = try #require(state[3])
        #expect(running.firstSeenLate && running.state == .executing)
        #expect(running.history[0].firstSeenKeys == (isReady: true, isExecuting: true, isCancelled: true))
        // A tracked queue's operation is sampled anyway: seen when the sampler found it.
        #expect(state[4]?.firstSeenLate == false)

        state.apply(MonitorEvent(sequence: 40, time: time + 1_000, change: .ready(operation: 2, isReady: false)))
        #expect(state[2]?.history.map(\.key) == [.added, .isReady])
        #expect(state[2]?.history.last?.value == false)
    }

    @Test("a keyframe carries the mark")
    func keyframe() throws {
        let (state, _) = Self.lateState()
        let decoded = try JSONDecoder().decode(StreamState.self, from: try JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded[2]?.firstSeenLate == true && decoded[1]?.firstSeenLate == false)
        #expect(decoded[3]?.history == state[3]?.history)
    }
}
