import DashboardModel
import OperationEvents

extension GraphRoot {
    /// The root `record` is, if any. `queues` is `QueueFlags(model)`, made once per frame.
    package static func of(_ record: borrowing OperationRecord, in model: DashboardModel, queues: QueueFlags) -> GraphRoot? {
        of(Facts(record), in: model, queues: queues, waitsOnUnfinished: false) { model.operations.read($0.id) { $0.dependencies } ?? [] }
    }

    /// The model's rule (`of(_:in:waitsOnUnfinished:queueState:dependencies:)`) with the queue
    /// flags a frame reads once, instead of a queue record per operation.
    package static func of(_ facts: Facts, in model: DashboardModel, queues: QueueFlags, waitsOnUnfinished: Bool,
                           dependencies: (Facts) -> [OperationID]) -> GraphRoot? {
        of(facts, in: model, waitsOnUnfinished: waitsOnUnfinished,
           queueState: { queues.flags($0).map { (suspended: $0.suspended, released: $0.released) } }, dependencies: dependencies)
    }
}
