import Foundation
import OperationEvents

/// The hub's history: its head `StreamState`, the fold of every event the hub gave out.
///
/// Folding an event into the history costs more than ordering it and handing it out (about
/// two thirds of the hub's work per event), and nobody needs the head until a keyframe is made
/// or a loss repaired. So the hub appends what it publishes to a log here, and the log is folded
/// in order: on the pump thread once it holds `foldThreshold` events, while consumers keep
/// draining the ring; or at once when the head is needed, or when the log reaches `logLimit`
/// (then by the thread serving: the log stays bounded whatever the pump does).
///
/// Two locks: the hub's lock guards the log (every method but `foldTaken` is called with it
/// held), `foldLock` guards the head. Lock order: the hub's lock, then `foldLock`. A fold on the
/// pump thread takes the log under both, then releases the hub's lock and folds under
/// `foldLock` alone, so whoever needs the head waits for that fold to end, and folds the newer
/// rest after it: events are folded in the order they were given out.
final class HubHistory: @unchecked Sendable {
    // Safety: `log`, `logged` and `now` are guarded by the hub's lock, `head` by `foldLock`.
    private let foldLock = NSLock()
    private var head: StreamState
    private var log: [[MonitorEvent]] = []
    /// Events in the log.
    private(set) var logged = 0
    /// The latest monitor time the hub served at (for trimming by age).
    private var now: UInt64 = 0
    /// Folds so far, those on the pump thread, and batches the folds had to copy (see
    /// `HubStatistics`). Guarded by `foldLock`.
    private var folds = 0
    private var pumpFolds = 0
    private var foldCopies = 0
    /// Log size that asks the pump to fold.
    let foldThreshold: Int
    /// Log size the serving thread folds at itself.
    let logLimit: Int

    init(retention: StreamRetention, foldThreshold: Int, logLimit: Int) {
        head = StreamState(retention: retention)
        self.foldThreshold = max(1, foldThreshold)
        self.logLimit = max(self.foldThreshold, logLimit)
    }

    /// Appends events the hub gave out, in order. Hub lock held.
    func append(_ events: [MonitorEvent]) {
        logged += events.count
        log.append(events)
    }

    /// The time to trim at, from now on. Hub lock held.
    func advance(to time: UInt64) {
        if time > now { now = time }
    }

    /// Runs `body` on the head with everything given out so far folded in (waiting for a fold in
    /// progress on the pump thread). Hub lock held.
    func withHead<T>(_ body: (inout StreamState) -> T) -> T {
        foldLock.lock()
        defer { foldLock.unlock() }
        fold(takeLog(), trimAt: now)
        return body(&head)
    }

    /// Folds the log now if it reached `logLimit`; when the pump is folding, waits for it, or
    /// with `waiting` false leaves the log to it. Hub lock held.
    func foldIfFull(waiting: Bool = true) {
        guard logged >= logLimit else { return }
        if waiting {
            foldLock.lock()
        } else if !foldLock.try() {
            return
        }
        fold(takeLog(), trimAt: now)
        foldLock.unlock()
    }

    /// Starts a fold for the pump: takes the log with `foldLock` held and returns it, or nil
    /// (and no lock) when the log is empty. Hub lock held; the caller releases it, then calls
    /// `foldTaken` with what this returned.
    func takeForFold() -> (events: [[MonitorEvent]], trimAt: UInt64)? {
        guard logged > 0 else { return nil }
        foldLock.lock()
        return (takeLog(), now)
    }

    /// Folds what `takeForFold` took and releases `foldLock`. Hub lock not held.
    ///
    /// The log is taken, not borrowed: borrowed, the caller's reference would keep it shared,
    /// and the fold would copy every batch before moving its events out (see `fold`).
    func foldTaken(_ events: consuming [[MonitorEvent]], trimAt time: UInt64) {
        pumpFolds += 1
        fold(consume events, trimAt: time)
        foldLock.unlock()
    }

    /// Adds the folds' counts to `statistics`. Hub lock held.
    func count(into statistics: inout HubStatistics) {
        foldLock.lock()
        defer { foldLock.unlock() }
        statistics.folds = folds
        statistics.pumpFolds = pumpFolds
        statistics.foldCopies = foldCopies
    }

    /// Hub lock held.
    private func takeLog() -> [[MonitorEvent]] {
        defer {
            log = []
            logged = 0
        }
        return log
    }

    /// `foldLock` held.
    private func fold(_ events: consuming [[MonitorEvent]], trimAt time: UInt64) {
        // The head through a pointer for the whole fold: `head.apply` per event through the
        // class's property paid a dynamic exclusivity check per event.
        folds += 1
        var copies = 0
        withUnsafeMutablePointer(to: &head) { head in
            for chunk in events.indices {
                // Each event is moved out of the log and given to the head, which releases its
                // payload once (see `StreamState.apply(taking:)`); a spent event takes its place,
                // so that the log's storage is destroyed as usual. Writing to a batch that is
                // still shared would copy it first (the array's copy on write): safe, but it
                // retains every payload the move saves. Subscriptions copy what they receive,
                // and the log is handed here by moves, so none is; `foldCopies` counts any.
                let stored = events[chunk].withUnsafeBufferPointer { $0.baseAddress }
                events[chunk].withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    if UnsafePointer(base) != stored { copies += 1 }
                    for index in 0..<buffer.count {
                        let event = (base + index).move()
                        (base + index).initialize(to: Self.spent)
                        head.pointee.apply(taking: event)
                    }
                }
            }
            head.pointee.trim(now: time)
        }
        foldCopies += copies
    }

    /// What a folded entry of the log holds: an event with no payload to release (built in
    /// place, not loaded from a global).
    private static var spent: MonitorEvent { MonitorEvent(time: 0, change: .queueCancelledAll(queue: QueueID(0))) }
}
