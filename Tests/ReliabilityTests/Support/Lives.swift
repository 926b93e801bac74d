import Foundation
import OperationBridge
import Testing

/// Counts the operations a test creates and those deinitialised, so that "every operation was
/// released" is a fact the test waits for (each deinit is an event), not a guess.
final class Lives: @unchecked Sendable {
    // Safety: the counts are guarded by `condition`.
    private let condition = NSCondition()
    private var created = 0
    private var released = 0

    func born() {
        condition.lock()
        created += 1
        condition.unlock()
    }

    func died() {
        condition.lock()
        released += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Created and not yet released.
    var alive: Int {
        condition.lock()
        defer { condition.unlock() }
        return created - released
    }

    var counts: (created: Int, released: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (created, released)
    }

    /// Waits until every operation created so far was released; records an issue if some never are.
    @discardableResult
    func expectAllReleased(within seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while released < created {
            if !condition.wait(until: deadline) {
                Issue.record("\(created - released) of \(created) operations never released", sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }
}

/// A synchronous, instrumented operation that counts its life and runs `body`.
final class CountedBlock: ObservableOperation, @unchecked Sendable {
    private let lives: Lives
    private let body: @Sendable (CountedBlock) -> Void

    init(_ name: String, _ lives: Lives, body: @escaping @Sendable (CountedBlock) -> Void = { _ in }) {
        self.lives = lives
        self.body = body
        super.init()
        self.name = name
        lives.born()
    }

    deinit { lives.died() }

    override func main() { body(self) }
}

/// An operation the monitor did not make (a plain `Operation` subclass: hooked, not
/// instrumented) that counts its life and runs `body`; `readyOverride` replaces Foundation's
/// readiness when set.
final class CountedForeign: Operation, @unchecked Sendable {
    private let lives: Lives
    private let body: @Sendable (CountedForeign) -> Void
    private let readyOverride: Bool?

    init(_ name: String, _ lives: Lives, ready: Bool? = nil, body: @escaping @Sendable (CountedForeign) -> Void = { _ in }) {
        self.lives = lives
        self.body = body
        readyOverride = ready
        super.init()
        self.name = name
        lives.born()
    }

    deinit { lives.died() }

    override var isReady: Bool { readyOverride ?? super.isReady }

    override func main() { body(self) }
}

/// An asynchronous, instrumented operation (OpScope's own state machine) that counts its life;
/// `work` starts the work and must see to it that `finish()` is called.
final class CountedAsync: ObservableAsyncOperation, @unchecked Sendable {
    private let lives: Lives
    private let work: @Sendable (CountedAsync) -> Void

    init(_ name: String, _ lives: Lives, work: @escaping @Sendable (CountedAsync) -> Void) {
        self.lives = lives
        self.work = work
        super.init()
        self.name = name
        lives.born()
    }

    deinit { lives.died() }

    override func execute() { work(self) }
}

/// An observed queue that counts its life in `lives`: a test that must keep operations until
/// Foundation's queue is gone waits for this deinit, which comes only after the queue's last
/// operation has finished and let go of it.
final class CountedQueue: ObservedOperationQueue, @unchecked Sendable {
    private let lives: Lives

    init(monitor: OperationMonitor, name: String, maxConcurrentOperationCount: Int = OperationQueue.defaultMaxConcurrentOperationCount,
         lives: Lives) {
        self.lives = lives
        super.init(monitor: monitor, name: name, maxConcurrentOperationCount: maxConcurrentOperationCount)
        lives.born()
    }

    deinit { lives.died() }
}
