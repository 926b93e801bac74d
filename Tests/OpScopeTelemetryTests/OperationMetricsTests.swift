import DashboardModel
import Foundation
import OperationEvents
import OpScopeTelemetry
import OpScopeTestSupport
import Testing

/// The metrics say what the model says: per-queue gauges and counters, wait and run histograms,
/// stuck work by cause; read through the Prometheus text a scrape gets.
@Suite("Telemetry: a source's metrics")
struct OperationMetricsTests {
    private let queue = ["queue": "downloads", "queue_id": "1"]

    /// Queue 1 "downloads" (at most 2): #1 waited 10 ms and ran 31 ms (#2's start 1 ms after
    /// it, then 30 ms), #2 runs, #3 waits on #2, #4 was cancelled before it started.
    private func script() -> EventScript {
        var script = EventScript()
        script.queue(1, "downloads", max: 2)
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        script.add(3, queue: 1, "c", after: [2])
        script.add(4, queue: 1, "d")
        script.start(1, after: 10_000_000)
        script.start(2)
        script.finish(1, after: 30_000_000)
        script.cancel(4)
        script.finish(4, cancelled: true)
        return script
    }

    @Test("gauges and counters follow the queue; each start and finish is one observation")
    func queueMetrics() {
        let source = ScriptedSource(script())
        let exposition = PrometheusExposition()
        let metrics = OperationMetrics(source: source, factory: exposition.factory)
        defer { metrics.stop() }
        metrics.sync()
        let text = Exposition(exposition.exposition())
        #expect(text["opscope_queue_operations", queue.merging(["state": "executing"]) { $1 }] == 1)
        #expect(text["opscope_queue_operations", queue.merging(["state": "pending"]) { $1 }] == 1)
        #expect(text["opscope_queue_operations", queue.merging(["state": "ready"]) { $1 }] == 0)
        #expect(text["opscope_queue_suspended", queue] == 0)
        #expect(text["opscope_queue_max_concurrency", queue] == 2)
        #expect(text["opscope_queue_operations_finished_total", queue] == 2)
        #expect(text["opscope_queue_operations_cancelled_total", queue] == 1)
        // Two starts (#1, #2) and one finish after a start (#1; #4 never started).
        #expect(text["opscope_operation_wait_seconds_count", queue] == 2)
        #expect(text["opscope_operation_run_seconds_count", queue] == 1)
        let run = text["opscope_operation_run_seconds_sum", queue] ?? 0
        #expect(abs(run - 0.031) < 1e-9, "#1 ran 31 ms: \(run)")
        #expect(text["opscope_operation_run_seconds_bucket", queue.merging(["le": "0.01"]) { $1 }] == 0)
        #expect(text["opscope_operation_run_seconds_bucket", queue.merging(["le": "0.05"]) { $1 }] == 1)
        #expect(text["opscope_telemetry_events_lost_total"] == 0)

        // More events: the counters grow by what happened, never restart.
        var more = EventScript()
        more.time = source.now()
        more.finish(2)
        more.start(3)
        more.finish(3)
        source.append(more)
        metrics.sync()
        let later = Exposition(exposition.exposition())
        #expect(later["opscope_queue_operations_finished_total", queue] == 4)
        #expect(later["opscope_queue_operations", queue.merging(["state": "executing"]) { $1 }] == 0)
        #expect(later["opscope_operation_wait_seconds_count", queue] == 3)
        #expect(later["opscope_operation_run_seconds_count", queue] == 3)
    }

    @Test("every metric has its help and type, as OpScopeMetric states them")
    func helpAndTypes() {
        let source = ScriptedSource(script())
        let exposition = PrometheusExposition()
        let metrics = OperationMetrics(source: source, factory: exposition.factory)
        defer { metrics.stop() }
        metrics.sync()
        let text = Exposition(exposition.exposition())
        for metric in OpScopeMetric.allCases {
            #expect(text.help[metric.name] == metric.help, "\(metric.name)")
            let type = switch metric.kind {
            case .gauge: "gauge"
            case .counter: "counter"
            case .histogram: "histogram"
            }
            #expect(text.types[metric.name] == type, "\(metric.name)")
        }
    }

    @Test("stuck work by cause: the model's classification, every cause exported (0 when none)")
    func stuckByCause() {
        let source = ScriptedSource(stuckScript(seconds: 40))
        let exposition = PrometheusExposition()
        let metrics = OperationMetrics(source: source, factory: exposition.factory)
        defer { metrics.stop() }
        metrics.sync()
        let text = Exposition(exposition.exposition())
        let model = stuckScript(seconds: 40).model()
        var expected: [StuckCause: Int] = [:]
        for cause in model.stuckCauses(now: source.now()).values { expected[cause, default: 0] += 1 }
        #expect(expected[.cycle] == 2)
        #expect(expected[.queueSuspended] == 3)
        for cause in StuckCause.allCases {
            #expect(text["opscope_stuck_operations", ["cause": cause.rawValue]] == Double(expected[cause] ?? 0), "\(cause)")
        }
    }

    @Test("a renamed queue's series move to the new name and keep counting; a released queue's end")
    func renamedAndReleased() {
        var events = script()
        events.emit(.queueRenamed(queue: QueueID(1), name: "fetches"))
        let source = ScriptedSource(events)
        let exposition = PrometheusExposition()
        let metrics = OperationMetrics(source: source, factory: exposition.factory)
        defer { metrics.stop() }
        metrics.sync()
        var text = Exposition(exposition.exposition())
        let renamed = ["queue": "fetches", "queue_id": "1"]
        #expect(text["opscope_queue_operations_finished_total", renamed] == 2)
        #expect(text["opscope_queue_operations_finished_total", queue] == nil)
        var release = EventScript()
        release.time = source.now()
        release.finish(2)
        release.start(3)
        release.finish(3)
        release.emit(.queueReleased(queue: QueueID(1)))
        source.append(release)
        metrics.sync()
        text = Exposition(exposition.exposition())
        #expect(text["opscope_queue_operations_finished_total", renamed] == nil)
        #expect(text.samples.keys.allSatisfy { !$0.contains("queue_id=\"1\"") })
    }

    @Test("what the subscription lost is counted, and the gauges come back from the keyframe after it")
    func losses() {
        let source = LossySource(keyframe: script().model().stream, lost: 7)
        let exposition = PrometheusExposition()
        let metrics = OperationMetrics(source: source, factory: exposition.factory)
        defer { metrics.stop() }
        metrics.sync()
        let text = Exposition(exposition.exposition())
        #expect(text["opscope_telemetry_events_lost_total"] == 7)
        #expect(metrics.eventsLost == 7)
        #expect(text["opscope_queue_operations_finished_total", queue] == 2)
        #expect(text["opscope_queue_operations", queue.merging(["state": "executing"]) { $1 }] == 1)
    }
}

/// A source whose one subscription starts with a keyframe after `lost` events were lost (as a
/// monitor's does for a consumer that fell behind its buffer), then has nothing more.
private final class LossySource: EventSource, @unchecked Sendable {
    // Safety: immutable after init; the subscription guards its own state.
    let keyframe: StreamState
    let lost: Int
    let sourceInfo = SourceInfo(kind: .live, program: "test")
    let workTemplates: [WorkTemplateInfo] = []

    init(keyframe: StreamState, lost: Int) {
        self.keyframe = keyframe
        self.lost = lost
    }

    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription { Subscription(self) }
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { .failure(CommandError(.unsupported, "test")) }
    func now() -> UInt64 { keyframe.time }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        // Safety: `delivered` is guarded by `Locked`.
        let consumer = "metrics"
        let source: LossySource
        let delivered = Locked(false)

        init(_ source: LossySource) { self.source = source }

        func next(limit: Int) -> EventBatch {
            let first = delivered.withLock { delivered in
                defer { delivered = true }
                return !delivered
            }
            return EventBatch(start: first ? .keyframe(source.keyframe) : nil, events: [], droppedTotal: source.lost)
        }

        func resynchronize() {}
        func close() {}
    }
}
