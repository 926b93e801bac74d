import Foundation
import OperationEvents

/// Observes operations and queues and turns what they do into a stream of `MonitorEvent`s;
/// carries out the dashboard's commands.
///
/// Create one per program and share it. It holds operations and queues weakly: it never extends
/// a lifetime (an operation is referenced only while its queue holds it too) and creates no
/// retain cycle. All methods are thread-safe; no user code and no I/O run under its locks.
///
/// It keeps a history of what it saw (a `StreamState`, bounded by `Configuration.history`) and
/// is an `EventSource`: every subscription starts with that history, then gets the live events
/// in causal order, from its own bounded buffer.
///
/// ```swift
/// let monitor = OperationMonitor()
/// let queue = ObservedOperationQueue(monitor: monitor, name: "images")
/// queue.addOperation { resize() }              // observed exactly
/// monitor.track(OperationQueue.main)           // observed by sampling
/// let subscription = monitor.subscribe(SubscriptionRequest(consumer: "logger"))
/// let batch = subscription.next(limit: 1000)   // a keyframe of the past, then events
/// ```
public final class OperationMonitor: @unchecked Sendable {
    /// Tunables; the defaults suit an interactive dashboard.
    public struct Configuration: Sendable {
        /// Events the producers' buffer holds before the hub drains it (rounded up to a power of
        /// two). Producers never wait: when it is full an event is dropped, and the hub repairs
        /// the stream from the live state. The hub's thread wakes when it is a quarter full.
        public var bufferCapacity = 65_536
        /// Events each subscription may fall behind by before it loses some (and starts again
        /// from a keyframe), unless its `SubscriptionRequest` asks for another size.
        public var subscriptionBufferCapacity = 131_072
        /// What the history keeps: every unfinished operation, and finished ones up to this
        /// retention (oldest trimmed first, counted per queue). About 190 bytes per retained
        /// finished operation (see docs/embedding.md, "Observing operations").
        public var history = StreamRetention(maximumFinished: 20_000, maximumAge: nil, historyLimit: 12)
        /// How often the sampler polls what cannot be hooked (tracked queues, starts of foreign operations).
        public var samplingInterval: Duration = .milliseconds(50)
        /// How many not-yet-started foreign operations per queue one sampling tick reads, taken in
        /// the order the queue will start them.
        public var samplingWindow = 64
        /// The share of one core a tracked queue's sampling may take; a deep queue is walked
        /// less often so that sampling never costs it more than this. Half a percent: at 1% a
        /// tracked queue with 50 µs of work per operation ran about 1% slower than unobserved
        /// (BENCHMARKS.md, "Sampling's share"); the price is a deep queue's view refreshed less
        /// often (a walk of 20,000 queued operations took 0.55 ms: one walk per 110 ms).
        public var trackedWalkBudget = 0.005
        /// The clock that stamps events.
        public var clock: MonitorClock = .monotonic
        /// How long an event whose cause has not been reported yet is held back (see
        /// `CausalSequencer`); past it, the missing finish is inferred.
        package var causalWindow = CausalSequencer.Window.standard
        /// Whether a sampler thread polls every `samplingInterval`; when false, only
        /// `sampleNow()` samples (tests that decide by events, headless tools).
        package var samplesAutomatically = true
        /// Whether producers wake the hub's thread when the buffer fills; when false, the hub
        /// runs only when someone reads (tests of the repair after drops).
        package var pumpsAutomatically = true
        /// Whether a producer that finds the buffer three quarters full drains it itself when
        /// the hub is free (see `MonitorHub`), rather than drop events while the hub's thread
        /// waits for a core; false keeps the drops (tests of the repair under real load). Only with
        /// `pumpsAutomatically`.
        package var producersAssist = true

        /// The defaults.
        public init() {}
    }

    let core: MonitorCore
    // Safety: `drain` is guarded by `drainLock`.
    private let drainLock = NSLock()
    /// The subscription `drainEvents` reads, opened by its first call (held here, not by the
    /// core, which the subscription keeps alive).
    private var drain: HubSubscription?

    /// Creates a monitor.
    public init(configuration: Configuration = Configuration()) {
        core = MonitorCore(configuration: configuration)
    }

    deinit {
        // The sampler and the hub's thread reach the core without retaining it; stop them
        // before the core can go.
        core.sampler.stopAndWait()
        core.hub.pump.stopAndWait()
    }

    /// The configuration this monitor was created with.
    public var configuration: Configuration { core.configuration }

    /// Named work templates that the dashboard's "add work" command instantiates.
    public var catalog: WorkCatalog { core.catalog }

    /// Takes up to `limit` events from the monitor's own subscription (opened by the first call,
    /// so its first batch starts with a keyframe of the history), for the package's own tests and
    /// benchmarks that read the stream directly. Consumers subscribe instead (`subscribe(_:)`);
    /// code outside the package reaches the deprecated public form below.
    package func drainEvents(limit: Int = .max) -> EventBatch {
        drainLock.lock()
        let subscription = drain ?? HubSubscription(core: core, consumer: "drain", capacity: nil)
        drain = subscription
        drainLock.unlock()
        return subscription.next(limit: limit)
    }

    /// Events the producers' buffer dropped so far because it was full. The hub repairs the
    /// stream after a loss (corrections from the live state) and every subscription's
    /// `droppedTotal` includes it; a subscription's own losses are in its batches.
    public var droppedEvents: Int { core.droppedCount }

    /// Events in the stream so far (the next event's sequence number), counting the ones
    /// produced until now. A consumer that saw sequences 0..<acceptedEvents lost nothing silently.
    public var acceptedEvents: Int { Int(core.hub.catchUp()) }

    /// What the ordering of the stream did so far: events held for their causes, finishes
    /// inferred, late duplicates dropped.
    package var orderingStatistics: CausalSequencer.Statistics { core.hub.statistics.ordering }

    /// What the hub did so far (events served, repairs, keyframes, subscriptions' buffers).
    package var hubStatistics: HubStatistics { core.hub.statistics }

    /// The monitor's history now: the state of the stream so far, with the retained past.
    package var history: StreamState { core.hub.currentHistory }

    /// The current time on the monitor's clock.
    public func now() -> UInt64 { core.now() }

    /// Reads the live state of every queue and unfinished operation.
    ///
    /// Walks each queue's `operations` once (Foundation's O(n) walk under its lock): the monitor
    /// repairs its stream with it after its buffer dropped events, and a tool may read the
    /// present with it; not for every frame. A consumer that lost events does not call it: it
    /// resynchronises its subscription (`EventSubscription.resynchronize()`), whose next batch
    /// starts with a keyframe.
    public func snapshot() -> MonitorSnapshot { LiveStateReader(core: core).snapshot() }

    /// Carries out a command. A refused command returns an error that names the problem and has
    /// changed nothing; app code (an operation's `cancel()`, a template's factory) runs with no
    /// monitor lock held.
    public func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        CommandPerformer(core: core).perform(command)
    }

    /// The work catalog's templates, with the ids of their queues.
    public var workTemplates: [WorkTemplateInfo] { core.workTemplates }

    /// Observes a queue created elsewhere (a library's queue, `OperationQueue.main`) by sampling.
    /// Returns its id; tracking the same queue twice returns the same id, and an
    /// `ObservedOperationQueue` of this monitor keeps its exact observation.
    @discardableResult
    public func track(_ queue: OperationQueue) -> QueueID { core.track(queue) }

    // MARK: Queues of the program's own classes

    /// Observes a queue of a class OpScope does not own (a framework's queue class, a group's
    /// private queue) whose adds the program reports with `willAdd(_:to:hiddenDependencies:)`.
    /// Returns its id; `willAdd` registers the queue itself on first use, so calling this only
    /// makes an empty queue visible early. Its state (suspended, maximum, name, QoS) is sampled,
    /// or reported at once with `queueDidChange(_:)`; an add it does not report is found by
    /// sampling. A tracked queue becomes reported; an `ObservedOperationQueue` keeps its own id.
    @discardableResult
    public func register(_ queue: OperationQueue) -> QueueID { core.register(queue) }

    /// Reports that `operation` is about to be added to `queue`: call it from the queue class's
    /// `addOperation(_:)` override (or its delegate's "will add"), before Foundation gets the
    /// operation. The operation is then hooked as in an `ObservedOperationQueue`: its add,
    /// readiness and finish exact, its start sampled. Nothing of the operation or the queue is
    /// changed: OpScope reads their getters and attaches a hidden dependent of its own.
    ///
    /// `hiddenDependencies` are dependencies that `operation.dependencies` does not list (a
    /// framework's condition evaluators, which its `dependencies` override filters out): named
    /// here, the graph and the diagnosis see them. Reporting one add twice is harmless (the first
    /// report stands). Returns the operation's id; nil when `queue` is an
    /// `ObservedOperationQueue` of this monitor, which reports its adds itself.
    @discardableResult
    public func willAdd(_ operation: Operation, to queue: OperationQueue, hiddenDependencies: [Operation] = []) -> OperationID? {
        core.willAdd(operation, to: queue, hiddenDependencies: hiddenDependencies)
    }

    /// Reports several adds to `queue` at once, in order (`addOperations(_:waitUntilFinished:)`).
    @discardableResult
    public func willAdd(_ operations: [Operation], to queue: OperationQueue) -> [OperationID] {
        operations.compactMap { core.willAdd($0, to: queue, hiddenDependencies: []) }
    }

    /// Reports a change the program just made to a reported or tracked queue's state
    /// (`isSuspended`, `maxConcurrentOperationCount`, `name`, `qualityOfService`) at once,
    /// instead of at the next sampling. Call it after the change; an unknown queue is ignored.
    public func queueDidChange(_ queue: OperationQueue) { SamplingPass(core: core).queueDidChange(queue) }

    /// Polls everything that cannot be hooked, once. The sampler thread calls this every
    /// sampling interval; call it yourself for a deterministic reading (tests, headless reports).
    public func sampleNow() { SamplingPass(core: core).run() }
}

// MARK: Deprecated names

extension OperationMonitor {
    /// Takes up to `limit` events (all there are when nil) from the monitor's own subscription:
    /// the first batch starts with a keyframe of the history, then events follow in causal order.
    ///
    /// Public until the monitor became an `EventSource` with a subscription per consumer, and
    /// kept so that code written then still builds. A consumer of its own opens a subscription
    /// (`subscribe(_:)`), reads it with `next(limit:)` and asks it to `resynchronize()` after a
    /// gap; several readers of this method share one subscription and take events from each other.
    @available(*, deprecated, message: "open a subscription of your own: subscribe(SubscriptionRequest(consumer:)), then next(limit:)")
    @_disfavoredOverload
    public func drainEvents(limit: Int? = nil) -> EventBatch {
        drainEvents(limit: limit ?? .max)
    }
}
