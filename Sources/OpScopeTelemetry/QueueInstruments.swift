import CoreMetrics
import DashboardModel
import OperationEvents

/// One queue's metrics: its gauges, counters and histograms, labelled with its name and id.
/// Created when the metrics first see the queue, destroyed when the model forgets it or it is
/// released (its series end; a renamed queue gets new ones).
struct QueueInstruments {
    let name: String
    private let executing: Gauge
    private let ready: Gauge
    private let pending: Gauge
    private let suspended: Gauge
    private let maxConcurrency: Gauge
    private let finished: Counter
    private let cancelled: Counter
    /// Added → started, per start seen.
    let wait: Timer
    /// Started → finished, per finish seen.
    let run: Timer
    /// The model's cumulative counts the counters were last brought to.
    private var finishedCounted = 0
    private var cancelledCounted = 0

    /// The queue's instruments; the counters start from `counted` (the counts a renamed
    /// queue's earlier instruments reached), so that they never count a finish twice.
    init(_ queue: QueueRecord, factory: any MetricsFactory, counted: (finished: Int, cancelled: Int) = (0, 0)) {
        name = queue.name
        let labels = [("queue", queue.name), ("queue_id", String(queue.id.rawValue))]
        func gauge(_ metric: OpScopeMetric, _ extra: [(String, String)] = []) -> Gauge {
            Gauge(label: metric.name, dimensions: labels + extra, factory: factory)
        }
        executing = gauge(.queueOperations, [("state", "executing")])
        ready = gauge(.queueOperations, [("state", "ready")])
        pending = gauge(.queueOperations, [("state", "pending")])
        suspended = gauge(.queueSuspended)
        maxConcurrency = gauge(.queueMaxConcurrency)
        finished = Counter(label: OpScopeMetric.operationsFinished.name, dimensions: labels, factory: factory)
        cancelled = Counter(label: OpScopeMetric.operationsCancelled.name, dimensions: labels, factory: factory)
        wait = Timer(label: OpScopeMetric.operationWait.name, dimensions: labels, factory: factory)
        run = Timer(label: OpScopeMetric.operationRun.name, dimensions: labels, factory: factory)
        (finishedCounted, cancelledCounted) = counted
    }

    /// What the counters have counted.
    var counted: (finished: Int, cancelled: Int) { (finishedCounted, cancelledCounted) }

    /// Brings the gauges and counters to the queue as the model states it now.
    mutating func publish(_ queue: QueueRecord) {
        executing.record(queue.executing)
        ready.record(queue.ready)
        pending.record(queue.pending)
        suspended.record(queue.isSuspended ? 1 : 0)
        maxConcurrency.record(queue.maxConcurrentOperationCount)
        // The model's counts are cumulative; a keyframe after lost events may restate them, never lower.
        if queue.finished > finishedCounted {
            finished.increment(by: queue.finished - finishedCounted)
            finishedCounted = queue.finished
        }
        if queue.cancelled > cancelledCounted {
            cancelled.increment(by: queue.cancelled - cancelledCounted)
            cancelledCounted = queue.cancelled
        }
    }

    /// Ends the queue's series.
    func destroy() {
        for gauge in [executing, ready, pending, suspended, maxConcurrency] { gauge.destroy() }
        finished.destroy()
        cancelled.destroy()
        wait.destroy()
        run.destroy()
    }
}
