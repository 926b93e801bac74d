import Foundation
import Synchronization

/// The thread that serves the hub when nobody reads: producers wake it when the ring holds a
/// batch worth draining (or had to drop an event), so the history keeps up with no consumer at
/// all, and it sleeps without a timeout otherwise: an idle monitor wakes nobody.
///
/// Started by the first wake, not before: a monitor whose consumers keep the ring drained never
/// creates it. It reaches the core without retaining it between turns (the core owns it); the
/// public monitor stops it, and waits for it, before the core can go.
final class HubPump: @unchecked Sendable {
    // Safety: `stopping`, `running` and `thread` are guarded by `condition`; `core` is set once,
    // before the pump can be woken.
    var core: Unmanaged<MonitorCore>?
    /// Times the thread served the hub (for tests and benchmarks).
    let runs = Atomic<Int>(0)
    /// The thread's kernel id once it has named itself, 0 before (for tests).
    let threadID = Atomic<Int32>(0)
    /// CPU time the thread spent serving, in nanoseconds (for the benchmark).
    let cpuNanoseconds = Atomic<UInt64>(0)
    private let semaphore = DispatchSemaphore(value: 0)
    /// A wake is pending: further wakes until the thread takes it cost one atomic exchange.
    private let signalled = Atomic<Bool>(false)
    private let launched = Atomic<Bool>(false)
    private let condition = NSCondition()
    private var stopping = false
    private var running = false
    private var thread: Thread?

    /// Asks the thread to serve the hub soon (starting it the first time). Never blocks for long:
    /// called by producers from inside Foundation's paths.
    func wake() {
        guard !signalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !launched.load(ordering: .acquiring) { launch() }
        semaphore.signal()
    }

    /// Stops the thread (if it ever started) and waits until it has left its loop.
    func stopAndWait() {
        condition.lock()
        stopping = true
        let thread = self.thread
        condition.unlock()
        guard thread != nil else { return }
        semaphore.signal()
        condition.lock()
        // The last reference to the monitor may be dropped by app code the hub runs on this very
        // thread (a repair reads app getters): then it stops after this turn without waiting.
        if thread !== Thread.current {
            while running { condition.wait() }
        }
        condition.unlock()
    }

    private func launch() {
        condition.lock()
        defer { condition.unlock() }
        guard !launched.load(ordering: .acquiring), !stopping else { return }
        running = true
        let thread = Thread { [self] in loop() }
        thread.name = "OpScope hub"
        self.thread = thread
        launched.store(true, ordering: .releasing)
        thread.start()
    }

    private func loop() {
        if let id = ThreadName.setCurrent("OpScope hub") { threadID.store(id, ordering: .releasing) }
        while true {
            semaphore.wait()
            signalled.store(false, ordering: .releasing)
            condition.lock()
            let stop = stopping
            condition.unlock()
            guard !stop, let core else { break }
            // Retained for the turn: the monitor waits in stopAndWait() before the core can go,
            // unless app code read during a repair drops the last reference on this thread.
            let retained = core.takeUnretainedValue()
            let before = threadCPUNanoseconds()
            retained.hub.service()
            retained.hub.foldOnPump()
            cpuNanoseconds.wrappingAdd(threadCPUNanoseconds() &- before, ordering: .relaxed)
            runs.wrappingAdd(1, ordering: .relaxed)
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
