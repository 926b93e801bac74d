import Foundation
import OperationEvents
import Synchronization

/// Where the events of a monitor go after the ring: the one place that orders them, keeps the
/// history and hands them to every consumer (docs/ARCHITECTURE.md, "The event stream").
///
/// Producers push to the lock-free ring and never wait. The hub drains the ring, puts the events
/// in causal order (`CausalSequencer`), appends them to every subscription's own bounded buffer
/// and folds them into its head `StreamState` (the history: finished operations with their
/// times, released queues, counters; `HubHistory` says when the fold runs). A subscription
/// starts with a keyframe of the head; one that falls further behind than its buffer loses
/// those events, counts them, and starts again from a keyframe; nobody waits for it. Events
/// the ring had to drop are repaired in the stream itself: the hub reads the live state, emits
/// the corrections that make the history agree with it, and records the loss, so every
/// consumer converges the same way.
///
/// The hub runs when a subscription reads, when a snapshot or report is made, and on the pump
/// thread, which producers wake only when the ring holds `pumpThreshold` undrained events (or
/// dropped one): history is kept with no consumer at all, and an idle monitor costs nothing.
/// When the pump thread waits for a core (a busy machine, more busy threads than cores) and the
/// ring is three quarters full, a producer that finds the hub's lock free drains a quarter of
/// the ring itself (`assist()`) before it would drop: the program pays for its own events then,
/// a little later than usual, instead of losing them. It never waits for a lock to do so.
final class MonitorHub: @unchecked Sendable {
    // Safety: everything mutable is guarded by `lock`, except `repairer` (guarded by
    // `repairCondition`). `core` is set once, before the hub is shared; whoever calls the hub
    // keeps the core alive (the monitor, or a subscription), and the pump thread is stopped
    // before the core can go.
    var core: Unmanaged<MonitorCore>?
    let ring: EventRing
    let clock: MonitorClock
    /// Events a subscription may fall behind by, when it does not ask for its own size.
    let defaultCapacity: Int
    /// Undrained events in the ring that wake the pump thread.
    let pumpThreshold: Int
    /// Undrained events in the ring from which producers drain it themselves (when they do:
    /// `ring.onPressure` is set).
    let assistThreshold: Int
    let pump: HubPump

    private let lock = NSLock()
    private var sequencer: CausalSequencer
    private let history: HubHistory
    /// Whether the pump thread folds the history (else the thread serving does, at once).
    private let foldsOnPump: Bool
    private var subscribers: [SubscriberBuffer] = []
    private var nextSubscriber = 0
    /// Ordered events not yet handed out.
    private var ordered: [MonitorEvent] = []
    /// Events the ring dropped whose loss is repaired in the stream (and counted in it).
    private var repairedLoss = 0
    /// The ring's drop count as last seen, when it last grew, and since when a loss waits for
    /// its repair (monitor time).
    private var dropsSeen = 0
    private var lastDropSeen: UInt64 = 0
    private var lossSince: UInt64?
    /// When the last repair ended and how long it took (monitor time).
    private var lastRepairEnd: UInt64 = 0
    private var lastRepairDuration: UInt64 = 0
    /// Drops must have stopped this long before a routine service repairs (20 ms)...
    let repairSettle: UInt64 = 20_000_000
    /// ...unless the loss has waited this long (1 s).
    let repairDelay: UInt64 = 1_000_000_000
    private var counts = HubStatistics()
    /// While a repair reads the live state: the ring position it read it at, which no drain
    /// passes until its corrections are in.
    private var repairMark: Int?
    /// The thread repairing now, if any; others wait for it (see `repair()`).
    private var repairer: Thread?
    private let repairCondition = NSCondition()

    init(ring: EventRing, clock: MonitorClock, configuration: OperationMonitor.Configuration) {
        self.ring = ring
        self.clock = clock
        defaultCapacity = max(1, configuration.subscriptionBufferCapacity)
        pumpThreshold = max(1, ring.capacity / 4)
        assistThreshold = max(1, ring.capacity * 3 / 4)
        sequencer = CausalSequencer(window: configuration.causalWindow)
        foldsOnPump = configuration.pumpsAutomatically
        history = HubHistory(retention: configuration.history, foldThreshold: 4_096, logLimit: ring.capacity)
        pump = HubPump()
        if configuration.pumpsAutomatically {
            let pump = self.pump
            ring.onWake = { pump.wake() }
            ring.wake(at: pumpThreshold - 1)
        }
        // A hub that runs only when read (tests of the repair) keeps its drops.
        if configuration.pumpsAutomatically && configuration.producersAssist {
            // Unretained: only the core pushes to the ring, and it owns this hub.
            ring.onPressure = { [unowned(unsafe) self] in assist() }
            ring.pressure(from: assistThreshold - 1)
        }
    }

    // MARK: Running

    /// Moves everything the ring holds through the sequencer into the history and the
    /// subscriptions, and repairs what the ring dropped. Calls the clock outside the lock.
    ///
    /// A repair reads every live operation: with a deep queue that costs far more than the
    /// events it replaces, and while producers are still overflowing the ring it would be out of
    /// date at once. So a routine service (a read, the pump) repairs once the drops have stopped
    /// for `repairSettle`, or, if they never stop, once the loss has waited `repairDelay`; and
    /// never sooner after the previous repair than nine times that repair's duration (repairs
    /// take at most a tenth of the time). `repairNow` (a new subscription, an explicit catch-up)
    /// repairs whatever is pending at once.
    ///
    /// One service publishes at most about one ring's worth of events (a drain, or a repair's
    /// drain to its mark, not both), so that a reader whose buffer holds a ring's worth never
    /// overflows with what its own read published.
    func service(repairNow: Bool = false) {
        let now = clock.now()
        lock.lock()
        let dropped = ring.droppedCount
        if dropped > dropsSeen {
            dropsSeen = dropped
            lastDropSeen = now
            if lossSince == nil { lossSince = now }
        }
        var due = false
        if dropped > repairedLoss, let since = lossSince {
            let settled = now &- lastDropSeen >= repairSettle || now &- since >= repairDelay
            let spaced = now &- lastRepairEnd >= 9 &* lastRepairDuration
            due = repairNow || (settled && spaced)
        }
        // A repair drains the ring up to where it reads the live state.
        if !due { drainRing(now: now) }
        lock.unlock()
        if due, !repair() {
            // Another thread repaired meanwhile: serve the ring as usual.
            let later = clock.now()
            lock.lock()
            drainRing(now: later)
            lock.unlock()
        }
    }

    /// Serves everything produced so far and repairs any loss; returns the sequence number the
    /// next event will carry (every event numbered below it was produced before this call).
    func catchUp(repairing: Bool = true) -> UInt64 {
        service(repairNow: repairing)
        lock.lock()
        defer { lock.unlock() }
        return sequencer.nextSequence
    }

    /// A producer found the ring three quarters full: if nobody holds the hub's lock, drains a
    /// quarter of the ring here, on the producer's thread, so that it need not drop. Repairs
    /// nothing and waits for no lock (a producer may be inside Foundation's own locks).
    func assist() {
        let now = clock.now()
        guard lock.try() else { return }
        drainRing(now: now, limit: ring.capacity / 4, foldWaits: false)
        counts.assists += 1
        lock.unlock()
    }

    /// Drains what the ring holds now (or `limit` events), lets out held events older than the
    /// window at `now`, and has the history folded: by the pump once enough is logged, else at
    /// once. Lock held.
    ///
    /// Only what is there when it starts: producers that refill the ring as fast as it drains
    /// (a burst of adds) would otherwise keep one service, and the lock, for as long as the
    /// burst lasts, and a reader serving the hub before it takes its events would see its own
    /// buffer overflow with what it published itself. The pump or the next read takes the rest.
    private func drainRing(now: UInt64, limit: Int? = nil, foldWaits: Bool = true) {
        let start = ring.drainedPosition
        var left = limit ?? max(0, ring.nextPosition - start)
        if let repairMark { left = min(left, max(0, repairMark - start)) }
        var drained = 0
        while left > 0 {
            let batch = min(4_096, left)
            let moved = sequenceFromRing(limit: batch)
            if !ordered.isEmpty { publish() }
            left -= moved
            drained += moved
            if moved < batch { break }
        }
        counts.largestDrain = max(counts.largestDrain, drained)
        sequencer.advance(to: now, into: &ordered)
        if !ordered.isEmpty { publish() }
        history.advance(to: now)
        if foldsOnPump {
            history.foldIfFull(waiting: foldWaits)
            if history.logged >= history.foldThreshold { pump.wake() }
        } else {
            history.withHead { _ in }
        }
        counts.services += 1
        rearmPump()
    }

    /// Moves up to `limit` events from the ring through the sequencer into `ordered`; returns
    /// how many it took. Lock held.
    ///
    /// The sequencer and `ordered` are reached through pointers for the whole batch: touched
    /// per event through the class's properties, each event paid two dynamic exclusivity
    /// checks (`swift_beginAccess`). With the same change in `HubHistory.fold`, the hub's CPU
    /// per event with one subscription went from 131 to 108 ns (`opscope-bench hub`,
    /// BENCHMARKS.md). `ordered` is sized for the batch first, so it is not regrown (and
    /// copied) several times per batch.
    private func sequenceFromRing(limit: Int) -> Int {
        let waiting = ring.nextPosition &- ring.drainedPosition
        let expected = min(limit, max(0, waiting))
        if ordered.capacity < ordered.count + expected { ordered.reserveCapacity(ordered.count + expected) }
        return withUnsafeMutablePointer(to: &sequencer) { sequencer in
            withUnsafeMutablePointer(to: &ordered) { ordered in
                ring.drain(limit: limit) { event in sequencer.pointee.push(event, into: &ordered.pointee) }
            }
        }
    }

    /// Appends the ordered events to every subscription and to the history's log. Lock held.
    private func publish() {
        for index in subscribers.indices { subscribers[index].receive(ordered) }
        counts.events += ordered.count
        history.append(ordered)
        ordered = []
    }

    /// Folds the history's log on the pump thread, without the hub's lock: consumers keep
    /// draining the ring meanwhile.
    func foldOnPump() {
        lock.lock()
        guard let (events, trimAt) = history.takeForFold() else {
            lock.unlock()
            return
        }
        lock.unlock()
        history.foldTaken(consume events, trimAt: trimAt)
    }

    /// Asks the producer that makes the ring hold `pumpThreshold` undrained events to wake the
    /// pump; wakes it now if producers are already past that point. Lock held.
    private func rearmPump() {
        let drained = ring.drainedPosition
        if ring.onPressure != nil { ring.pressure(from: drained + assistThreshold - 1) }
        guard ring.onWake != nil else { return }
        let position = drained + pumpThreshold - 1
        ring.wake(at: position)
        if ring.nextPosition > position { pump.wake() }
    }

    // MARK: Repair

    /// The ring dropped events: reads the live state and emits the corrections that make the
    /// history agree with it, then records the loss. The live state is read with no lock held
    /// (it calls the app's getters). One repair runs at a time; a reader that finds one running
    /// waits for it, so that what it reads afterwards is repaired (app code the repair calls
    /// that reads the monitor again is not repaired twice, and does not wait for itself).
    ///
    /// Returns whether it repaired (and so drained the ring up to its mark).
    @discardableResult
    private func repair() -> Bool {
        repairCondition.lock()
        while let running = repairer {
            if running === Thread.current {
                repairCondition.unlock()
                return false
            }
            repairCondition.wait()
        }
        let stillLost = ring.droppedCount > repairedRingLoss
        if stillLost { repairer = Thread.current }
        repairCondition.unlock()
        guard stillLost else { return false }
        defer {
            repairCondition.lock()
            repairer = nil
            repairCondition.broadcast()
            repairCondition.unlock()
        }
        guard let core else { return false }
        let started = clock.now()
        let loss = ring.droppedCount
        // Every event in the ring before `mark` was produced before the live state is read.
        // Nobody drains past it until the corrections are in: an event after it may describe
        // what the live state does not show yet (an operation added after the read would be
        // taken for one that vanished).
        lock.lock()
        let mark = ring.nextPosition
        repairMark = mark
        lock.unlock()
        let live = core._withUnsafeGuaranteedRef { LiveStateReader(core: $0).readLiveState(sequence: 0, time: clock.now()) }
        let now = clock.now()
        lock.lock()
        defer { lock.unlock() }
        drainRing(upTo: mark)
        repairMark = nil
        // Corrections go through the sequencer like any event: it numbers them, keeps them in
        // causal order and learns what they announce and end.
        for event in history.withHead({ $0.corrections(toMatch: live, time: now) }) {
            sequencer.push(event, into: &ordered)
        }
        if !ordered.isEmpty { publish() }
        _ = history.withHead { $0.noteEventsLost(total: loss) }
        repairedLoss = max(repairedLoss, loss)
        counts.repairs += 1
        // Events after the mark wait for the next service (see `service`): held events are let
        // out and the pump re-armed, nothing more is drained.
        drainRing(now: now, limit: 0)
        // Drops after `loss` was read wait for the next repair, from now.
        lossSince = ring.droppedCount > repairedLoss ? now : nil
        lastRepairEnd = now
        lastRepairDuration = now &- started
        return true
    }

    /// Drains the ring up to position `mark`, waiting out a producer that claimed a slot below
    /// it and has not written it yet (it is running, a few instructions from done). Lock held.
    private func drainRing(upTo mark: Int) {
        while ring.drainedPosition < mark {
            let wanted = mark - ring.drainedPosition
            let moved = sequenceFromRing(limit: wanted)
            if !ordered.isEmpty { publish() }
            if moved == 0 { sched_yield() }
        }
    }

    // MARK: Subscriptions

    /// Opens a subscription: its first batch starts with a keyframe of the history now (after
    /// serving the ring), and every later event is buffered for it.
    func subscribe(consumer: String, capacity: Int?) -> Int {
        service(repairNow: true)
        lock.lock()
        defer { lock.unlock() }
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers.append(SubscriberBuffer(
            id: id, consumer: consumer, capacity: max(1, capacity ?? defaultCapacity), keyframe: history.withHead { $0 }))
        return id
    }

    /// Up to `limit` events of subscription `id`, after serving the ring; a keyframe first when
    /// the subscription is new, fell behind, or asked for one.
    func next(_ id: Int, limit: Int) -> EventBatch {
        service()
        lock.lock()
        defer { lock.unlock() }
        guard let index = subscribers.firstIndex(where: { $0.id == id }) else {
            return EventBatch(events: [], droppedTotal: repairedLoss)
        }
        let dropped = repairedLoss + subscribers[index].lost
        var start: StreamStart?
        if var keyframe = subscribers[index].takeFirstKeyframe() {
            keyframe.noteEventsLost(total: dropped)
            start = .keyframe(keyframe)
        } else if subscribers[index].needsKeyframe {
            var keyframe = history.withHead { $0 }
            keyframe.noteEventsLost(total: dropped)
            start = .keyframe(keyframe)
            subscribers[index].restart()
        }
        if start != nil {
            subscribers[index].keyframes += 1
            counts.keyframes += 1
        }
        return EventBatch(start: start, events: subscribers[index].take(limit: max(0, limit)), droppedTotal: dropped)
    }

    /// The next batch of subscription `id` starts with a fresh keyframe.
    func resynchronize(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        if let index = subscribers.firstIndex(where: { $0.id == id }) { subscribers[index].discard() }
    }

    /// Forgets subscription `id`.
    func close(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        subscribers.removeAll { $0.id == id }
    }

    // MARK: Reading

    /// A copy of the history now (after serving the ring and repairing any loss).
    var currentHistory: StreamState {
        service(repairNow: true)
        lock.lock()
        defer { lock.unlock() }
        return history.withHead { $0 }
    }

    /// What the hub and its sequencer did so far.
    var statistics: HubStatistics {
        lock.lock()
        defer { lock.unlock() }
        var result = counts
        result.ordering = sequencer.statistics
        history.count(into: &result)
        result.subscriptions = subscribers.map {
            SubscriptionStatistics(consumer: $0.consumer, buffered: $0.buffered, lost: $0.lost, discarded: $0.discarded,
                                   keyframes: $0.keyframes)
        }
        result.pumpRuns = pump.runs.load(ordering: .relaxed)
        return result
    }

    /// Events the ring dropped so far whose loss the stream repaired.
    var repairedRingLoss: Int {
        lock.lock()
        defer { lock.unlock() }
        return repairedLoss
    }
}
