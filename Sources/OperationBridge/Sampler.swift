import Foundation

/// The thread that polls what cannot be hooked, every `interval`.
///
/// Started only when there is something to sample (a tracked queue, a foreign operation, a
/// dependency in no observed queue), so a monitor of instrumented work never wakes up.
/// Holds the monitor weakly and stops when the monitor goes away.
final class Sampler: @unchecked Sendable {
    // Safety: `running` and `stopping` are guarded by `condition`; `monitor` is set once in
    // the monitor's init, before the sampler is shared.
    weak var monitor: OperationMonitor?
    private let interval: TimeInterval
    private let condition = NSCondition()
    private var running = false
    private var stopping = false

    init(interval: Duration) {
        let components = interval.components
        self.interval = max(0.001, Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    /// Starts the thread if it is not running.
    func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !running, !stopping else { return }
        running = true
        let thread = Thread { [self] in loop() }
        thread.name = "OpScope sampler"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Stops the thread at its next wake-up (immediately if it is waiting).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running && !stopping
    }

    private func loop() {
        while true {
            condition.lock()
            if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            let stop = stopping
            condition.unlock()
            guard !stop, let monitor else { break }
            monitor.sampleNow()
        }
        condition.lock()
        running = false
        condition.unlock()
    }
}
