import Foundation
import OpScope
import Synchronization
import OpScopeTestSupport

extension OperationMonitor {
    /// A monitor on `clock` (make it `ManualClock(step: 1_000)`: each reading a microsecond on, so events keep their order) that samples when the program says (`sampleNow()`).
    static func onTestClock(_ clock: ManualClock, configure: (inout Configuration) -> Void = { _ in }) -> OperationMonitor {
        var configuration = Configuration()
        configuration.clock = clock.monitorClock
        configuration.samplesAutomatically = false
        configure(&configuration)
        return OperationMonitor(configuration: configuration)
    }
}

/// A signal one thread gives and another waits for; the wait's deadline guards against a hang only.
/// It is longer than any suite's time limit: on a loaded machine a gate that opened by itself let
/// work finish that a test still expected to be running, where the time limit names the hang.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    @discardableResult
    func wait(guard seconds: Double = 600) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// An asynchronous operation written as the classic articles teach: executing and finished
/// flags behind a lock, with the notifications Foundation reads. `finishes: false` never ends
/// (it waits for an event that never comes); `notifies: false` sets its finished flag but
/// forgets to tell the queue, which then keeps it forever.
///
/// The one that forgets ends at a known event, not on another thread at some moment: when
/// `start()` returns, Foundation's queue reads `isFinished` once on the same thread and, if it
/// is already true, finishes the operation itself (`OperationQueue._schedule(_:)`), which would
/// hide the bug. So its flag flips just after that read has answered false.
final class ArticleAsyncOperation: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private let finishes: Bool
    private let notifies: Bool
    /// The thread that ran `start()` of one that forgets, until the queue's read after it.
    private var startThread: pthread_t?
    /// Opened when the work has started (and, for one that finishes, when it set its flag).
    let started = Gate()
    let ended = Gate()

    init(name: String, finishes: Bool, notifies: Bool) {
        self.finishes = finishes
        self.notifies = notifies
        super.init()
        self.name = name
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool {
        let (answer, endsNow) = lock.withLock { () -> (Bool, Bool) in
            guard let thread = startThread, pthread_equal(thread, pthread_self()) != 0 else { return (finished, false) }
            startThread = nil
            return (finished, true)
        }
        // The queue's look after `start()` saw "not finished": the work ends now, untold.
        if endsNow { finish() }
        return answer
    }

    override func start() {
        guard !isCancelled else { return finish() }
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        started.open()
        guard finishes else { return }
        if notifies {
            DispatchQueue.global().async { self.finish() }
        } else {
            lock.withLock { startThread = pthread_self() }
        }
    }

    /// Ends the work; with `notifies: false` the queue is not told (the bug).
    func finish() {
        if notifies { willChangeValue(forKey: "isExecuting"); willChangeValue(forKey: "isFinished") }
        lock.withLock {
            executing = false
            finished = true
        }
        if notifies { didChangeValue(forKey: "isExecuting"); didChangeValue(forKey: "isFinished") }
        ended.open()
    }

    /// After the test: tells the queue, so that it lets the operation go.
    func notifyAtLast() {
        willChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isFinished")
    }
}
