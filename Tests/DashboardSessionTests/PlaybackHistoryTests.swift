import DashboardModel
import DashboardSession
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Session: the history a paused display moves through")
struct PlaybackHistoryTests {
    /// A long script: 300 operations, each added, started and finished.
    private func script() -> EventScript {
        var script = EventScript()
        script.queue(1, "work", max: 4)
        for id in 1...300 {
            script.add(id, queue: 1, "op-\(id)", after: id > 1 ? [id - 1] : [])
            if id > 1 { script.ready(id) }
            script.run(id)
        }
        return script
    }

    @Test("the state at any held position equals applying the events up to it from the start")
    func positions() {
        let events = script().events
        var history = PlaybackHistory(keyframeInterval: 50, capacity: 10_000)
        var live = DashboardModel()
        history.restart(from: live)
        for chunk in stride(from: 0, to: events.count, by: 37) {
            let batch = Array(events[chunk..<min(events.count, chunk + 37)])
            live.apply(EventBatch(events: batch, droppedTotal: 0))
            history.record(batch, liveModelAfter: live)
        }
        #expect(history.start == 0 && history.end == events.count)
        for position in [0, 1, 49, 50, 51, 333, events.count - 1, events.count] {
            var expected = DashboardModel()
            expected.apply(EventBatch(events: Array(events[0..<position]), droppedTotal: 0))
            #expect(history.model(at: position)?.report() == expected.report(), "at \(position)")
        }
    }

    @Test("bounded: the oldest events go with the saved states before them; what is left still rebuilds")
    func bounded() {
        let events = script().events
        var history = PlaybackHistory(keyframeInterval: 50, capacity: 200)
        var live = DashboardModel()
        history.restart(from: live)
        for event in events {
            live.apply(EventBatch(events: [event], droppedTotal: 0))
            history.record([event], liveModelAfter: live)
        }
        #expect(history.end - history.start <= 250, "kept \(history.end - history.start)")
        #expect(history.start > 0)
        #expect(history.model(at: history.end)?.report() == live.report())
    }
}
