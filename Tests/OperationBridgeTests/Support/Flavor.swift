import Foundation
import OperationBridge

/// Every kind of operation the bridge must report accurately.
enum Flavor: String, CaseIterable, CustomStringConvertible, Sendable {
    case blockOperation, userSync, stateEnumAsync, recursiveLockAsync
    case observableSync, observableAsync, queueBlock

    var description: String { rawValue }

    /// Instrumented flavors report every key change themselves.
    var isInstrumented: Bool { [.observableSync, .observableAsync].contains(self) }

    /// The start is reported exactly: by an instrumented operation, or by the block an observed
    /// queue wraps (a plain `BlockOperation`, hooked); other hooked ones sample or infer it.
    var startIsExact: Bool { isInstrumented || self == .queueBlock }

    /// Makes one operation; `queueBlock` returns nil and adds the block itself.
    func add(to queue: ObservedOperationQueue, counter: DeinitCounter, dependencies: [Operation],
             work: @escaping @Sendable () -> Void) -> Operation? {
        let operation: Operation
        switch self {
        case .blockOperation: operation = CountedBlockOperation(counter: counter, block: work)
        case .userSync: operation = UserSyncOperation(counter: counter, work: work)
        case .stateEnumAsync: operation = StateEnumAsyncOperation(delay: 0.0005, counter: counter, work: work)
        case .recursiveLockAsync: operation = RecursiveLockAsyncOperation(delay: 0.0005, counter: counter, work: work)
        case .observableSync: operation = CountedObservableOperation(counter: counter, work: work)
        case .observableAsync: operation = TimedAsyncOperation(delay: 0.0005, counter: counter, work: work)
        case .queueBlock:
            let token = ReleaseToken(counter)
            queue.addOperation { token.touch(); work() }
            return nil
        }
        for dependency in dependencies { operation.addDependency(dependency) }
        queue.addOperation(operation)
        return operation
    }
}

/// Captured by a block so that releasing the block (and its operation) is counted.
final class ReleaseToken: Sendable {
    let counter: DeinitCounter
    init(_ counter: DeinitCounter) { self.counter = counter }
    deinit { counter.increment() }
    func touch() {}
}
