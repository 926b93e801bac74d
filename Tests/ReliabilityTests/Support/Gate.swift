import Foundation
import Testing

/// A gate operations wait at until the test opens it: the test decides when work ends, by an
/// event, never by sleeping. Once open it stays open.
final class Gate: @unchecked Sendable {
    // Safety: `isOpen` is guarded by `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    /// Waits until the gate opens. The bound only ends a hang (a gate never opened is a failed
    /// test, reported, and the work goes on so that the process can end).
    func pass(within seconds: Double = 120) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while !isOpen {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// Lets every waiter through, now and later.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Counts occurrences (an operation started, a block ran) and lets the test wait for a number.
final class Occurrences: @unchecked Sendable {
    // Safety: `count` is guarded by `condition`.
    private let condition = NSCondition()
    private var count = 0

    /// One more.
    func note() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// How many so far.
    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Waits until at least `target` were noted; records an issue naming `what` if they never are.
    @discardableResult
    func wait(for target: Int, _ what: String, within seconds: Double = 120,
              sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while count < target {
            if !condition.wait(until: deadline) {
                Issue.record("waited in vain for \(what): \(count) of \(target)", sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }
}
