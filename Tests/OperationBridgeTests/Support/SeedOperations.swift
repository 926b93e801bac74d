import Foundation
import OperationBridge
import Synchronization

// Operations written the way the classic articles teach; the bridge must observe them without
// any change to their code (they are "foreign": not OpScope base classes).

/// A synchronous subclass: overrides `main()` and checks `isCancelled` between steps.
final class UserSyncOperation: Operation, @unchecked Sendable {
    let work: @Sendable () -> Void
    let counter: DeinitCounter?

    init(counter: DeinitCounter? = nil, work: @escaping @Sendable () -> Void = {}) {
        self.work = work
        self.counter = counter
        super.init()
    }

    deinit { counter?.increment() }

    override func main() {
        guard !isCancelled else { return }
        work()
    }
}

/// A `BlockOperation` whose deinit is counted (still a plain BlockOperation to the bridge).
final class CountedBlockOperation: BlockOperation, @unchecked Sendable {
    let counter: DeinitCounter

    init(counter: DeinitCounter, block: @escaping @Sendable () -> Void) {
        self.counter = counter
        super.init()
        addExecutionBlock(block)
    }

    deinit { counter.increment() }
}

/// The "state enum" style: a `state` property whose observers send the KVO calls for both the
/// old and the new key (`isReady` -> `isExecuting` -> `isFinished`), work done asynchronously.
/// Readiness is combined with `super.isReady` so that dependencies still count.
final class StateEnumAsyncOperation: Operation, @unchecked Sendable {
    enum State: String {
        case ready, executing, finished
        var key: String { "is" + rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    private let lock = NSLock()
    private var _state = State.ready
    private let delay: TimeInterval
    private let work: @Sendable () -> Void
    let counter: DeinitCounter?

    init(delay: TimeInterval = 0.001, counter: DeinitCounter? = nil, work: @escaping @Sendable () -> Void = {}) {
        self.delay = delay
        self.counter = counter
        self.work = work
        super.init()
    }

    deinit { counter?.increment() }

    private var state: State {
        get { lock.lock(); defer { lock.unlock() }; return _state }
        set {
            let old = state
            willChangeValue(forKey: old.key)
            willChangeValue(forKey: newValue.key)
            lock.lock()
            _state = newValue
            lock.unlock()
            didChangeValue(forKey: old.key)
            didChangeValue(forKey: newValue.key)
        }
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state == .executing }
    override var isFinished: Bool { state == .finished }
    override var isReady: Bool { super.isReady && state == .ready }

    override func start() {
        if isCancelled {
            state = .finished
            return
        }
        state = .executing
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            if !self.isCancelled { self.work() }
            self.state = .finished
        }
    }
}

/// The "recursive lock" style: state struct guarded by an `NSRecursiveLock`, KVO calls made
/// inside the critical section (hence the recursive lock), `finish()` shared by all paths.
/// Unlike the article, `cancel()` does not finish an operation its queue has not started:
/// on swift-corelibs-foundation that corrupts the queue (see ObservableAsyncOperation).
final class RecursiveLockAsyncOperation: Operation, @unchecked Sendable {
    private struct State {
        var isExecuting = false
        var isFinished = false
    }

    private var state = State()
    private let lock = NSRecursiveLock()
    private let delay: TimeInterval
    private let work: @Sendable () -> Void
    let counter: DeinitCounter?

    init(delay: TimeInterval = 0.001, counter: DeinitCounter? = nil, work: @escaping @Sendable () -> Void = {}) {
        self.delay = delay
        self.counter = counter
        self.work = work
        super.init()
    }

    deinit { counter?.increment() }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.lock(); defer { lock.unlock() }; return state.isExecuting }
    override var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return state.isFinished }

    override func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !isCancelled else {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        state.isExecuting = true
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { self.run() }
    }

    private func run() {
        if !isCancelled { work() }
        lock.lock()
        defer { lock.unlock() }
        finish()
    }

    /// Must be called with the lock held.
    private func finish() {
        let shouldFinish = !state.isFinished
        let shouldStopExecuting = state.isExecuting
        if shouldFinish { willChangeValue(forKey: "isFinished") }
        if shouldStopExecuting { willChangeValue(forKey: "isExecuting") }
        state.isFinished = true
        state.isExecuting = false
        if shouldStopExecuting { didChangeValue(forKey: "isExecuting") }
        if shouldFinish { didChangeValue(forKey: "isFinished") }
    }
}

/// An OpScope asynchronous operation doing the same work.
final class TimedAsyncOperation: ObservableAsyncOperation, @unchecked Sendable {
    private let delay: TimeInterval
    private let work: @Sendable () -> Void
    let counter: DeinitCounter?

    init(delay: TimeInterval = 0.001, counter: DeinitCounter? = nil, work: @escaping @Sendable () -> Void = {}) {
        self.delay = delay
        self.counter = counter
        self.work = work
        super.init()
    }

    deinit { counter?.increment() }

    override func execute() {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            if !self.isCancelled { self.work() }
            self.finish()
        }
    }
}

/// An OpScope synchronous operation.
final class CountedObservableOperation: ObservableOperation, @unchecked Sendable {
    private let work: @Sendable () -> Void
    let counter: DeinitCounter?

    init(counter: DeinitCounter? = nil, work: @escaping @Sendable () -> Void = {}) {
        self.counter = counter
        self.work = work
        super.init()
    }

    deinit { counter?.increment() }

    override func main() {
        guard !isCancelled else { return }
        work()
    }
}

/// The seeds' classic bug: the state flips to finished but `didChangeValue(forKey: "isFinished")`
/// is never sent, so the queue keeps the operation forever and its dependents never run.
///
/// The flip happens at a known event, not after a delay: when `start()` returns, Foundation's
/// queue reads `isFinished` once on the same thread and, if it is already true, finishes the
/// operation itself (`OperationQueue._schedule(_:)`), which would hide the bug. So the state
/// flips just after that read has answered false (a timer raced with it and lost under a
/// sanitizer's slowdown).
final class ForgetfulAsyncOperation: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    /// The thread that ran `start()`, until the queue's read after `start()` returned.
    private var startThread: pthread_t?

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.lock(); defer { lock.unlock() }; return executing }
    override var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        let answer = finished
        if let thread = startThread, pthread_equal(thread, pthread_self()) != 0 {
            // The queue's look after `start()`: it saw "not finished"; now finish, silently.
            startThread = nil
            executing = false
            finished = true         // ...and no didChangeValue(forKey: "isFinished")
        }
        return answer
    }

    override func start() {
        lock.lock()
        executing = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        lock.lock()
        startThread = pthread_self()
        lock.unlock()
    }

    /// Sends the missing notification so a test can let the queue drain.
    func repair() {
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
