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

    var table: OperationSlots
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
        table = OperationSlots(maximumSpan: maximumSpan)
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
        // Only a queue's appearance and its release move its phase; any other change of it
        // before its appearance is counted.
        let kind = event.change.kind
        if kind == .queueAppeared {
            queues[queue] = .appeared
        } else if kind == .queueReleased {
            queues[queue] = .released
        } else if phase == nil {
            statistics.unannounced += 1
        }
        emit(event)
    }
}

// MARK: Operations

extension CausalSequencer {
    /// What became of an event of an operation with nothing held.
    enum Outcome {
        /// Emitted, or dropped as late.
        case done
        /// Must wait for the finish of `dependency`; `waiting` is what waits (the event itself,
        /// or the readiness split off an announcement).
        case blocked(dependency: Int, waiting: MonitorEvent)
    }

    /// An event of an operation with nothing held: emitted now, or the start of a hold.
    mutating func run(_ event: MonitorEvent, id: Int) {
        if case .blocked(let dependency, let waiting) = process(event, id: id) {
            startHold(waiting, id: id, on: dependency)
        }
    }

    /// Applies the per-operation rules to one event of a live operation and emits it, unless a
    /// dependency's finish must come first.
    mutating func process(_ event: MonitorEvent, id: Int) -> Outcome {
        let flags = table.flags(id)
        // A cancelled operation waits for no dependency, and neither does one that went ahead.
        let waits = flags.isDisjoint(with: [.cancelled, .wentAhead])
        guard let rule = event.change.orderingRule else {
            // A queue's change: admitted by the queue's own rule, never here.
            emit(event)
            return .done
        }
        switch rule {
        case .announcement(var info):
            // A first announcement, or a dependency-only operation joining a queue (same id).
            switch info.observation {
            case .sampled, .external:
                table.insert(.inexact, into: id)
                table.remove(.announcesFinish, from: id)
            case .hooked:
                table.remove([.inexact, .announcesFinish], from: id)
            case .instrumented:
                table.remove(.inexact, from: id)
                table.insert(.announcesFinish, into: id)
            }
            if info.isCancelled { table.insert(.cancelled, into: id) }
            if !info.dependencies.isEmpty { table.addPending(info.dependencies.lazy.map(\.rawValue), to: id) }
            if info.isReady, !info.isCancelled, waits,
               let dependency = table.firstUnfinishedDependency(of: id) {
                // Shown not ready now; the readiness it claimed follows its dependency's finish.
                info.isReady = false
                emit(MonitorEvent(time: event.time, origin: event.origin, change: .operationAdded(info)))
                let readiness = MonitorEvent(
                    time: event.time, origin: event.origin, change: .ready(operation: info.id, isReady: true))
                return .blocked(dependency: dependency, waiting: readiness)
            }
            emit(event)
        case .readiness(let isReady):
            if flags.contains(.started) {
                statistics.droppedLate += 1
                return .done
            }
            if isReady, waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            emit(event)
        case .start:
            if flags.contains(.started) {
                statistics.droppedLate += 1
                return .done
            }
            if waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            table.insert(.started, into: id)
            emit(event)
        case .finish(let cancelled):
            if !cancelled, waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            emit(event)
            finish(id)
        case .cancellation:
            if flags.contains(.cancelled) {
                statistics.droppedLate += 1
                return .done
            }
            table.insert(.cancelled, into: id)
            emit(event)
        case .dependencyAdded(let dependency):
            emit(event)
            table.addPending(CollectionOfOne(dependency.rawValue), to: id)
        case .dependencyRemoved(let dependency):
            emit(event)
            table.removePending(dependency.rawValue, from: id)
        case .release:
            emit(event)
            finish(id)
        case .asItComes:
            emit(event)
        }
        return .done
    }

    /// The operation's last event was emitted: forget it, and let its waiters try again.
    mutating func finish(_ id: Int) {
        table.finish(id)
        if !waiters.isEmpty, let list = waiters.removeValue(forKey: id) {
            runnable.append(contentsOf: list)
        }
    }

    /// Emits an inferred finish (and start, when it must have run) for an operation whose own
    /// causes have all finished.
    mutating func inferFinish(_ id: Int, time: UInt64) {
        let flags = table.flags(id)
        let operation = OperationID(id)
        if !flags.contains(.started), !flags.contains(.cancelled) {
            emit(MonitorEvent(time: time, origin: .inferred, change: .started(operation: operation)))
        }
        emit(MonitorEvent(time: time, origin: .inferred,
                          change: .finished(operation: operation, cancelled: flags.contains(.cancelled))))
        statistics.inferredFinishes += 1
        finish(id)
    }
}

// MARK: Holds

extension CausalSequencer {
    /// Holds `event` (and, from now on, every later event of `id`) until `dependency` finished.
    mutating func startHold(_ event: MonitorEvent, id: Int, on dependency: Int) {
        nextEpoch += 1
        held[id] = Held(events: [event], epoch: nextEpoch)
        table.insert(.held, into: id)
        heldCount += 1
        statistics.held += 1
        holdOrder.append(HoldMark(id: id, epoch: nextEpoch, since: latestTime, received: statistics.received))
        wait(id, on: dependency, time: event.time)
    }

    /// Registers `id` as waiting for `dependency`'s finish. A finish that cannot arrive exactly
    /// is inferred at once, unless the dependency has held events of its own to let out first.
    mutating func wait(_ id: Int, on dependency: Int, time: UInt64) {
        var slot = table[id]
        guard slot.blocker != dependency else { return }
        slot.blocker = dependency
        table[id] = slot
        waiters[dependency, default: []].append(id)
        let flags = table.flags(dependency)
        if flags.contains(.inexact), !flags.contains(.held) {
            toSettle.append((dependency, time))
        }
    }

    /// Lets out what can go: held events whose cause arrived, finishes to infer. Iterative:
    /// letting one operation out may free others, which are queued here, never recursed into.
    mutating func runPending() {
        var index = 0
        while true {
            if index < runnable.count {
                let id = runnable[index]
                index += 1
                release(id)
            } else if let next = toSettle.popLast() {
                settle(next.id, time: next.time)
            } else {
                break
            }
        }
        runnable.removeAll(keepingCapacity: true)
    }

    /// Emits the held events of `id` in order, until one must wait again or none is left.
    mutating func release(_ id: Int) {
        guard var queue = held.removeValue(forKey: id) else { return }
        while queue.head < queue.events.count {
            guard table.isLive(id) else {
                // It finished: whatever followed its finish is late.
                let left = queue.events.count - queue.head
                statistics.droppedLate += left
                heldCount -= left
                return
            }
            let event = queue.events[queue.head]
            switch process(event, id: id) {
            case .done:
                queue.head += 1
                heldCount -= 1
            case .blocked(let dependency, let waiting):
                queue.events[queue.head] = waiting
                held[id] = queue
                wait(id, on: dependency, time: waiting.time)
                return
            }
        }
        guard table.isLive(id) else { return }
        table.remove(.held, from: id)
        var slot = table[id]
        slot.blocker = 0
        table[id] = slot
        // Others waited for it while it was held; if its finish cannot come exactly, infer it.
        if table.flags(id).contains(.inexact), waiters[id] != nil {
            toSettle.append((id, queue.events.last?.time ?? latestTime))
        }
    }

    // MARK: The window

    /// Ends the holds that began longer ago than the window, oldest first.
    mutating func expireHolds() {
        while let mark = holdOrder.first {
            guard let queue = held[mark.id], queue.epoch == mark.epoch else {
                holdOrder.removeFirst()
                continue
            }
            let age = latestTime >= mark.since ? latestTime - mark.since : 0
            guard age > window.nanoseconds || statistics.received - mark.received > window.events else { return }
            holdOrder.removeFirst()
            statistics.expiredHolds += 1
            expire(mark.id)
        }
    }

    /// Lets out every held event of `id`, inferring the finishes it waits for; or, when what it
    /// waits for is an instrumented operation, taking it as one that went ahead.
    mutating func expire(_ id: Int) {
        while let queue = held[id] {
            let blocker = table[id].blocker
            let flags = table.isLive(blocker) ? table.flags(blocker) : []
            if flags.contains(.announcesFinish), !flags.contains(.held) {
                // An instrumented finish is reported before Foundation lets any dependent go, so
                // it is not late: `id` did not wait for it (its `isReady` ignores dependencies).
                // Inferring the finish would show a running operation finished. (When the
                // dependency's own events are held here, its finish may be among them: settled
                // below like any other.)
                table.insert(.wentAhead, into: id)
                statistics.wentAhead += 1
                release(id)
                runPending()
                continue
            }
            // Settling finishes the dependency (or, in a cycle, takes one member as cancelled),
            // so every turn lets at least one held event out.
            settle(table[id].blocker, time: queue.events[queue.head].time)
            release(id)
            runPending()
        }
    }

    /// Makes `target` finished by inference: first everything it waits for (its held events'
    /// causes, its own unfinished dependencies), depth first on an explicit stack.
    ///
    /// Each operation on the stack depends on the one above it. A dependency already on the
    /// stack closes a cycle, which Foundation only ever leaves by a cancel: the operation the
    /// cycle leads back to is taken as cancelled (an inferred `cancelled`), which frees it from
    /// its dependencies, and what was stacked above it for its sake is dropped.
    mutating func settle(_ target: Int, time: UInt64) {
        guard table.isLive(target) else { return }
        var stack = [target]
        table.insert(.settling, into: target)
        while let top = stack.last {
            guard table.isLive(top) else {
                stack.removeLast()
                continue
            }
            let flags = table.flags(top)
            let next: Int?
            if flags.contains(.held) {
                let blocker = table[top].blocker
                next = table.isLive(blocker) && blocker != top ? blocker : nil
                if next == nil {
                    release(top)
                    continue
                }
            } else if !flags.contains(.cancelled) {
                next = table.firstUnfinishedDependency(of: top)
            } else {
                next = nil
            }
            guard let next else {
                inferFinish(top, time: time)
                stack.removeLast()
                continue
            }
            if table.flags(next).contains(.settling) {
                breakCycle(at: next, stack: &stack, time: time)
            } else {
                table.insert(.settling, into: next)
                stack.append(next)
            }
        }
    }

    /// `entry`, on the stack, is waited for by the top of the stack: a cycle. `entry` is taken as
    /// cancelled, and the operations stacked above it are no longer needed.
    private mutating func breakCycle(at entry: Int, stack: inout [Int], time: UInt64) {
        statistics.brokenCycles += 1
        while let top = stack.last, top != entry {
            if table.isLive(top) { table.remove(.settling, from: top) }
            stack.removeLast()
        }
        table.insert(.cancelled, into: entry)
        emit(MonitorEvent(time: time, origin: .inferred, change: .cancelled(operation: OperationID(entry))))
        if table.flags(entry).contains(.held) { release(entry) }
    }
}
