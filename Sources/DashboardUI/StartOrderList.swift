import DashboardModel
import OperationEvents

/// Every queue's start order in one list (view 3): what runs, what starts next and in which
/// order (the model's `startOrder`, Foundation's own rule), what a suspended queue holds, and
/// what still waits on dependencies.
public enum StartOrderList {
    /// A line of the list.
    public enum Row: Sendable, Equatable {
        /// A queue's heading.
        case queue(QueueID)
        /// An operation and its place.
        case operation(OperationID, Role)
        /// The heading of operations in no queue.
        case noQueue
    }

    /// Where an operation stands in its queue.
    public enum Role: Sendable, Equatable {
        /// Running.
        case executing
        /// Ready: this many-th to start (1 first).
        case next(Int)
        /// Ready, but its queue is suspended: this many-th once it resumes.
        case held(Int)
        /// Waiting on dependencies (not ready yet).
        case waiting
    }

    /// The rows, queue by queue in id order.
    public static func build(_ model: DashboardModel) -> [Row] {
        var executing: [QueueID?: [(UInt64, OperationID)]] = [:]
        var waiting: [QueueID?: [(UInt64, OperationID)]] = [:]
        model.operations.forEach { record in
            switch record.pointee.state {
            case .executing: executing[record.pointee.queue, default: []].append((record.pointee.startedAt ?? 0, record.pointee.id))
            case .pending: waiting[record.pointee.queue, default: []].append((record.pointee.enqueueOrder, record.pointee.id))
            case .ready where record.pointee.queue == nil:
                waiting[nil, default: []].append((record.pointee.enqueueOrder, record.pointee.id))
            case .ready, .finished: break
            }
        }
        var rows: [Row] = []
        for queue in model.queues.ids.sorted() {
            rows.append(.queue(queue))
            for (_, id) in (executing[queue] ?? []).sorted(by: <) { rows.append(.operation(id, .executing)) }
            let held = model.queues[queue]?.isSuspended ?? false
            for (index, id) in model.startOrder(of: queue).enumerated() {
                rows.append(.operation(id, held ? .held(index + 1) : .next(index + 1)))
            }
            for (_, id) in (waiting[queue] ?? []).sorted(by: <) { rows.append(.operation(id, .waiting)) }
        }
        let orphans = (executing[nil] ?? []).map(\.1) + (waiting[nil] ?? []).sorted(by: <).map(\.1)
        if !orphans.isEmpty {
            rows.append(.noQueue)
            for id in orphans { rows.append(.operation(id, model.operations[id]?.state == .executing ? .executing : .waiting)) }
        }
        return rows
    }
}
