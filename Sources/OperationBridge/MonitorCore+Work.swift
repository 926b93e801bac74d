import Foundation
import OperationEvents

extension MonitorCore {
    /// Makes operations from a template and adds them. Everything is checked before anything is
    /// made, so a refused request leaves the program untouched.
    func addWork(_ request: WorkRequest) throws -> CommandReceipt {
        guard let template = catalog.template(named: request.template) else {
            let known = catalog.names
            let hint = known.isEmpty ? "no templates are registered" : "known: \(known.joined(separator: ", "))"
            throw CommandError(.unknownTemplate, "no work template named '\(request.template)' (\(hint))")
        }
        guard (1...WorkRequest.maximumCount).contains(request.count) else {
            throw CommandError(.invalidArgument, "count must be between 1 and \(WorkRequest.maximumCount); got \(request.count)")
        }
        if request.priority == .barrier {
            throw CommandError(.invalidArgument, "priority must be veryLow, low, normal, high or veryHigh")
        }
        let queue: OperationQueue
        let queueID: QueueID
        if let id = request.queue {
            queue = try locateQueue(id).queue
            queueID = id
        } else {
            guard let own = template.queue else {
                throw CommandError(.queueGone, "the queue of template '\(template.name)' was released")
            }
            queue = own
            queueID = self.queueID(of: own) ?? track(own)
        }
        let dependencies = try locate(request.dependencies)
        if let barrier = dependencies.first(where: { $0.operation == nil }) {
            throw CommandError(.invalidArgument, "\(barrier.id) is a barrier block; operations cannot depend on it")
        }

        var operations: [Operation] = []
        for index in 0..<request.count {
            let operation = template.make(index)
            guard !operation.isExecuting, !operation.isFinished else {
                throw CommandError(.invalidArgument, "template '\(template.name)' made an operation that already ran")
            }
            if let name = request.name {
                operation.name = request.count == 1 ? name : "\(name) \(index + 1)"
            }
            if let qos = request.qualityOfService { operation.qualityOfService = qos.foundation }
            if let priority = request.priority?.foundation { operation.queuePriority = priority }
            for dependency in dependencies {
                if let other = dependency.operation { operation.addDependency(other) }
            }
            operations.append(operation)
        }
        let ids: [OperationID]
        if let observed = queue as? ObservedOperationQueue, observed.core === self {
            ids = observed.addOperationsReportingIDs(operations)
        } else {
            // A tracked queue reports nothing itself: register first, so no change is missed.
            ids = operations.map { registerSampled($0, queue: queueID) }
            queue.addOperations(operations, waitUntilFinished: false)
        }
        let what = request.count == 1 ? template.name : "\(request.count) × \(template.name)"
        return CommandReceipt(
            message: "added \(what) to \(queueID): \(ids.map(\.description).joined(separator: " "))", operations: ids)
    }
}
