import Foundation
import OperationEvents
import Synchronization

/// An asynchronous operation with a correct, thread-safe, `final` state machine: the pattern
/// the classic articles teach, done once so subclasses cannot get it wrong.
///
/// Override `execute()`, start your asynchronous work there, and call `finish()` when it ends
/// (from any thread, any number of times: only the first call counts). Check `isCancelled` in
/// your work and finish early. The operation is finished only when `finish()` is called, so a
/// serial queue runs one such operation at a time and dependents wait for the real end.
///
/// Cancellation before start: the operation finishes without calling `execute()` as soon as its
/// queue starts it, which Foundation does immediately when a slot is free. It does not finish
/// inside `cancel()`: on swift-corelibs-foundation, finishing an operation its queue has not
/// started leaves an unretained pointer to it in the queue's priority list, which crashes the
/// queue once the operation is released.
open class ObservableAsyncOperation: ObservableOperation, @unchecked Sendable {
    private enum Phase: UInt8 {
        case pending, executing, finished
    }

    private let phase = Atomic<UInt8>(Phase.pending.rawValue)

    /// Creates an operation.
    public override init() {
        super.init()
    }

    /// Always true.
    public final override var isAsynchronous: Bool { true }

    /// True between `start()` and `finish()`.
    public final override var isExecuting: Bool {
        let executing = phase.load(ordering: .acquiring) == Phase.executing.rawValue
        if executing { noteStarted() }
        return executing
    }

    /// True once `finish()` was called (or the operation was started after being cancelled).
    public final override var isFinished: Bool {
        let finished = phase.load(ordering: .acquiring) == Phase.finished.rawValue
        if finished { noteFinished() }
        return finished
    }

    /// Moves to executing and calls `execute()`; a cancelled operation finishes at once instead.
    /// Starting an operation twice does nothing the second time.
    public final override func start() {
        if isCancelled {
            if transition(from: .pending, to: .finished) {
                willChangeValue(forKey: "isFinished")
                didChangeValue(forKey: "isFinished")
            }
            return
        }
        guard transition(from: .pending, to: .executing) else { return }
        willChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isExecuting")
        execute()
    }

    /// Not used: asynchronous work belongs in `execute()`.
    public final override func main() {}

    /// Starts the asynchronous work. The default finishes at once; overrides must call `finish()`
    /// when the work ends, and need not call `super`.
    open func execute() {
        finish()
    }

    /// Marks the operation finished and notifies its queue (`isExecuting` and `isFinished`).
    /// Safe from any thread; only the first call while executing has an effect.
    public final func finish() {
        guard transition(from: .executing, to: .finished) else { return }
        // Order of the old and new keys as Apple documents it; on Linux only the did-calls matter.
        willChangeValue(forKey: "isFinished")
        willChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }

    private func transition(from old: Phase, to new: Phase) -> Bool {
        phase.compareExchange(expected: old.rawValue, desired: new.rawValue, ordering: .acquiringAndReleasing).exchanged
    }
}
