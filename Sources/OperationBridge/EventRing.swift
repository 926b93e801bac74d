import Foundation
import OperationEvents
import Synchronization

/// A bounded, lock-free, multi-producer single-consumer event buffer.
///
/// Workers report from inside Foundation's scheduling paths, so a report must never wait for
/// the dashboard: `push` claims a slot with one compare-and-swap and never blocks. When the
/// consumer falls behind and the buffer is full, the event is dropped and counted; the consumer
/// sees the count grow and re-synchronises from a snapshot. (Dmitry Vyukov's bounded queue:
/// every slot carries a turn number that says whose move it is.)
final class EventRing: @unchecked Sendable {
    // Safety: `events[i]` is initialised only by the producer that won slot i's turn and
    // moved out only by the consumer after the producer's releasing store of `turns[i]`.
    // Slots are raw memory: an event is moved in and moved out, never copied.
    let capacity: Int
    private let mask: Int
    private let turns: UnsafeMutablePointer<Atomic<Int>>
    private let events: UnsafeMutablePointer<MonitorEvent>
    private let head = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
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
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// The sequence number the next accepted event will get.
    var nextSequence: UInt64 { UInt64(head.load(ordering: .acquiring)) }

    /// Appends an event, stamping its sequence number; returns false (and counts a drop) when full.
    @discardableResult
    func push(_ event: consuming MonitorEvent) -> Bool {
        var position = head.load(ordering: .relaxed)
        while true {
            let turn = turns[position & mask].load(ordering: .acquiring)
            let lead = turn &- position
            if lead == 0 {
                let (won, current) = head.weakCompareExchange(
                    expected: position, desired: position &+ 1,
                    successOrdering: .relaxed, failureOrdering: .relaxed)
                if won { break }
                position = current
            } else if lead < 0 {
                // The slot still holds an event from the previous lap: the buffer is full.
                dropped.wrappingAdd(1, ordering: .relaxed)
                return false
            } else {
                position = head.load(ordering: .relaxed)
            }
        }
        event.sequence = UInt64(position)
        (events + (position & mask)).initialize(to: event)
        turns[position & mask].store(position &+ 1, ordering: .releasing)
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
