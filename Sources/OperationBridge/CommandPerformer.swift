import Foundation
import OperationEvents

/// Carries out the commands a dashboard sends (`OperationMonitor.perform(_:)`): cancel, cancel
/// all, suspend and resume, the concurrency limit, new work. Each does exactly what it names,
/// through the program's own objects' own methods; everything is checked before anything is
/// changed, so a refused command leaves the program untouched.
///
/// Made for each command: it holds nothing but the core it acts through.
struct CommandPerformer {
    let core: MonitorCore

    /// See `OperationMonitor.perform(_:)`.
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        do {
            switch command {
            case .cancel(let ids): return .success(try cancel(ids))
            case .cancelAll(let queue): return .success(try cancelAll(queue))
            case .setSuspended(let queue, let suspended): return .success(try setSuspended(queue, suspended))
            case .setMaxConcurrency(let queue, let count): return .success(try setMaxConcurrency(queue, count))
            case .addWork(let request): return .success(try addWork(request))
            }
        } catch let error as CommandError {
            return .failure(error)
        } catch {
            return .failure(CommandError(.invalidArgument, String(describing: error)))
        }
    }

    // MARK: Operations

    private func cancel(_ ids: [OperationID]) throws -> CommandReceipt {
        guard !ids.isEmpty else { throw CommandError(.invalidArgument, "no operation to cancel") }
        let targets = try locate(ids)
        if let barrier = targets.first(where: { $0.operation == nil }) {
            throw CommandError(.unsupported, "\(barrier.id) is a barrier block; only cancel-all of its queue cancels it")
        }
        for target in targets {
            guard let operation = target.operation else { continue }
            // Operations whose finish no hook sees are held from here (see `CancelledShield`);
            // hooked and instrumented ones are held at their finish, still alive then.
            if case .sampled = target.kind { CancelledShield.protect(operation, dependencies: operation.dependencies) }
            operation.cancel()
        }
        var hooked: [SamplingWindow.Entry] = []
        var sampled: [OperationID] = []
        for target in targets where target.operation?.isCancelled == true {
            switch target.kind {
            case .hooked(let entry): hooked.append(entry)
            case .sampled: sampled.append(target.id)
            case .instrumented, .barrier: break // instrumented operations report their own cancel
            }
        }
        core.foreignCancelled(hooked, source: .exact)
        if !sampled.isEmpty {
            core.withRegistry { registry in
                for entry in registry.objects.sampledEntries where sampled.contains(entry.id) && !entry.keys.isCancelled {
                    entry.keys.isCancelled = true
                    core.emit(.cancelled(operation: entry.id))
                }
            }
        }
        let names = targets.map(\.id.description).joined(separator: " ")
        // Cancelling does not finish an operation no queue holds: only the app can start it.
        let unqueued = targets.filter { $0.queue == nil }.map(\.id.description)
        let note = unqueued.isEmpty ? ""
            : "; \(unqueued.joined(separator: " ")) \(unqueued.count == 1 ? "is" : "are") not in any queue: only the app can start "
                + (unqueued.count == 1 ? "it" : "them")
        return CommandReceipt(message: "cancelled \(names)\(note)", operations: targets.map(\.id))
    }

    /// Finds operations by id, by walking the observed queues (commands are rare; the walk is
    /// Foundation's O(n) `operations`). Throws, naming the first id that is unknown or gone.
    func locate(_ requested: [OperationID]) throws -> [LocatedOperation] {
        var wanted = Set(requested)
        var found: [OperationID: LocatedOperation] = [:]
        // Hooked operations live in observed queues and in those whose adds the program reports.
        // Only those queues are loaded, and every one loaded is kept past the lock: one dropped
        // under it could be released there for the last time (its deinit takes the lock).
        let queues = core.withRegistry { registry in
            registry.queues.values.compactMap { entry in
                entry.observation == .sampled ? nil : entry.queue.map { ($0, entry.id) }
            }
        }
        for (queue, queueID) in queues where !wanted.isEmpty {
            if let observed = queue as? ObservedOperationQueue {
                for barrier in observed.pendingBarriers() where wanted.remove(barrier.id) != nil {
                    found[barrier.id] = LocatedOperation(id: barrier.id, operation: nil, queue: queueID, kind: .barrier)
                }
            }
            let members = queue.operations
            core.withRegistry { registry in
                for member in members where !wanted.isEmpty {
                    if let instrumented = member as? ObservableOperation {
                        if let id = instrumented.monitorID, wanted.remove(id) != nil {
                            found[id] = LocatedOperation(id: id, operation: member, queue: queueID, kind: .instrumented)
                        }
                    } else if let sentinel = registry.objects[hooked: ObjectIdentifier(member)], wanted.remove(sentinel.id) != nil {
                        let entry = SamplingWindow.Entry(
                            sentinel: sentinel, generation: sentinel.registryGeneration, object: ObjectIdentifier(member),
                            target: Unmanaged.passUnretained(member), id: sentinel.id)
                        found[sentinel.id] = LocatedOperation(id: sentinel.id, operation: member, queue: queueID, kind: .hooked(entry))
                    }
                }
            }
        }
        if !wanted.isEmpty {
            // Instrumented operations first seen as a dependency and never added to a queue.
            let detached = core.withRegistry { registry in registry.detachedInstrumented.compactMap(\.operation) }
            for operation in detached {
                guard let id = (operation as? ObservableOperation)?.monitorID, wanted.remove(id) != nil else { continue }
                found[id] = LocatedOperation(id: id, operation: operation, queue: nil, kind: .instrumented)
            }
        }
        if !wanted.isEmpty {
            let sampled: [(OperationID, QueueID?, Operation)] = core.withRegistry { registry in
                registry.objects.sampledEntries.compactMap { entry in
                    guard wanted.contains(entry.id), let operation = entry.operation else { return nil }
                    return (entry.id, entry.queue, operation)
                }
            }
            for (id, queue, operation) in sampled {
                wanted.remove(id)
                found[id] = LocatedOperation(id: id, operation: operation, queue: queue, kind: .sampled)
            }
        }
        var result: [LocatedOperation] = []
        var seen = Set<OperationID>()
        for id in requested where seen.insert(id).inserted {
            guard let located = found[id] else {
                throw core.wasAllocated(id)
                    ? CommandError(.operationGone, "\(id) has finished or was released")
                    : CommandError(.unknownOperation, "there is no operation \(id)")
            }
            if let operation = located.operation, operation.isFinished {
                throw CommandError(.operationGone, "\(id) has already finished")
            }
            result.append(located)
        }
        return result
    }

    /// Makes operations from a template and adds them. Everything is checked before anything is
    /// made, so a refused request leaves the program untouched.
    private func addWork(_ request: WorkRequest) throws -> CommandReceipt {
        guard let template = core.catalog.template(named: request.template) else {
            let known = core.catalog.names
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
            queueID = core.queueID(of: own) ?? core.track(own)
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
        if let observed = queue as? ObservedOperationQueue, observed.core === core {
            ids = observed.addOperationsReportingIDs(operations)
        } else {
            // A tracked queue reports nothing itself: register first, so no change is missed.
            ids = operations.map { core.registerSampled($0, queue: queueID) }
            queue.addOperations(operations, waitUntilFinished: false)
        }
        let what = request.count == 1 ? template.name : "\(request.count) × \(template.name)"
        return CommandReceipt(
            message: "added \(what) to \(queueID): \(ids.map(\.description).joined(separator: " "))", operations: ids)
    }

    // MARK: Queues

    /// Finds a live queue by id, or throws naming why not.
    func locateQueue(_ id: QueueID) throws -> (entry: QueueEntry, queue: OperationQueue) {
        let entry = core.withRegistry { $0.queues[id] }
        guard let entry else {
            throw core.wasAllocated(id)
                ? CommandError(.queueGone, "queue \(id) was released")
                : CommandError(.unknownQueue, "there is no queue \(id)")
        }
        guard let queue = entry.queue else { throw CommandError(.queueGone, "queue \(id) was released") }
        return (entry, queue)
    }

    private func refuseMainQueue(_ entry: QueueEntry, _ what: String) throws {
        if entry.isMainQueue {
            throw CommandError(.unsupported, "OperationQueue.main ignores \(what) (Foundation rule)")
        }
    }

    private func cancelAll(_ id: QueueID) throws -> CommandReceipt {
        let (entry, queue) = try locateQueue(id)
        try refuseMainQueue(entry, "cancelAllOperations()")
        let count = queue.operationCount
        if let observed = queue as? ObservedOperationQueue {
            // Its override reports the call and what it cancelled.
            observed.cancelAllOperations()
        } else {
            // The queue's own `cancelAllOperations()` (a subclass's override included): the
            // command does what it names. Operations whose finish no hook sees are held first
            // (see `CancelledShield`).
            core.emit(.queueCancelledAll(queue: id))
            if entry.observation == .sampled {
                for member in queue.operations { CancelledShield.protect(member, dependencies: member.dependencies) }
            }
            queue.cancelAllOperations()
            core.didCancelAll(reportedIn: id)
        }
        return CommandReceipt(message: "cancelled all \(count) operation\(count == 1 ? "" : "s") of \(id)")
    }

    private func setSuspended(_ id: QueueID, _ suspended: Bool) throws -> CommandReceipt {
        let (entry, queue) = try locateQueue(id)
        try refuseMainQueue(entry, "isSuspended")
        let word = suspended ? "suspended" : "resumed"
        if queue.isSuspended == suspended {
            return CommandReceipt(message: "\(id) is already \(suspended ? "suspended" : "running")")
        }
        queue.isSuspended = suspended
        noteUnobserved(entry, .queueSuspended(queue: id, suspended: suspended)) { $0.info.isSuspended = suspended }
        return CommandReceipt(message: "\(word) \(id)")
    }

    /// A queue OpScope does not observe (tracked, or the main queue's stand-in) reports no change
    /// of its own: the command's change is recorded in its entry and emitted here, under the
    /// registry's lock like every emission of queue state.
    private func noteUnobserved(_ entry: QueueEntry, _ change: MonitorEvent.Change, _ update: (QueueEntry) -> Void) {
        guard entry.observation != .observed else { return }
        core.withRegistry { _ in
            update(entry)
            core.emit(change)
        }
    }

    private func setMaxConcurrency(_ id: QueueID, _ count: Int) throws -> CommandReceipt {
        guard count >= 1 || count == OperationQueue.defaultMaxConcurrentOperationCount, count <= Int(Int32.max) else {
            throw CommandError(.invalidArgument, "max concurrency must be a positive count or -1 (no limit); got \(count)")
        }
        let (entry, queue) = try locateQueue(id)
        try refuseMainQueue(entry, "maxConcurrentOperationCount")
        let previous = queue.maxConcurrentOperationCount
        queue.maxConcurrentOperationCount = count
        noteUnobserved(entry, .queueMaxConcurrency(queue: id, count: count)) { $0.info.maxConcurrentOperationCount = count }
        return CommandReceipt(message: "\(id) max concurrency \(Self.limitText(count)) (was \(Self.limitText(previous)))")
    }


    /// The limit as a person reads it: `no limit` for Foundation's default.
    static func limitText(_ count: Int) -> String {
        count == OperationQueue.defaultMaxConcurrentOperationCount ? "no limit" : String(count)
    }
}
