import Foundation

/// A block operation whose key changes are reported exactly: create one where you would create
/// a `BlockOperation` and want its start seen exactly too. (`ObservedOperationQueue.addOperation(_ block:)`
/// keeps Foundation's `BlockOperation`, hooked: the program's types never change.)
public final class ObservableBlockOperation: ObservableOperation, @unchecked Sendable {
    private let block: @Sendable () -> Void

    /// Creates an operation that runs `block`.
    public init(block: @escaping @Sendable () -> Void) {
        self.block = block
        super.init()
    }

    /// Runs the block. (Foundation does not call `main()` for an operation cancelled before it started.)
    public override func main() {
        block()
    }
}
