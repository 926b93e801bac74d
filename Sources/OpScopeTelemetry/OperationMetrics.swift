import CoreMetrics
import DashboardModel
import Foundation
import OperationEvents

/// A source's operations and queues as swift-metrics metrics (`OpScopeMetric` lists them):
/// per-queue gauges and counters, wait and run histograms, stuck work by cause, and the
/// metrics' own losses.
///
/// One more consumer of the source: a subscription of its own (`metrics`), read on a thread of
/// its own (a `SubscriptionFollower`) that folds the events into a `DashboardModel` and writes the metrics through
/// `factory`. The program is never held up: the thread runs at nice 19 (it takes the CPU the
/// program's work leaves, `FollowerConfiguration.niceness`), the subscription is bounded, and what the metrics
/// could not keep up with is lost and counted (the gauges and counters are rebuilt from the
/// keyframe that follows; the histograms miss the starts and finishes in between). The factory
/// is called on the metrics thread only, never with a lock held, so a backend of the program's
/// own (its `MetricsSystem.factory`, swift-otel's OTLP metrics) is safe to pass; for a
/// Prometheus endpoint pass a `PrometheusExposition`'s.
public final class OperationMetrics: @unchecked Sendable {
    // Safety: `lostTotal` is guarded by `lock`; everything else is used by the metrics thread
    // alone once it started (and by `init` before that).
    private let source: any EventSource
    private let follower: SubscriptionFollower
    private let factory: any MetricsFactory
    private let configuration: MetricsConfiguration
    private var model: DashboardModel
    private var queues: [QueueID: QueueInstruments] = [:]
    private let stuck: [StuckCause: Gauge]
    private let lostCounter: Counter
    private var lostCounted = 0
    private var lastPublish: UInt64 = 0
    private var unpublished = true
    private let lock = NSLock()
    private var lostTotal = 0

    /// Starts following `source`: the subscription is opened before this returns, the metrics
    /// thread follows it from then on.
    public init(source: any EventSource, factory: any MetricsFactory, configuration: MetricsConfiguration = MetricsConfiguration()) {
        self.source = source
        self.factory = factory
        self.configuration = configuration
        model = DashboardModel()
        follower = SubscriptionFollower(source: source, consumer: "metrics", configuration: configuration.reading)
        var stuck: [StuckCause: Gauge] = [:]
        for cause in StuckCause.allCases {
            stuck[cause] = Gauge(label: OpScopeMetric.stuckOperations.name, dimensions: [("cause", cause.rawValue)], factory: factory)
        }
        self.stuck = stuck
        lostCounter = Counter(label: OpScopeMetric.eventsLost.name, dimensions: [], factory: factory)
        follower.start(name: "opscope.metrics", fold: { [self] batch in
            fold(batch)
            if source.now() &- lastPublish >= UInt64(configuration.publishInterval * 1e9) { publish() }
        }, quiet: { [self] syncing in
            // A scrape reads the present (durations, time-based stuck causes); otherwise only
            // what changed is published.
            if unpublished || syncing { publish() }
        })
    }

    deinit {
        stop()
    }

    /// Events the metrics' subscription lost so far.
    public var eventsLost: Int { lock.withLock { lostTotal } }

    /// Events folded so far.
    public var eventsFolded: Int { follower.eventsFolded }

    /// CPU time the metrics thread has used so far (nanoseconds): with `eventsFolded`, the
    /// metrics' own cost per event (`opscope-bench bridge --metrics` prints it).
    public var cpuNanoseconds: UInt64 { follower.cpuNanoseconds }

    /// Returns once everything the subscription held when this was called is folded and the
    /// metrics show it (a scrape calls this first, so that it reads the present).
    public func sync() {
        follower.sync()
    }

    /// `sync()` that waits until `deadline` at most; returns false if the metrics had not caught
    /// up by then (they show an earlier moment). A scrape waits so, not to miss its own timeout
    /// while the program keeps every core busy (the metrics thread yields to it).
    @discardableResult
    public func sync(deadline: Date) -> Bool {
        follower.sync(deadline: deadline)
    }

    /// Stops following the source and waits for the metrics thread to end; the metrics keep
    /// their last values. Safe to call more than once.
    public func stop() {
        follower.stop()
    }

    // MARK: The metrics thread

    /// Applies a batch to the model and observes the waits and runs of the starts and finishes
    /// in it (read from the model after the batch: both times of an operation that started and
    /// finished within it are there).
    private func fold(_ batch: EventBatch) {
        if model.apply(batch) { follower.subscription.resynchronize() }
        unpublished = true
        for event in batch.events {
            guard let rule = event.change.orderingRule, let id = event.change.operation else { continue }
            switch rule {
            case .start:
                guard let (queue, addedAt, startedAt, late) = model.operations.read(id, { ($0.queue, $0.addedAt, $0.startedAt, $0.firstSeenLate) }),
                      let queue, let startedAt, !late else { continue }
                instruments(for: queue)?.wait.recordNanoseconds(Int64(startedAt >= addedAt ? startedAt - addedAt : 0))
            case .finish:
                guard let (queue, started, finishedAt) = model.operations.read(id, { record in
                    (record.queue, OperationRecord.knownStart(startedAt: record.startedAt, addedAt: record.addedAt,
                                                              firstSeenLate: record.firstSeenLate), record.finishedAt)
                }), let queue, let started, let finishedAt else { continue }
                instruments(for: queue)?.run.recordNanoseconds(Int64(finishedAt >= started ? finishedAt - started : 0))
            case .announcement, .readiness, .cancellation, .dependencyAdded, .dependencyRemoved, .release, .asItComes:
                continue
            }
        }
    }

    /// The queue's instruments, made when first needed; nil for a queue the model does not hold.
    private func instruments(for id: QueueID) -> QueueInstruments? {
        if let known = queues[id] { return known }
        guard let queue = model.queues[id], !queue.isReleased else { return nil }
        let made = QueueInstruments(queue, factory: factory)
        queues[id] = made
        return made
    }

    /// Brings every gauge and counter to the model as it stands now.
    private func publish() {
        model.advance(to: source.now())
        lastPublish = source.now()
        unpublished = false
        var live: Set<QueueID> = []
        for queue in model.queues.values where !queue.isReleased {
            live.insert(queue.id)
            var instruments = queues[queue.id] ?? QueueInstruments(queue, factory: factory)
            if instruments.name != queue.name {
                // Renamed: its series under the old name end, new ones carry on the counts.
                instruments.destroy()
                instruments = QueueInstruments(queue, factory: factory, counted: instruments.counted)
            }
            instruments.publish(queue)
            queues[queue.id] = instruments
        }
        for (id, instruments) in queues where !live.contains(id) {
            instruments.destroy()
            queues[id] = nil
        }
        var counts: [StuckCause: Int] = [:]
        for cause in model.stuckCauses().values { counts[cause, default: 0] += 1 }
        for (cause, gauge) in stuck { gauge.record(counts[cause] ?? 0) }
        let lost = model.droppedEvents
        if lost > lostCounted {
            lostCounter.increment(by: lost - lostCounted)
            lostCounted = lost
        }
        lock.withLock { lostTotal = lost }
    }
}
