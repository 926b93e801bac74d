import OperationEvents

/// The event line written and read through `Codable` (`JSONEncoder`/`JSONDecoder`): a second,
/// independent implementation of the same format.
///
/// The product uses the hand-written coder, which `opscope-bench coding` measures at about 30
/// times the encoding rate and 10 times the decoding rate of this one. This one stays as the
/// reference the tests hold the hand-written one to (each must read what the other writes) and
/// as the baseline the benchmark compares against.
package struct CodableEventLine: Codable, Equatable {
    package var event: MonitorEvent

    package init(_ event: MonitorEvent) {
        self.event = event
    }

    private enum Key: String, CodingKey {
        case kind, sequence, time, origin, change, queue, operation, dependency, name, typeName
        case maxConcurrentOperationCount, isSuspended, qualityOfService, isMainQueue, observation, operations
        case priority, effectivePriority, priorityIsExplicit, isAsynchronous, isBarrier, dependencies
        case isReady, isExecuting, isCancelled
    }

    private struct WrongKind: Error {}

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("event", forKey: .kind)
        try container.encode(event.sequence, forKey: .sequence)
        try container.encode(event.time, forKey: .time)
        try container.encode(event.origin, forKey: .origin)
        try container.encode("\(Vocabulary.changes.word(for: ChangeKind(event.change)))", forKey: .change)
        switch event.change {
        case .queueAppeared(let info):
            try container.encode(info.id, forKey: .queue)
            try container.encode(info.name, forKey: .name)
            try container.encode(info.maxConcurrentOperationCount, forKey: .maxConcurrentOperationCount)
            try container.encode(info.isSuspended, forKey: .isSuspended)
            try container.encode(info.qualityOfService, forKey: .qualityOfService)
            try container.encode(info.isMainQueue, forKey: .isMainQueue)
            try container.encode(info.observation, forKey: .observation)
        case .queueSuspended(let queue, let suspended):
            try container.encode(queue, forKey: .queue)
            try container.encode(suspended, forKey: .isSuspended)
        case .queueMaxConcurrency(let queue, let count):
            try container.encode(queue, forKey: .queue)
            try container.encode(count, forKey: .maxConcurrentOperationCount)
        case .queueRenamed(let queue, let name):
            try container.encode(queue, forKey: .queue)
            try container.encode(name, forKey: .name)
        case .queueQualityOfService(let queue, let qos):
            try container.encode(queue, forKey: .queue)
            try container.encode(qos, forKey: .qualityOfService)
        case .queueCancelledAll(let queue), .queueReleased(let queue):
            try container.encode(queue, forKey: .queue)
        case .queueDepth(let queue, let operations):
            try container.encode(queue, forKey: .queue)
            try container.encode(operations, forKey: .operations)
        case .operationAdded(let info):
            try container.encode(info.id, forKey: .operation)
            try container.encodeIfPresent(info.queue, forKey: .queue)
            try container.encodeIfPresent(info.name, forKey: .name)
            try container.encode(info.typeName, forKey: .typeName)
            try container.encode(info.priority, forKey: .priority)
            try container.encode(info.effectivePriority, forKey: .effectivePriority)
            try container.encodeIfPresent(info.priorityIsExplicit, forKey: .priorityIsExplicit)
            try container.encode(info.qualityOfService, forKey: .qualityOfService)
            try container.encode(info.isAsynchronous, forKey: .isAsynchronous)
            try container.encode(info.isBarrier, forKey: .isBarrier)
            try container.encode(info.dependencies, forKey: .dependencies)
            try container.encode(info.observation, forKey: .observation)
            try container.encode(info.isReady, forKey: .isReady)
            try container.encode(info.isExecuting, forKey: .isExecuting)
            try container.encode(info.isCancelled, forKey: .isCancelled)
        case .ready(let operation, let isReady):
            try container.encode(operation, forKey: .operation)
            try container.encode(isReady, forKey: .isReady)
        case .started(let operation), .cancelled(let operation), .unsignalledFinish(let operation),
             .released(let operation):
            try container.encode(operation, forKey: .operation)
        case .finished(let operation, let cancelled):
            try container.encode(operation, forKey: .operation)
            try container.encode(cancelled, forKey: .isCancelled)
        case .dependencyAdded(let operation, let dependency), .dependencyRemoved(let operation, let dependency):
            try container.encode(operation, forKey: .operation)
            try container.encode(dependency, forKey: .dependency)
        case .priorityChanged(let operation, let priority, let effective):
            try container.encode(operation, forKey: .operation)
            try container.encode(priority, forKey: .priority)
            try container.encode(effective, forKey: .effectivePriority)
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard try container.decode(String.self, forKey: .kind) == "event" else { throw WrongKind() }
        let changeName = try container.decode(String.self, forKey: .change)
        guard let kind = Array(changeName.utf8).withUnsafeBufferPointer({ Vocabulary.changes.value(matching: $0) }) else {
            throw DecodingError.dataCorruptedError(forKey: .change, in: container, debugDescription: "unknown change \(changeName)")
        }
        func queue() throws -> QueueID { try container.decode(QueueID.self, forKey: .queue) }
        func operation() throws -> OperationID { try container.decode(OperationID.self, forKey: .operation) }
        func value<Value: Decodable>(_ key: Key) throws -> Value { try container.decode(Value.self, forKey: key) }
        let change: MonitorEvent.Change = switch kind {
        case .queueAppeared:
            .queueAppeared(QueueInfo(
                id: try queue(), name: try value(.name), maxConcurrentOperationCount: try value(.maxConcurrentOperationCount),
                isSuspended: try value(.isSuspended), qualityOfService: try value(.qualityOfService),
                isMainQueue: try value(.isMainQueue), observation: try value(.observation)))
        case .queueSuspended: .queueSuspended(queue: try queue(), suspended: try value(.isSuspended))
        case .queueMaxConcurrency: .queueMaxConcurrency(queue: try queue(), count: try value(.maxConcurrentOperationCount))
        case .queueRenamed: .queueRenamed(queue: try queue(), name: try value(.name))
        case .queueQualityOfService: .queueQualityOfService(queue: try queue(), qos: try value(.qualityOfService))
        case .queueCancelledAll: .queueCancelledAll(queue: try queue())
        case .queueDepth: .queueDepth(queue: try queue(), operations: try value(.operations))
        case .queueReleased: .queueReleased(queue: try queue())
        case .operationAdded:
            .operationAdded(OperationInfo(
                id: try operation(), queue: try container.decodeIfPresent(QueueID.self, forKey: .queue),
                name: try container.decodeIfPresent(String.self, forKey: .name), typeName: try value(.typeName),
                priority: try value(.priority), effectivePriority: try value(.effectivePriority),
                priorityIsExplicit: try container.decodeIfPresent(Bool.self, forKey: .priorityIsExplicit),
                qualityOfService: try value(.qualityOfService), isAsynchronous: try value(.isAsynchronous),
                isBarrier: try value(.isBarrier), dependencies: try value(.dependencies), observation: try value(.observation),
                isReady: try value(.isReady), isExecuting: try value(.isExecuting), isCancelled: try value(.isCancelled)))
        case .ready: .ready(operation: try operation(), isReady: try value(.isReady))
        case .started: .started(operation: try operation())
        case .finished: .finished(operation: try operation(), cancelled: try value(.isCancelled))
        case .cancelled: .cancelled(operation: try operation())
        case .dependencyAdded: .dependencyAdded(operation: try operation(), dependency: try value(.dependency))
        case .dependencyRemoved: .dependencyRemoved(operation: try operation(), dependency: try value(.dependency))
        case .priorityChanged:
            .priorityChanged(operation: try operation(), priority: try value(.priority), effective: try value(.effectivePriority))
        case .unsignalledFinish: .unsignalledFinish(operation: try operation())
        case .released: .released(operation: try operation())
        }
        event = MonitorEvent(
            sequence: try value(.sequence), time: try value(.time), origin: try value(.origin), change: change)
    }
}
