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

/// Waits for a condition that another thread makes true, polling; returns whether it held.
///
/// The deadline only guards against a hang: it is far longer than anything a test waits for,
/// so no test passes or fails by how fast the machine is. What a test decides comes from the
/// events it waited for (gates, dependencies, the monitor's manual clock), not from this timeout.
@discardableResult
func waitUntil(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// A signal one thread gives and another waits for (an operation entering `main()`, say).
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func give() { semaphore.signal() }

    /// Waits for the signal; the deadline guards against a hang only.
    @discardableResult
    func wait(guard seconds: Double = 60) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// Opens once enough parties are inside at the same time, then stays open: proves that work
/// overlapped, without sleeping and hoping that it did.
final class Rendezvous: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var inside = 0
    private var open = false

    init(parties: Int) { self.parties = parties }

    /// Enters, waits (guarding against a hang only) until `parties` were inside at once, leaves.
    func meet() {
        condition.lock()
        inside += 1
        if inside >= parties {
            open = true
            condition.broadcast()
        }
        let deadline = Date().addingTimeInterval(60)
        while !open, condition.wait(until: deadline) {}
        // A hang guard that fired opens it for everyone: the test then fails on its outcome,
        // once, instead of every party waiting out its own deadline.
        open = true
        condition.broadcast()
        inside -= 1
        condition.unlock()
    }
}

extension OperationQueue {
    /// Waits (polling; the deadline guards against a hang only) until the queue is empty.
    ///
    /// Tests use this instead of `waitUntilAllOperationsAreFinished()` with the articles'
    /// recursive-lock operations: Foundation's wait holds an internal lock while it calls the
    /// operation's `isFinished`, and that operation holds its own lock while it notifies
    /// Foundation, so the two can deadlock (reproduced without OpScope).
    func settle(timeout: TimeInterval = 60) {
        waitUntil(timeout: timeout) { operationCount == 0 }
    }
}
