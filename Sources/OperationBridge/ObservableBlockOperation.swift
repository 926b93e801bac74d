import Foundation

/// A `BlockOperation` equivalent whose key changes are reported exactly.
///
/// `ObservedOperationQueue.addOperation(_ block:)` wraps blocks in this class, so block-based
/// code is observed exactly without any change.
public final class ObservableBlockOperation: ObservableOperation, @unchecked Sendable {
    private let block: @Sendable () -> Void
    /// Made by `ObservedOperationQueue.addOperation(_ block:)`: shown as `BlockOperation`.
    var createdByQueue = false

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
