import Foundation
import OperationEvents

/// Observes operations and queues and turns what they do into a stream of `MonitorEvent`s;
/// carries out the dashboard's commands.
///
/// Create one per program and share it. It holds operations and queues weakly: it never extends
/// a lifetime (an operation is referenced only while its queue holds it too) and creates no
/// retain cycle. All methods are thread-safe; no user code and no I/O run under its locks.
///
/// ```swift
/// let monitor = OperationMonitor()
/// let queue = ObservedOperationQueue(monitor: monitor, name: "images")
/// queue.addOperation { resize() }              // observed exactly
/// monitor.track(OperationQueue.main)           // observed by sampling
/// let batch = monitor.drainEvents(limit: 1000)
/// ```
public final class OperationMonitor: @unchecked Sendable {
    /// Tunables; the defaults suit an interactive dashboard.
    public struct Configuration: Sendable {
        /// Events the buffer holds before it drops (rounded up to a power of two).
        public var bufferCapacity = 65_536
        /// How often the sampler polls what cannot be hooked (tracked queues, starts of foreign operations).
        public var samplingInterval: Duration = .milliseconds(50)
        /// How many not-yet-started foreign operations per queue one sampling tick reads, taken in
        /// the order the queue will start them.
        public var samplingWindow = 64
        /// The share of one core a tracked queue's sampling may take; a deep queue is walked
        /// less often so that sampling never costs it more than this.
        public var trackedWalkBudget = 0.01
        /// The clock that stamps events.
        public var clock: MonitorClock = .monotonic
        /// How long an event whose cause has not been reported yet is held back (see
        /// `CausalSequencer`); past it, the missing finish is inferred.
        package var causalWindow = CausalSequencer.Window.standard
        /// Whether a sampler thread polls every `samplingInterval`; when false, only
        /// `sampleNow()` samples (tests that decide by events, headless tools).
        package var samplesAutomatically = true

        /// The defaults.
        public init() {}
    }

    let core: MonitorCore

    /// Creates a monitor.
    public init(configuration: Configuration = Configuration()) {
        core = MonitorCore(configuration: configuration)
    }

    deinit {
        // The sampler reaches the core without retaining it; stop it before the core can go.
        core.sampler.stopAndWait()
    }

    /// The configuration this monitor was created with.
    public var configuration: Configuration { core.configuration }

    /// Named work templates that the dashboard's "add work" command instantiates.
    public var catalog: WorkCatalog { core.catalog }

    /// Takes up to `limit` buffered events in causal order (docs/ARCHITECTURE.md: a dependency's
    /// finish before its dependents' readiness and start), with the running dropped-events count.
    /// Sequence numbers are contiguous from 0 across calls.
    public func drainEvents(limit: Int = .max) -> EventBatch {
        let now = core.now()
        let events = core.ordered.take(limit: limit, now: now)
        return EventBatch(events: events, droppedTotal: core.droppedCount)
    }

    /// Events dropped so far because the buffer was full (or ordered events were not taken).
    public var droppedEvents: Int { core.droppedCount }

    /// Events in the ordered stream so far (the next event's sequence number), counting the ones
    /// produced until now. A consumer that saw sequences 0..<acceptedEvents lost nothing silently.
    public var acceptedEvents: Int { Int(core.ordered.catchUp(now: core.now())) }

    /// What the ordering of the stream did so far: events held for their causes, finishes
    /// inferred, late duplicates dropped.
    package var orderingStatistics: CausalSequencer.Statistics { core.ordered.statistics }

    /// The current time on the monitor's clock.
    public func now() -> UInt64 { core.now() }

    /// Reads the live state of every queue and unfinished operation.
    ///
    /// Walks each queue's `operations` once (Foundation's O(n) walk under its lock): meant for
    /// re-synchronising after dropped events, not for every frame.
    public func snapshot() -> MonitorSnapshot { core.snapshot() }

    /// Carries out a command. A refused command returns an error that names the problem and has
    /// changed nothing; app code (an operation's `cancel()`, a template's factory) runs with no
    /// monitor lock held.
    public func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        core.perform(command)
    }

    /// The work catalog's templates, with the ids of their queues.
    public var workTemplates: [WorkTemplateInfo] { core.workTemplates }

    /// Observes a queue created elsewhere (a library's queue, `OperationQueue.main`) by sampling.
    /// Returns its id; tracking the same queue twice returns the same id, and an
    /// `ObservedOperationQueue` of this monitor keeps its exact observation.
    @discardableResult
    public func track(_ queue: OperationQueue) -> QueueID { core.track(queue) }

    /// Polls everything that cannot be hooked, once. The sampler thread calls this every
    /// sampling interval; call it yourself for a deterministic reading (tests, headless reports).
    public func sampleNow() { core.sampleNow() }
}
