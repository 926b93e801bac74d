import DashboardModel
import OpScopeTestSupport
import OperationEvents
import Testing

/// What the model shows of operations it first saw already added (a re-synchronisation from a
/// snapshot, a late start): only what was observed, with what was read marked as read.
@Suite("Model: operations first seen already added")
struct FirstSeenTests {
    @Test("the key history reads what was seen; waits and runs that were not seen are not counted")
    func firstSeen() throws {
        var script = EventScript()
        script.queue(1, "net")
        script.add(1, queue: 1, "watched")
        var model = script.model()
        let time = script.time + 5_000_000
        model.apply(EventBatch(start: .snapshot(MonitorSnapshot(
            sequence: 10, time: time, queues: [QueueInfo(id: QueueID(1), name: "net")],
            operations: [
                OperationInfo(id: 1, queue: QueueID(1), name: "watched"),
                OperationInfo(id: 2, queue: QueueID(1), name: "waiting", dependencies: [1], isReady: false),
                OperationInfo(id: 3, queue: QueueID(1), name: "running", isExecuting: true, isCancelled: true),
            ],
            droppedEvents: 2)), events: [], droppedTotal: 2))
        #expect(model[2]?.history.map(\.text) == ["first seen already added: not ready"])
        #expect(model[3]?.history.map(\.text) == ["first seen already added: executing, cancelled"])
        #expect(model[1]?.history.first?.text == "added to its queue")

        let events: [MonitorEvent.Change] = [
            .started(operation: 1), .finished(operation: 1, cancelled: false), .ready(operation: 2, isReady: true),
            .started(operation: 2), .finished(operation: 3, cancelled: true),
        ]
        model.apply(EventBatch(events: events.enumerated().map { index, change in
            MonitorEvent(sequence: 10 + UInt64(index), time: time + UInt64(index + 1) * 1_000_000, change: change)
        }, droppedTotal: 2))
        #expect(model[2]?.history.map(\.text) == ["first seen already added: not ready", "isReady false → true", "isExecuting false → true"])
        let latency = try #require(model.queues[QueueID(1)]).latency
        // #1 was seen from its add: its wait and run count. #2's add and #3's start were not seen.
        #expect(latency.wait.count == 1 && latency.run.count == 1)
        let report = model.report()
        #expect(report.operations.map { $0.firstSeenLate ?? false } == [false, true, true])
    }
}
