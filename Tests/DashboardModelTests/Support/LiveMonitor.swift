import DashboardModel
import Foundation
import OperationBridge
import OperationEvents
import OpScopeTestSupport

/// A real monitor whose events feed a model, for tests built from real queues.
///
/// Its clock is manual: each reading moves it on by one microsecond, so event times keep their
/// order but no wall-clock interval can pass between two events. A verdict that depends on time
/// (a grace period, a threshold) depends on what the test does, never on how busy the machine is.
final class LiveMonitor {
    let clock = ManualClock(step: 1_000)
    let monitor: OperationMonitor
    var model = DashboardModel()

    /// `samplingInterval` is also how far apart, by this clock, a tracked queue's walks are:
    /// tests of tracked queues shorten it, as every reading moves the clock by only 1 µs.
    init(samplingInterval: Duration = .milliseconds(50)) {
        var configuration = OperationMonitor.Configuration()
        configuration.samplingInterval = samplingInterval
        let clock = self.clock
        configuration.clock = MonitorClock { clock.read() }
        monitor = OperationMonitor(configuration: configuration)
    }

    /// Applies everything the monitor has produced (sampling once first).
    func sync() {
        monitor.sampleNow()
        if model.apply(monitor.drainEvents()) { model.resync(from: monitor.snapshot()) }
        model.advance(to: monitor.now())
    }

    /// Syncs until `condition` holds on the model: the verdict comes from the events. The
    /// deadline only ends a hang (a condition that can never hold), far beyond any slow machine.
    @discardableResult
    func sync(until condition: (DashboardModel) -> Bool, hangGuard: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(hangGuard)
        repeat {
            sync()
            if condition(model) { return true }
            // Let the queues' threads run; the next read sees what they did.
            usleep(1_000)
        } while Date() < deadline
        return false
    }
}

/// A thread-safe list (execution order).
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

/// An asynchronous operation that finishes only when told to (or never).
final class HeldOperation: ObservableAsyncOperation, @unchecked Sendable {
    override func execute() {}
}
