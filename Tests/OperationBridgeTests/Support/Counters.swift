import Foundation
import Synchronization

/// Counts deinits per test, so a test can prove that operations were released.
final class DeinitCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.wrappingAdd(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}

/// A thread-safe list of values recorded by operations (execution order, etc.).
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

/// Tracks how many operations run at once.
final class ConcurrencyGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var peak = 0

    func enter() {
        lock.lock()
        current += 1
        peak = max(peak, current)
        lock.unlock()
    }

    func leave() {
        lock.lock()
        current -= 1
        lock.unlock()
    }

    var maximum: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
@discardableResult
func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

extension OperationQueue {
    /// Waits (polling, up to `timeout`) until the queue is empty.
    ///
    /// Tests use this instead of `waitUntilAllOperationsAreFinished()` with the articles'
    /// recursive-lock operations: Foundation's wait holds an internal lock while it calls the
    /// operation's `isFinished`, and that operation holds its own lock while it notifies
    /// Foundation, so the two can deadlock (reproduced without OpScope).
    func settle(timeout: TimeInterval = 30) {
        waitUntil(timeout: timeout) { operationCount == 0 }
    }
}
