/// The keyframe's coding. Field names are stable and readable (it is written to recordings and
/// sent over sockets); queues and operations are listed in id order. What can be derived is not
/// written but rebuilt on reading: dependents, queue counts by state, dependencies not yet
/// announced.
extension StreamState: Codable {
    private enum CodingKeys: String, CodingKey {
        case nextSequence, time, retention, nextEnqueueOrder, counters, queues, operations, finishedOrder, held
    }

    /// Reads a keyframe.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        retention = try container.decode(StreamRetention.self, forKey: .retention)
        // Set here, before the records go in: `retention`'s observer does not run in an initializer.
        operations.growthTarget = Self.expectedSize(retention)
        nextSequence = try container.decode(UInt64.self, forKey: .nextSequence)
        time = try container.decode(UInt64.self, forKey: .time)
        nextEnqueueOrder = try container.decode(UInt64.self, forKey: .nextEnqueueOrder)
        counters = try container.decode(StreamCounters.self, forKey: .counters)
        for queue in try container.decode([StreamQueue].self, forKey: .queues) {
            guard !queues.contains(queue.id) else {
                throw DecodingError.dataCorruptedError(forKey: .queues, in: container, debugDescription: "queue \(queue.id) listed twice")
            }
            queues[queue.id] = queue
        }
        let records = try container.decode([OperationRecord].self, forKey: .operations)
        for record in records {
            guard !operations.contains(record.id) else {
                throw DecodingError.dataCorruptedError(forKey: .operations, in: container,
                                                       debugDescription: "operation \(record.id) listed twice")
            }
            operations[record.id] = record
        }
        for record in records {
            for dependency in record.dependencies { link(record.id, to: dependency) }
            if let queue = record.queue {
                if queues.contains(queue) {
                    queues[queue]!.count(record.state, 1)
                    queues[queue]!.retained += 1
                } else {
                    unseenQueues.insert(queue)
                }
            }
        }
        // Finish order as written; finished operations it omits follow, by finish time.
        var order: [OperationID] = []
        var placed: Set<OperationID> = []
        for id in try container.decode([OperationID].self, forKey: .finishedOrder)
        where operations[id]?.state == .finished && placed.insert(id).inserted {
            order.append(id)
        }
        let rest = records.filter { $0.state == .finished && !placed.contains($0.id) }
            .sorted { ($0.finishTime, $0.id) < ($1.finishTime, $1.id) }
        order += rest.map(\.id)
        finishedOrder.replace(with: order)
        retainedFinished = order.count
        // Events waiting for an announcement: without them, an operation whose finish overtook
        // its announcement would show unfinished for good once the announcement comes.
        for entry in try container.decodeIfPresent([HeldEntry].self, forKey: .held) ?? [] {
            guard let key = entry.key else { continue }
            for event in entry.events { _ = held.hold(event, for: key) }
        }
    }

    /// Writes the keyframe.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(nextSequence, forKey: .nextSequence)
        try container.encode(time, forKey: .time)
        try container.encode(retention, forKey: .retention)
        try container.encode(nextEnqueueOrder, forKey: .nextEnqueueOrder)
        try container.encode(counters, forKey: .counters)
        try container.encode(queues.values.sorted { $0.id < $1.id }, forKey: .queues)
        try container.encode(operations.values.sorted { $0.id < $1.id }, forKey: .operations)
        try container.encode(canonicalFinishedOrder, forKey: .finishedOrder)
        if !held.isEmpty { try container.encode(held.entries, forKey: .held) }
    }

    /// The retained finished operations in the order they will be trimmed.
    var canonicalFinishedOrder: [OperationID] {
        var seen: Set<OperationID> = []
        return finishedOrder.elements.filter { operations[$0]?.state == .finished && seen.insert($0).inserted }
    }
}

extension StreamState: Equatable {
    /// Equal when they hold the same facts: queues, operations (as coded), counters, finish
    /// order, position in the stream and retention. Derived bookkeeping is not compared.
    public static func == (lhs: StreamState, rhs: StreamState) -> Bool {
        guard lhs.nextSequence == rhs.nextSequence, lhs.time == rhs.time, lhs.retention == rhs.retention,
              lhs.nextEnqueueOrder == rhs.nextEnqueueOrder, lhs.counters == rhs.counters,
              lhs.retainedFinished == rhs.retainedFinished,
              lhs.queues.count == rhs.queues.count, lhs.operations.count == rhs.operations.count else { return false }
        for queue in lhs.queues.values where rhs.queues[queue.id] != queue { return false }
        for record in lhs.operations.values where rhs.operations[record.id] != record { return false }
        return lhs.canonicalFinishedOrder == rhs.canonicalFinishedOrder
    }
}

extension StreamQueue: Codable {
    private enum CodingKeys: String, CodingKey {
        case info, released, sampledDepth, finished, cancelled, trimmed, roomSince
    }

    /// Reads a queue of a keyframe; its counts by state are rebuilt from the operations.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        info = try container.decode(QueueInfo.self, forKey: .info)
        isReleased = try container.decode(Bool.self, forKey: .released)
        sampledDepth = try container.decodeIfPresent(Int.self, forKey: .sampledDepth)
        finished = try container.decode(Int.self, forKey: .finished)
        cancelled = try container.decode(Int.self, forKey: .cancelled)
        trimmed = try container.decode(Int.self, forKey: .trimmed)
        // Absent in keyframes written before it was kept: "long ago".
        roomSince = try container.decodeIfPresent(UInt64.self, forKey: .roomSince) ?? 0
    }

    /// Writes the queue's facts (not its counts by state, which the operations give).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info, forKey: .info)
        try container.encode(isReleased, forKey: .released)
        try container.encodeIfPresent(sampledDepth, forKey: .sampledDepth)
        try container.encode(finished, forKey: .finished)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(trimmed, forKey: .trimmed)
        try container.encode(roomSince, forKey: .roomSince)
    }
}

extension OperationRecord: Codable, Equatable {
    private enum CodingKeys: String, CodingKey {
        case info, addedAt, readyAt, startedAt, finishedAt, finishInferred, unsignalledFinish, vanished, firstSeenLate, enqueueOrder,
             history, origins
    }

    /// Reads an operation of a keyframe; its dependents are rebuilt by the state.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        info = try container.decode(OperationInfo.self, forKey: .info)
        addedAt = try container.decode(UInt64.self, forKey: .addedAt)
        enqueueOrder = try container.decode(UInt64.self, forKey: .enqueueOrder)
        readyTime = try container.decodeIfPresent(UInt64.self, forKey: .readyAt) ?? Self.never
        startTime = try container.decodeIfPresent(UInt64.self, forKey: .startedAt) ?? Self.never
        finishTime = try container.decodeIfPresent(UInt64.self, forKey: .finishedAt) ?? Self.never
        if try container.decodeIfPresent(Bool.self, forKey: .finishInferred) == true { flags.insert(.finishInferred) }
        if try container.decodeIfPresent(Bool.self, forKey: .unsignalledFinish) == true { flags.insert(.unsignalledFinish) }
        if try container.decodeIfPresent(Bool.self, forKey: .vanished) == true { flags.insert(.vanished) }
        if try container.decodeIfPresent(Bool.self, forKey: .firstSeenLate) == true { flags.insert(.firstSeenLate) }
        // Absent in keyframes written before provenance was kept: every moment reads exact.
        origins = try container.decodeIfPresent(UInt8.self, forKey: .origins) ?? 0
        for change in try container.decode([KeyChange].self, forKey: .history) {
            changes.append(change, base: addedAt, limit: 255)
        }
    }

    /// Writes the operation's facts; the flags only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info, forKey: .info)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encodeIfPresent(readyAt, forKey: .readyAt)
        try container.encodeIfPresent(startedAt, forKey: .startedAt)
        try container.encodeIfPresent(finishedAt, forKey: .finishedAt)
        if finishWasInferred { try container.encode(true, forKey: .finishInferred) }
        if unsignalledFinish { try container.encode(true, forKey: .unsignalledFinish) }
        if vanished { try container.encode(true, forKey: .vanished) }
        if firstSeenLate { try container.encode(true, forKey: .firstSeenLate) }
        try container.encode(enqueueOrder, forKey: .enqueueOrder)
        try container.encode(history, forKey: .history)
        if origins != 0 { try container.encode(origins, forKey: .origins) }
    }

    /// Equal facts: the info, times, flags, add order and key changes (not the dependents,
    /// which the table gives, nor a consumer's level).
    public static func == (lhs: OperationRecord, rhs: OperationRecord) -> Bool {
        lhs.info == rhs.info && lhs.addedAt == rhs.addedAt && lhs.readyTime == rhs.readyTime
            && lhs.startTime == rhs.startTime && lhs.finishTime == rhs.finishTime && lhs.flags == rhs.flags
            && lhs.origins == rhs.origins && lhs.enqueueOrder == rhs.enqueueOrder && lhs.changes == rhs.changes
    }
}
