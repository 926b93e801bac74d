import Foundation
import Synchronization

/// The thread that polls what cannot be hooked, every `interval`.
///
/// Started only when there is something to sample (a tracked queue, a foreign operation, a
/// dependency in no observed queue), so a monitor of instrumented work never wakes up; and it
/// rests, with no timeout, once a tick finds nothing left to sample, until there is again.
/// It reaches the core without retaining it (a weak reference would slow every report, see
/// `MonitorCore`); the public monitor stops it, and waits for it, before the core can go.
final class Sampler: @unchecked Sendable {
    // Safety: `running`, `stopping`, `resting` and `woken` are guarded by `condition`; `core`
    // is set once, in the core's init, before the sampler is shared.
    var core: Unmanaged<MonitorCore>?
    private let interval: TimeInterval
    private let condition = NSCondition()
    private var running = false
    private var stopping = false
    /// The thread waits for `start()` (nothing to sample), and whether it was called since.
    private var resting = false
    private var woken = false
    private var thread: Thread?
    /// The thread's kernel id once it has named itself, 0 before (for tests).
    let threadID = Atomic<Int32>(0)
    /// CPU time the sampler thread has spent in ticks, in nanoseconds (for the benchmark).
    let cpuNanoseconds = Atomic<UInt64>(0)
    let ticks = Atomic<Int>(0)

    init(interval: Duration) {
        let components = interval.components
        self.interval = max(0.001, Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    /// Starts the thread if it is not running (and the monitor is not going away), or ends its rest.
    func start() {
        condition.lock()
        defer { condition.unlock() }
        if running {
            woken = true
            if resting { condition.broadcast() }
            return
        }
        guard !stopping else { return }
        running = true
        let thread = Thread { [self] in loop() }
        thread.name = "OpScope sampler"
        self.thread = thread
        thread.start()
    }

    /// Whether the thread rests now, waiting for something to sample (for tests).
    var isResting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return resting
    }

    /// Stops the thread and waits until it has left its loop (at most one tick's work).
    func stopAndWait() {
        condition.lock()
        stopping = true
        condition.broadcast()
        // App code read during a tick may drop the last reference to the monitor: then this
        // runs on the sampler thread itself, which stops after the tick without waiting.
        if let thread, thread !== Thread.current {
            while running { condition.wait() }
        }
        condition.unlock()
    }

    private func loop() {
        if let id = ThreadName.setCurrent("OpScope sampler") { threadID.store(id, ordering: .releasing) }
        var rest = false
        while true {
            condition.lock()
            if rest {
                resting = true
                while !woken, !stopping { condition.wait() }
                resting = false
            }
            woken = false
            if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            let stop = stopping
            condition.unlock()
            guard !stop, let core else { break }
            // The core is alive: the public monitor waits in stopAndWait() before it can go.
            let before = threadCPUNanoseconds()
            rest = core._withUnsafeGuaranteedRef { core in
                SamplingPass(core: core).run()
                return core.samplerMayRest()
            }
            cpuNanoseconds.wrappingAdd(threadCPUNanoseconds() &- before, ordering: .relaxed)
            ticks.wrappingAdd(1, ordering: .relaxed)
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }
}

/// CPU time of the calling thread, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}
