import Foundation
import OperationBridge

/// The two kinds of queue every conformance scenario runs on.
enum QueueKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case plain
    case observed

    var description: String { rawValue }

    /// A new queue of this kind (observed ones share `monitor`).
    func make(_ monitor: OperationMonitor, name: String = "test", maxConcurrent: Int? = nil) -> OperationQueue {
        let queue: OperationQueue
        switch self {
        case .plain:
            queue = OperationQueue()
            queue.name = name
        case .observed:
            queue = ObservedOperationQueue(monitor: monitor, name: name)
        }
        if let maxConcurrent { queue.maxConcurrentOperationCount = maxConcurrent }
        return queue
    }
}
