import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Model: starting from a keyframe")
struct KeyframeTests {
    @Test("a late start from a keyframe (through JSON) ends where watching from the start ends")
    func lateStart() throws {
        let script = pipelineScript()
        let half = script.events.count / 2
        var history = StreamState(retention: StreamRetention(maximumFinished: 1_000))
        for event in script.events.prefix(half) { history.apply(event) }
        let keyframe = try JSONDecoder().decode(StreamState.self, from: try JSONEncoder().encode(history))

        var late = DashboardModel()
        let lost = late.apply(EventBatch(start: .keyframe(keyframe), events: Array(script.events[half...]), droppedTotal: 0))
        let whole = script.model()
        #expect(!lost)
        #expect(late.stream == whole.stream)
        #expect(late.cycles == whole.cycles)
        #expect(Self.levels(late) == Self.levels(whole))
        for queue in whole.queues.ids {
            #expect(late.startOrder(of: queue) == whole.startOrder(of: queue), "start order of \(queue)")
        }
        #expect(late.criticalPath() == whole.criticalPath())
        #expect(late.report() == whole.report())
    }

    static func levels(_ model: DashboardModel) -> [Int] {
        model.operations.values.sorted { $0.id < $1.id }.map(\.level)
    }

    @Test("a keyframe is adopted with the model's own retention")
    func retention() {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...40 {
            script.add(id, queue: 1, "op")
            script.run(id)
        }
        var history = StreamState(retention: StreamRetention(maximumFinished: 1_000))
        for event in script.events { history.apply(event) }
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = 10
        var model = DashboardModel(configuration: configuration)
        model.apply(EventBatch(start: .keyframe(history), events: [], droppedTotal: 0))
        #expect(model.retainedFinished == 10 && model.expired[QueueID(1)] == 30 && model.queues[QueueID(1)]?.finished == 40)
        #expect(model.queues[QueueID(1)]?.latency.run.count == 10, "statistics come from what is retained")
    }

    @Test("a gap in the sequence numbers is reported like a loss, so the consumer resynchronises")
    func gap() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        var model = DashboardModel()
        let first = model.apply(EventBatch(events: Array(script.events.prefix(1)), droppedTotal: 0))
        let afterGap = model.apply(EventBatch(events: Array(script.events.suffix(1)), droppedTotal: 0))
        #expect(!first && afterGap)
        #expect(model.stream.counters.sequenceGaps == 1 && model[2] != nil)
    }
}
