import Foundation

/// A procedure whose work is a block given a `finish` to call, at once or later.
public final class BlockProcedure: Procedure, @unchecked Sendable {
    private let work: @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void

    public init(name: String, _ work: @escaping @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void) {
        self.work = work
        super.init()
        self.name = name
    }

    public override func execute() {
        work { [weak self] in self?.finish() }
    }
}

/// A plain synchronous operation whose `main()` waits for `release()`: to the program it never
/// returns. Not a procedure; its queue accepts any `Operation`.
public final class BlockingOperation: Operation, @unchecked Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    public init(name: String) {
        super.init()
        self.name = name
    }

    public override func main() {
        entered.signal()
        released.wait()
    }

    /// Waits until `main()` runs (a guard of 60 s against a hang only).
    @discardableResult
    public func waitUntilEntered() -> Bool { entered.wait(timeout: .now() + 60) == .success }

    /// Lets `main()` return.
    public func release() { released.signal() }
}
