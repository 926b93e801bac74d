import Foundation
import OperationEvents

/// Where events leave the ring: through the `CausalSequencer`, so that whoever takes them gets
/// them in causal order (docs/ARCHITECTURE.md), numbered contiguously.
///
/// Producers never see this: they push to the lock-free ring. The work happens when a consumer
/// takes events or a snapshot is read, under one lock that producers never take. The sequencer
/// is a separate value so that the monitor's hub (history and fan-out) can own it in its place.
final class OrderedEvents: @unchecked Sendable {
    // Safety: everything mutable is guarded by `lock`.
    private let lock = NSLock()
    private let ring: EventRing
    private var sequencer: CausalSequencer
    /// Ordered events not yet taken, from `pendingHead` on.
    private var pending: [MonitorEvent] = []
    private var pendingHead = 0
    /// The most ordered events kept for a consumer that does not take them; beyond it the oldest
    /// are dropped and counted (the consumer sees the count grow and re-synchronises).
    private let pendingLimit: Int
    private var overflowed = 0

    init(ring: EventRing, window: CausalSequencer.Window) {
        self.ring = ring
        sequencer = CausalSequencer(window: window)
        pendingLimit = 4 * ring.capacity
    }

    /// Takes up to `limit` events in causal order. `now` is the monitor's time, which ends holds
    /// older than the window (read by the caller: the clock is not called under the lock).
    func take(limit: Int, now: UInt64) -> [MonitorEvent] {
        lock.lock()
        defer { lock.unlock() }
        pump(wanted: limit, now: now)
        let available = pending.count - pendingHead
        if pendingHead == 0, available <= limit {
            defer { pending = [] }
            return pending
        }
        let count = min(limit, available)
        let taken = Array(pending[pendingHead..<(pendingHead + count)])
        pendingHead += count
        compact()
        return taken
    }

    /// Orders everything the ring holds now and returns the sequence number the next event given
    /// out will carry: every event numbered below it was produced before this call.
    func catchUp(now: UInt64) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        pump(wanted: .max, now: now)
        return sequencer.nextSequence
    }

    /// Ordered events dropped because nobody took them.
    var dropped: Int {
        lock.lock()
        defer { lock.unlock() }
        return overflowed
    }

    /// What the sequencer did so far.
    var statistics: CausalSequencer.Statistics {
        lock.lock()
        defer { lock.unlock() }
        return sequencer.statistics
    }

    /// Moves events from the ring through the sequencer until `wanted` are ready or the ring is
    /// empty. Lock held.
    private func pump(wanted: Int, now: UInt64) {
        while pending.count - pendingHead < wanted {
            let moved = ring.drain(limit: 4_096) { event in
                sequencer.push(event, into: &pending)
            }
            if moved == 0 { break }
        }
        sequencer.advance(to: now, into: &pending)
        let excess = pending.count - pendingHead - pendingLimit
        if excess > 0 {
            overflowed += excess
            pendingHead += excess
            compact()
        }
    }

    private func compact() {
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 65_536)
            pendingHead = 0
        } else if pendingHead >= 4_096, pendingHead * 2 >= pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
    }
}
