import Foundation
import OperationBridge

/// A named synchronous demo operation that takes `seconds` (the subclasses differ in `main`).
class TimedOperation: ObservableOperation, @unchecked Sendable {
    let seconds: Double

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }
}

/// Work that takes a while on the calling thread (a synchronous operation's `main`).
final class BusyOperation: TimedOperation, @unchecked Sendable {
    override func main() {
        // Checks isCancelled while it works, as a well-behaved operation does.
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if isCancelled { return }
            Thread.sleep(forTimeInterval: min(0.02, max(0, end.timeIntervalSinceNow)))
        }
    }
}

/// The classic mistake: `main()` only starts the asynchronous work and returns, so the operation
/// finishes at once and its dependents run before the work is done.
final class FireAndForgetOperation: TimedOperation, @unchecked Sendable {
    override func main() {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {}
    }
}

/// Ignores `isCancelled`: keeps working for its whole duration after a cancel.
final class StubbornOperation: TimedOperation, @unchecked Sendable {
    override func main() {
        Thread.sleep(forTimeInterval: seconds)
    }
}

/// Asynchronous work done right: `execute()` starts it, `finish()` ends the operation when the
/// work ends (a network request stands in as a timer).
final class NetworkOperation: ObservableAsyncOperation, @unchecked Sendable {
    private let seconds: Double

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }

    override func execute() {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in finish() }
    }
}

/// An asynchronous operation whose work never calls `finish()`: its dependents wait forever.
final class NeverFinishingOperation: ObservableAsyncOperation, @unchecked Sendable {
    init(_ name: String) {
        super.init()
        self.name = name
    }

    override func execute() {}
}

/// The classic mistake of the KVO state protocol, in an asynchronous operation of the program's
/// own (not one of OpScope's base classes): when its work ends it sets its flags but sends no
/// `willChangeValue`/`didChangeValue(forKey: "isFinished")`. `isFinished` reads true, and the
/// queue is never told: it keeps the operation, and its slot, for good, and its dependents never
/// run. OpScope sees it by reading the keys (the warning "never sent didChangeValue").
final class ForgetfulOperation: Operation, @unchecked Sendable {
    // Safety: `executing` and `finished` are only touched under `lock`.
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private let seconds: Double

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            // The mistake: the flags change, and nobody is told.
            lock.withLock {
                executing = false
                finished = true
            }
        }
    }
}
