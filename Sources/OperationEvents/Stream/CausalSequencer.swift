/// Puts the raw events of a monitor into the order every consumer is promised
/// (docs/ARCHITECTURE.md, "Causal order"), numbered contiguously from 0.
///
/// Producers report from many threads without waiting for one another, so the order in which
/// reports reach the ring is not always the order in which things happened. The typical case:
/// when an operation finishes, Foundation asks its dependents `isReady` in hash-set order, and a
/// dependent may be reported ready, or even run, before the hidden dependent that reports the
/// finish is asked. This type restores the order:
///
/// 1. Per operation: `operationAdded` first; then `ready` changes; `started`; `finished` last;
///    `cancelled` anywhere before `finished`. Nothing follows `finished` (or `released`): late
///    and duplicate events are dropped and counted, and so is a readiness change after the start.
/// 2. For a dependency A → B, B not cancelled: B's `ready(true)`, `started` and uncancelled
///    `finished` come after A's `finished`. An event of B that arrives first is held, with every
///    later event of B, until A's finish arrives. If A's finish cannot come exactly (A is
///    sampled or external), or the hold outlasts the window, an inferred `finished(A)` is
///    emitted first (preceded by an inferred `started(A)` unless A started or was cancelled).
///    The one exception: A instrumented. Its finish is reported before Foundation lets any
///    dependent go, so a hold on it that outlasts the window is a B that did not wait (an
///    `isReady` override that ignores dependencies): B's events are let out as they are, A
///    stays unfinished, and B waits for no dependency from then on.
///    An announcement claiming B ready while A is unfinished is emitted not ready, and the
///    readiness follows once A finished. Inferring A's finish when A's own dependencies lead
///    back to B (a cycle, which Foundation only leaves by a cancel) infers A cancelled.
/// 3. Queue events after the queue's `queueAppeared`; nothing after its `queueReleased`.
///
/// A pure value, used from one thread: its owner feeds it the events in ring order and tells it
/// the time. Work per event is O(1) amortised (each dependency named by an event is looked at a
/// bounded number of times) and nothing recurses. Memory is bounded by the unfinished operations
/// and by the events held, which the window bounds.
package struct CausalSequencer: Sendable {
    /// How long an event may be held for a finish that has not arrived.
    package struct Window: Sendable, Equatable {
        /// Monitor time, in nanoseconds, since the hold began.
        package var nanoseconds: UInt64
        /// Events taken in since the hold began.
        package var events: Int

        /// A window of `nanoseconds` of monitor time or `events` events, whichever ends first.
        package init(nanoseconds: UInt64, events: Int) {
            self.nanoseconds = nanoseconds
            self.events = max(1, events)
        }

        /// 100 ms or 65,536 events: a finish reported by the hidden dependent arrives
        /// microseconds after the readiness it caused, so only a lost or never-signalled finish
        /// waits this long.
        package static let standard = Window(nanoseconds: 100_000_000, events: 65_536)
    }

    /// What the sequencer did, since it was created.
    package struct Statistics: Sendable, Equatable {
        /// Events taken in.
        package var received = 0
        /// Events given out, inferred ones included.
        package var emitted = 0
        /// Late or duplicate events dropped: anything about an operation after its finish, a
        /// second start or cancel, a readiness change after the start, a queue event after its
        /// release.
        package var droppedLate = 0
        /// Events that had to wait for a cause.
        package var held = 0
        /// Finishes emitted as inferred (the real one could not come exactly, or in time).
        package var inferredFinishes = 0
        /// Holds ended by the window rather than by the finish they waited for.
        package var expiredHolds = 0
        /// Operations that ran ahead of an instrumented dependency still unfinished (their
        /// `isReady` ignores dependencies): let out when their hold ended, nothing inferred.
        package var wentAhead = 0
        /// Dependency cycles met while inferring finishes, broken by inferring a cancel.
        package var brokenCycles = 0
        /// Events about operations or queues never announced, passed on as they came.
        package var unannounced = 0

        /// All zero.
        package init() {}
    }

    /// When a hold began, for the window.
    struct HoldMark: Sendable {
        let id: Int
        let epoch: Int
        let since: UInt64
        let received: Int
    }

    /// The events of one operation waiting for a cause, oldest first.
    struct Held: Sendable {
        var events: [MonitorEvent]
        var head = 0
        let epoch: Int
    }

    enum QueuePhase: Sendable {
        case appeared, released
    }

    /// The window this sequencer holds events for.
    package let window: Window
    /// What it did so far.
    package internal(set) var statistics = Statistics()
    /// The sequence number the next event given out will carry.
    package internal(set) var nextSequence: UInt64 = 0
    /// Events held now.
    package internal(set) var heldCount = 0

    var table: SequencerTable
    var queues: [Int: QueuePhase] = [:]
    var held: [Int: Held] = [:]
    /// Dependency -> operations whose held events wait for its finish.
    var waiters: [Int: [Int]] = [:]
    var holdOrder = FIFO<HoldMark>()
    /// Operations whose held events may be able to go now.
    var runnable: [Int] = []
    /// Operations whose finish must be inferred now, with the time of the evidence.
    var toSettle: [(id: Int, time: UInt64)] = []
    /// The latest time seen (events' times and `advance(to:)`).
    var latestTime: UInt64 = 0
    var nextEpoch = 0
    /// Where events go while a call runs (the caller's array, borrowed).
    var output: [MonitorEvent] = []

    /// Creates a sequencer that holds events at most `window` long.
    package init(window: Window = .standard, maximumSpan: Int = 16_384) {
        self.window = window
        table = SequencerTable(maximumSpan: maximumSpan)
    }

    /// Takes one event, in ring order, and appends to `events` whatever may now be given out.
    package mutating func push(_ event: MonitorEvent, into events: inout [MonitorEvent]) {
        swap(&output, &events)
        defer { swap(&output, &events) }
        statistics.received += 1
        if event.time > latestTime { latestTime = event.time }
        admit(event)
        if !runnable.isEmpty || !toSettle.isEmpty { runPending() }
        if !holdOrder.isEmpty { expireHolds() }
    }

    /// Tells the sequencer the monitor's time now; holds older than the window end.
    package mutating func advance(to time: UInt64, into events: inout [MonitorEvent]) {
        guard !holdOrder.isEmpty else {
            if time > latestTime { latestTime = time }
            return
        }
        swap(&output, &events)
        defer { swap(&output, &events) }
        if time > latestTime { latestTime = time }
        expireHolds()
    }

    /// Ends every hold now, inferring the finishes still missing (a stream that ends, a test).
    package mutating func releaseAll(into events: inout [MonitorEvent]) {
        swap(&output, &events)
        defer { swap(&output, &events) }
        while let mark = holdOrder.first {
            holdOrder.removeFirst()
            guard let queue = held[mark.id], queue.epoch == mark.epoch else { continue }
            statistics.expiredHolds += 1
            expire(mark.id)
        }
    }

    /// Operations announced and not finished (for tests and diagnostics; walks the table).
    package var unfinishedCount: Int { table.liveCount }

    /// Slots the operation table uses (for the memory bound's tests).
    package var tableFootprint: Int { table.footprint }

    // MARK: Admission

    mutating func emit(_ event: MonitorEvent) {
        var event = event
        event.sequence = nextSequence
        nextSequence &+= 1
        statistics.emitted += 1
        output.append(event)
    }

    private mutating func admit(_ event: MonitorEvent) {
        if let queue = event.change.queue {
            admitQueueEvent(event, queue: queue.rawValue)
            return
        }
        guard let operation = event.change.operation else {
            emit(event)
            return
        }
        let id = operation.rawValue
        switch table.phase(of: id) {
        case .live:
            if table.flags(id).contains(.held) {
                holdBehind(event, id: id)
            } else {
                run(event, id: id)
            }
        case .unseen, .gap:
            if case .operationAdded = event.change {
                table.announce(id)
                run(event, id: id)
            } else {
                statistics.unannounced += 1
                emit(event)
            }
        case .done:
            statistics.droppedLate += 1
        }
    }

    /// An event of an operation that already has events waiting: it waits behind them, except a
    /// cancellation, which lifts the dependencies' hold (a cancelled operation waits for nothing).
    private mutating func holdBehind(_ event: MonitorEvent, id: Int) {
        if case .cancelled = event.change, !table.flags(id).contains(.cancelled) {
            table.insert(.cancelled, into: id)
            emit(event)
            runnable.append(id)
            return
        }
        held[id]?.events.append(event)
        heldCount += 1
        statistics.held += 1
    }

    private mutating func admitQueueEvent(_ event: MonitorEvent, queue: Int) {
        let phase = queues[queue]
        if phase == .released {
            statistics.droppedLate += 1
            return
        }
        switch event.change {
        case .queueAppeared: queues[queue] = .appeared
        case .queueReleased: queues[queue] = .released
        default: if phase == nil { statistics.unannounced += 1 }
        }
        emit(event)
    }
}
