import Foundation
import OperationEvents

/// How a telemetry consumer reads its subscription.
public struct FollowerConfiguration: Sendable, Equatable {
    /// Events the consumer may fall behind by before it loses some (counted and exported; the
    /// program is never held up).
    public var bufferCapacity = 65_536
    /// How long the thread waits when the subscription is empty, at most (seconds); it waits
    /// less while events come.
    public var idleWait = 0.25
    /// How long the thread lets events gather after a read that found fewer than a full batch
    /// (seconds): reading in batches keeps the cost per event low (one read and one model pass
    /// per event was most of it); a `sync()` does not wait for it.
    public var readInterval = 0.05
    /// The thread's nice value (Linux: per thread; 0 to 19). At 19 the consumer yields the CPU
    /// to the program: while every core is busy with the program's work it runs little and
    /// falls behind (within `bufferCapacity`, then losing events, counted), and it catches up
    /// when a core is free. Its CPU per event is the same; only when it is paid changes. 0 runs
    /// it beside the program's threads as an equal.
    public var niceness: Int32 = 19

    /// The defaults.
    public init() {}
}

/// The thread a telemetry consumer (metrics, traces) reads its own subscription on: it hands
/// each batch to `fold`, and calls `quiet` when the subscription has been read empty (with true
/// when a `sync()` waits for it), so that the consumer brings what it exports up to date there.
///
/// Never holds its lock while calling the consumer: `fold` and `quiet` run on the thread alone.
package final class SubscriptionFollower: @unchecked Sendable {
    // Safety: the fields under "requests" are guarded by `condition`; `subscription` is read by
    // the thread alone once it started.
    package let subscription: any EventSubscription
    private let configuration: FollowerConfiguration
    /// Events read at most at once.
    static let batchLimit = 16_384

    // Requests.
    private let condition = NSCondition()
    private var stopRequested = false
    private var started = false
    private var finished = false
    private var syncRequested = 0
    private var syncDone = 0
    private var folded = 0
    private var threadCPU: UInt64 = 0

    /// Opens the subscription (before this returns); `start` starts reading it.
    package init(source: any EventSource, consumer: String, configuration: FollowerConfiguration) {
        self.configuration = configuration
        subscription = source.subscribe(SubscriptionRequest(consumer: consumer, bufferCapacity: max(1, configuration.bufferCapacity)))
    }

    /// Starts the thread, named `name`.
    package func start(name: String, fold: @escaping @Sendable (EventBatch) -> Void, quiet: @escaping @Sendable (_ syncing: Bool) -> Void) {
        condition.withLock { started = true }
        let thread = Thread { [self] in run(fold: fold, quiet: quiet) }
        thread.name = name
        thread.start()
    }

    /// Events folded so far.
    package var eventsFolded: Int { condition.withLock { folded } }

    /// CPU time the thread has used so far (nanoseconds).
    package var cpuNanoseconds: UInt64 { condition.withLock { threadCPU } }

    /// Returns once everything the subscription held when this was called is folded and `quiet`
    /// has run after it.
    /// With a `deadline`, returns by then at the latest (false if the thread had not caught up):
    /// a scrape must answer even while a busy program leaves a yielding consumer little CPU.
    @discardableResult
    package func sync(deadline: Date? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        syncRequested += 1
        let ticket = syncRequested
        condition.broadcast()
        while syncDone < ticket, !finished, started {
            if let deadline {
                if !condition.wait(until: deadline) { return syncDone >= ticket || finished }
            } else {
                condition.wait()
            }
        }
        return true
    }

    /// Stops reading and waits for the thread to end (after a last `quiet`); safe to call more
    /// than once.
    package func stop() {
        condition.lock()
        stopRequested = true
        condition.broadcast()
        while !finished, started { condition.wait() }
        condition.unlock()
        if !started { subscription.close() }
    }

    private func run(fold: (EventBatch) -> Void, quiet: (_ syncing: Bool) -> Void) {
        // On Linux the nice value is the thread's (`who` 0 is the calling thread): the program's
        // threads keep their own priority.
        if configuration.niceness != 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, configuration.niceness)
        }
        var idle = 0
        var droppedSeen = 0
        while true {
            condition.lock()
            let stopping = stopRequested
            let ticket = syncRequested
            condition.unlock()
            if stopping { break }
            let batch = subscription.next(limit: Self.batchLimit)
            if batch.start != nil || !batch.events.isEmpty || batch.droppedTotal > droppedSeen {
                idle = 0
                droppedSeen = max(droppedSeen, batch.droppedTotal)
                fold(batch)
                account(events: batch.events.count)
                if batch.events.count < Self.batchLimit {
                    // A short batch read all there was: let more gather before the next read.
                    condition.lock()
                    if !stopRequested, syncRequested == ticket {
                        _ = condition.wait(until: Date(timeIntervalSinceNow: configuration.readInterval))
                    }
                    condition.unlock()
                }
                continue
            }
            quiet(answeredSyncs() < ticket)
            account(events: 0)
            condition.lock()
            if syncDone < ticket { syncDone = ticket }
            condition.broadcast()
            if !stopRequested, syncRequested == syncDone {
                // Back off while nothing happens: a quiet program costs the consumer little.
                idle = min(idle + 1, 10)
                _ = condition.wait(until: Date(timeIntervalSinceNow: configuration.idleWait * Double(idle) / 10))
            }
            condition.unlock()
        }
        // What came before the stop is exported too (a few batches at most: a program that
        // keeps adding work must not keep the stop waiting).
        for _ in 0..<4 {
            let batch = subscription.next(limit: Self.batchLimit)
            guard batch.start != nil || !batch.events.isEmpty else { break }
            fold(batch)
            account(events: batch.events.count)
        }
        quiet(true)
        subscription.close()
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    private func answeredSyncs() -> Int { condition.withLock { syncDone } }

    /// Counts what the thread did, for `eventsFolded` and `cpuNanoseconds`.
    private func account(events: Int) {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        let cpu = UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
        condition.withLock {
            folded += events
            threadCPU = cpu
        }
    }
}
