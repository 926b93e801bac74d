import Foundation

/// An asynchronous operation written by hand, the way apps write them, with switches for the
/// mistakes they make. Foundation on Linux learns of its state only from the
/// `didChangeValue(forKey:)` calls it makes; the monitor hooks it as a foreign operation.
final class HandRolledAsync: Operation, @unchecked Sendable {
    /// What it gets wrong.
    struct Faults: OptionSet, Sendable {
        let rawValue: Int
        /// Posts `isFinished` twice for one finish.
        static let postsFinishedTwice = Faults(rawValue: 1)
        /// `start()` marks it finished at once and posts only `isFinished`: it never executes.
        static let finishesWithoutExecuting = Faults(rawValue: 2)
    }

    // Safety: `executing` and `finished` are guarded by `lock`.
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private let lives: Lives
    private let faults: Faults
    private let work: @Sendable (HandRolledAsync) -> Void

    init(_ name: String, _ lives: Lives, faults: Faults = [], work: @escaping @Sendable (HandRolledAsync) -> Void = { $0.finish() }) {
        self.lives = lives
        self.faults = faults
        self.work = work
        super.init()
        self.name = name
        lives.born()
    }

    deinit { lives.died() }

    override var isAsynchronous: Bool { true }

    override var isExecuting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return executing
    }

    override var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    override func start() {
        if faults.contains(.finishesWithoutExecuting) || isCancelled {
            lock.lock()
            finished = true
            lock.unlock()
            didChangeValue(forKey: "isFinished")
            return
        }
        lock.lock()
        executing = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        work(self)
    }

    /// Ends the work (from any thread). Called twice, it posts twice: a hand-written operation
    /// rarely guards against that.
    func finish() {
        lock.lock()
        executing = false
        finished = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
        if faults.contains(.postsFinishedTwice) { didChangeValue(forKey: "isFinished") }
    }

    /// Marks it finished and tells Foundation, whatever state it is in (the mistake of an
    /// operation that gives up on a timer while its queue has not started it).
    func forceFinished() {
        lock.lock()
        finished = true
        lock.unlock()
        didChangeValue(forKey: "isFinished")
    }
}
