import DashboardModel
import Foundation
import OperationBridge
import OperationEvents

/// A real monitor whose events feed a model, for tests built from real queues.
final class LiveMonitor {
    let monitor = OperationMonitor()
    var model = DashboardModel()

    /// Applies everything the monitor has produced (sampling once first).
    func sync() {
        monitor.sampleNow()
        if model.apply(monitor.drainEvents()) { model.resync(from: monitor.snapshot()) }
        model.advance(to: monitor.now())
    }

    /// Syncs until `condition` holds on the model (or the timeout passes).
    @discardableResult
    func sync(until condition: (DashboardModel) -> Bool, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            sync()
            if condition(model) { return true }
            usleep(2_000)
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
