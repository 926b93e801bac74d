import Foundation
import OperationEvents
import Synchronization

/// A bounded, lock-free, multi-producer single-consumer event buffer.
///
/// Workers report from inside Foundation's scheduling paths, so a report must never wait for
/// the hub: `push` claims a slot with one compare-and-swap and never blocks. When the hub falls
/// behind and the buffer is full, the event is dropped and counted; the hub repairs the stream
/// from a live snapshot. (Dmitry Vyukov's bounded queue: every slot carries a turn number that
/// says whose move it is.)
///
/// The producer that fills the buffer up to the *wake position* (set by the hub after each
/// drain) calls `onWake` once, so the hub's pump thread sleeps until there is a batch worth
/// draining: an idle monitor wakes nobody.
final class EventRing: @unchecked Sendable {
    // Safety: `events[i]` is initialised only by the producer that won slot i's turn and
    // moved out only by the consumer after the producer's releasing store of `turns[i]`.
    // Slots are raw memory: an event is moved in and moved out, never copied. `onWake` is set
    // once, before the ring is shared.
    let capacity: Int
    private let mask: Int
    private let turns: UnsafeMutablePointer<Atomic<Int>>
    private let events: UnsafeMutablePointer<MonitorEvent>
    private let head = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    /// The position whose producer calls `onWake` (Int.max: nobody).
    private let wakePosition = Atomic<Int>(Int.max)
    /// Called by the producer that reaches the wake position (never under a lock of the ring).
    var onWake: (@Sendable () -> Void)?
    /// The position from which producers call `onPressure` (Int.max: never).
    private let pressurePosition = Atomic<Int>(Int.max)
    /// Called by a producer that claimed a position at or past the pressure position, and by
    /// one that found the ring full before it drops its event (never under a lock of the ring).
    /// Set once, before the ring is shared.
    var onPressure: (@Sendable () -> Void)?
    /// Consumer position; guarded by `consumerLock` so drains from several threads are safe.
    private var tail = 0
    private let consumerLock = NSLock()

    /// Creates a buffer holding at least `minimumCapacity` events (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        turns = .allocate(capacity: size)
        for index in 0..<size { (turns + index).initialize(to: Atomic(index)) }
        events = .allocate(capacity: size)
    }

    deinit {
        // Events pushed and never drained are still initialised.
        while turns[tail & mask].load(ordering: .acquiring) == tail &+ 1 {
            (events + (tail & mask)).deinitialize(count: 1)
            tail &+= 1
        }
        events.deallocate()
        turns.deinitialize(count: capacity)
        turns.deallocate()
    }

    /// Events dropped because the buffer was full, since it was created.
    var droppedCount: Int { dropped.load(ordering: .acquiring) }

    /// The position the next accepted event will take (every position below it is claimed).
    var nextPosition: Int { head.load(ordering: .sequentiallyConsistent) }

    /// The position of the next event to drain. Only meaningful to the one draining.
    var drainedPosition: Int {
        consumerLock.lock()
        defer { consumerLock.unlock() }
        return tail
    }

    /// Asks the producer that takes `position` to call `onWake`. The caller then reads
    /// `nextPosition` and wakes the pump itself if producers are already past `position`: with
    /// this store, the producer's claim and its load of the wake position all sequentially
    /// consistent, at least one of the two sides sees the other (no wake is missed).
    func wake(at position: Int) {
        wakePosition.store(position, ordering: .sequentiallyConsistent)
    }

    /// Asks producers from `position` on to call `onPressure` (until moved again). Relaxed: a
    /// producer that reads an older value calls it a little early or late, which only costs or
    /// saves one try of the hub's lock.
    func pressure(from position: Int) {
        pressurePosition.store(position, ordering: .relaxed)
    }

    /// Appends an event, stamping its position as its sequence number; returns false (and counts
    /// a drop) when full, after `onPressure` (if set) had its one chance to make room.
    @discardableResult
    func push(_ event: consuming MonitorEvent) -> Bool {
        var position = head.load(ordering: .relaxed)
        var pressed = false
        while true {
            let turn = turns[position & mask].load(ordering: .acquiring)
            let lead = turn &- position
            if lead == 0 {
                let (won, current) = head.weakCompareExchange(
                    expected: position, desired: position &+ 1,
                    successOrdering: .sequentiallyConsistent, failureOrdering: .relaxed)
                if won { break }
                position = current
            } else if lead < 0 {
                // The slot still holds an event from the previous lap: the buffer is full.
                if !pressed, let onPressure {
                    pressed = true
                    onPressure()
                    position = head.load(ordering: .relaxed)
                    continue
                }
                dropped.wrappingAdd(1, ordering: .releasing)
                onWake?()
                return false
            } else {
                position = head.load(ordering: .relaxed)
            }
        }
        event.sequence = UInt64(position)
        (events + (position & mask)).initialize(to: event)
        turns[position & mask].store(position &+ 1, ordering: .releasing)
        // Sequentially consistent with the claim above and `wake(at:)` (on x86 a plain load,
        // as the claim is a locked instruction already).
        if position == wakePosition.load(ordering: .sequentiallyConsistent) { onWake?() }
        if position >= pressurePosition.load(ordering: .relaxed) { onPressure?() }
        return true
    }

    /// Removes up to `limit` events, oldest first. Stops early at a slot whose producer is still writing.
    func drain(limit: Int) -> [MonitorEvent] {
        var taken: [MonitorEvent] = []
        drain(limit: limit) { taken.append($0) }
        return taken
    }

    /// Hands up to `limit` events to `body`, oldest first, without collecting them; returns how
    /// many. Stops early at a slot whose producer is still writing. `body` must not drain.
    @discardableResult
    func drain(limit: Int, _ body: (consuming MonitorEvent) -> Void) -> Int {
        consumerLock.lock()
        defer { consumerLock.unlock() }
        var count = 0
        while count < limit {
            let index = tail & mask
            guard turns[index].load(ordering: .acquiring) == tail &+ 1 else { break }
            let event = (events + index).move()
            turns[index].store(tail &+ capacity, ordering: .releasing)
            tail &+= 1
            count += 1
            body(event)
        }
        return count
    }
}
