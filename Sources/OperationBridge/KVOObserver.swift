#if canImport(ObjectiveC)
import Foundation
import OperationEvents

/// Apple platforms: real key-value observation of a foreign operation's state keys.
///
/// Registered before the operation is enqueued (observing after enqueue can miss `isFinished`).
/// Not built or tested on Linux, where Foundation has no KVO for `Operation`; the Linux bridge
/// (sentinel + sampling) is what the test suite covers.
final class KVOObserver: NSObject, @unchecked Sendable {
    private var observations: [NSKeyValueObservation] = []

    /// Starts reporting `operation`'s `isExecuting`, `isFinished`, `isCancelled` and `isReady` changes.
    init(operation: Operation, id: OperationID, monitor: MonitorCore) {
        super.init()
        observations = [
            operation.observe(\.isExecuting, options: [.new]) { [weak monitor] _, change in
                if change.newValue == true { monitor?.emit(.started(operation: id)) }
            },
            operation.observe(\.isCancelled, options: [.new]) { [weak monitor] _, change in
                if change.newValue == true { monitor?.emit(.cancelled(operation: id)) }
            },
            operation.observe(\.isReady, options: [.new]) { [weak monitor] _, change in
                if let ready = change.newValue { monitor?.emit(.ready(operation: id, isReady: ready)) }
            },
            operation.observe(\.isFinished, options: [.new]) { [weak monitor] observed, change in
                guard change.newValue == true else { return }
                monitor?.operationFinished(id, cancelled: observed.isCancelled, source: .exact)
            },
        ]
    }

    /// Stops observing.
    func invalidate() {
        observations.forEach { $0.invalidate() }
        observations = []
    }
}
#endif
