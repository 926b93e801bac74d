import OperationEvents

extension StreamLine {
    /// Decodes one line (its bytes without the line break).
    ///
    /// Fields may come in any order and with any JSON whitespace; unknown fields are ignored and
    /// a line of an unknown kind decodes as `.unknown`. Everything a writer always writes is
    /// required, so a damaged line is reported rather than read with made-up values.
    public init(decoding bytes: [UInt8]) throws(LineDecodingError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LineDecodingError) in try Self.decode(buffer) }
        }
        self = try result.get()
    }

    /// Decodes one line held in part of a larger buffer (a reader's chunk).
    public init(decoding bytes: ArraySlice<UInt8>) throws(LineDecodingError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LineDecodingError) in try Self.decode(buffer) }
        }
        self = try result.get()
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(LineDecodingError) -> StreamLine {
        var scanner = JSONScanner(bytes)
        var reader = try LineFields(&scanner)
        guard let kindSlot = reader.kind else {
            if reader.format != nil { return .header(try reader.decodeHeader()) }
            throw reader.hasKind ? reader.fieldError ?? .corrupt("\"kind\" is null") : .corrupt("the line has no \"kind\"")
        }
        switch try reader.word(kindSlot, in: lineKinds, field: "kind", unknownIsNil: true) {
        case .header: return .header(try reader.decodeHeader())
        case .event: return .event(try reader.decodeEvent())
        case .keyframe: return .keyframe(try reader.decodeKeyframe())
        case .dropped: return .dropped(try reader.decodeDropped())
        case .end: return .end(try reader.decodeEnd())
        case nil: return .unknown(kind: scanner.text(kindSlot))
        }
    }

    enum LineKind { case header, event, keyframe, dropped, end }

    static let lineKinds = Words<LineKind>(entries: [
        ("header", .header), ("event", .event), ("keyframe", .keyframe), ("dropped", .dropped), ("end", .end),
    ])
}

/// Turns the typed slots of one line into a value, naming what is missing or wrong.
extension LineFields {
    var what: String {
        switch subject {
        case .line: "the line"
        case .header: "the header"
        case .keyframe: "the keyframe"
        case .dropped: "the dropped marker"
        case .end: "the end marker"
        case .event(let change): change.map { "the \"\(scanner.text($0))\" event" } ?? "the event"
        }
    }

    func require<Value>(_ value: Value?, _ name: String) throws(LineDecodingError) -> Value {
        guard let value else { throw .corrupt("\(what) has no \"\(name)\"") }
        return value
    }

    func word<Value>(_ slot: StringSlot, in words: Words<Value>, field: String, unknownIsNil: Bool = false)
        throws(LineDecodingError) -> Value?
    {
        let value = slot.escaped
            ? scanner.unescaped(slot).withUnsafeBufferPointer { words.value(matching: $0) }
            : words.value(matching: scanner.raw(slot))
        if value == nil, !unknownIsNil {
            throw .corrupt("\"\(field)\" has an unknown value \"\(scanner.text(slot))\" (expected one of: \(words.list))")
        }
        return value
    }

    func word<Value>(_ slot: StringSlot?, in words: Words<Value>, field: String) throws(LineDecodingError) -> Value {
        try word(require(slot, field), in: words, field: field)!
    }

    func text(_ slot: StringSlot?, _ field: String) throws(LineDecodingError) -> String {
        scanner.text(try require(slot, field))
    }

    mutating func decodeHeader() throws(LineDecodingError) -> StreamHeader {
        guard let format = format else {
            throw LineDecodingError(.notAHeader("it has no \"format\": \"\(EventCoding.formatName)\""))
        }
        let formatText = scanner.text(format)
        guard formatText == EventCoding.formatName else {
            throw LineDecodingError(.notAHeader("its format is \"\(formatText)\", not \"\(EventCoding.formatName)\""))
        }
        guard let version = version else {
            throw LineDecodingError(.corruptHeader(fieldError?.description ?? "the header has no \"version\""))
        }
        guard version >= 1 else { throw LineDecodingError(.corruptHeader("\"version\" \(version) is not a format version")) }
        guard version <= EventCoding.currentVersion else { throw LineDecodingError(.newerVersion(version)) }
        do throws(LineDecodingError) {
            if let error = fieldError { throw error }
            subject = .header
            let startedAtText = try text(startedAt, "startedAt")
            guard let startedAt = WallClockTime(iso8601: startedAtText) else {
                throw .corrupt("\"startedAt\" is not a UTC time like 2025-03-01T12:34:56.123456789Z: \"\(startedAtText)\"")
            }
            return StreamHeader(
                version: version,
                program: try text(program, "program"),
                processID: try require(processID, "processID"),
                host: host.map(scanner.text),
                startedAt: startedAt,
                startMonitorTime: try require(startMonitorTime, "startMonitorTime")
            )
        } catch {
            throw LineDecodingError(.corruptHeader(error.reason), column: error.column)
        }
    }

    mutating func decodeKeyframe() throws(LineDecodingError) -> Keyframe {
        if let error = fieldError { throw error }
        subject = .keyframe
        let state = try require(state, "state")
        return Keyframe(
            sequence: try require(sequence, "sequence"),
            time: try require(time, "time"),
            stateJSON: Array(scanner.bytes[state])
        )
    }

    mutating func decodeDropped() throws(LineDecodingError) -> DroppedMarker {
        if let error = fieldError { throw error }
        subject = .dropped
        let count = try require(count, "count")
        guard count >= 0 else { throw .corrupt("\"count\" must not be negative") }
        return DroppedMarker(count: count, sequence: sequence, time: time)
    }

    mutating func decodeEnd() throws(LineDecodingError) -> EndMarker {
        if let error = fieldError { throw error }
        subject = .end
        return EndMarker(
            time: try require(time, "time"),
            events: events,
            dropped: dropped,
            reason: reason.map(scanner.text)
        )
    }

    mutating func decodeEvent() throws(LineDecodingError) -> MonitorEvent {
        if let error = fieldError { throw error }
        subject = .event(nil)
        let sequence = try require(sequence, "sequence")
        let time = try require(time, "time")
        let origin = try word(origin, in: Vocabulary.origins, field: "origin")
        let kind = try word(change, in: Vocabulary.changes, field: "change")
        subject = .event(change)
        return MonitorEvent(sequence: sequence, time: time, origin: origin, change: try decodeChange(kind))
    }

    private func decodeChange(_ kind: ChangeKind) throws(LineDecodingError) -> MonitorEvent.Change {
        switch kind {
        case .queueAppeared:
            return .queueAppeared(QueueInfo(
                id: try queueID(),
                name: try text(name, "name"),
                maxConcurrentOperationCount: try require(maxConcurrentOperationCount, "maxConcurrentOperationCount"),
                isSuspended: try require(isSuspended, "isSuspended"),
                qualityOfService: try word(qualityOfService, in: Vocabulary.qualities, field: "qualityOfService"),
                isMainQueue: try require(isMainQueue, "isMainQueue"),
                observation: try word(observation, in: Vocabulary.queueObservations, field: "observation")
            ))
        case .queueSuspended: return .queueSuspended(queue: try queueID(), suspended: try require(isSuspended, "isSuspended"))
        case .queueMaxConcurrency:
            return .queueMaxConcurrency(
                queue: try queueID(), count: try require(maxConcurrentOperationCount, "maxConcurrentOperationCount"))
        case .queueRenamed: return .queueRenamed(queue: try queueID(), name: try text(name, "name"))
        case .queueQualityOfService:
            return .queueQualityOfService(
                queue: try queueID(), qos: try word(qualityOfService, in: Vocabulary.qualities, field: "qualityOfService"))
        case .queueCancelledAll: return .queueCancelledAll(queue: try queueID())
        case .queueDepth: return .queueDepth(queue: try queueID(), operations: try require(operations, "operations"))
        case .queueReleased: return .queueReleased(queue: try queueID())
        case .operationAdded: return .operationAdded(try decodeOperationInfo())
        case .ready: return .ready(operation: try operationID(), isReady: try require(isReady, "isReady"))
        case .started: return .started(operation: try operationID())
        case .finished: return .finished(operation: try operationID(), cancelled: try require(isCancelled, "isCancelled"))
        case .cancelled: return .cancelled(operation: try operationID())
        case .dependencyAdded: return .dependencyAdded(operation: try operationID(), dependency: try dependencyID())
        case .dependencyRemoved: return .dependencyRemoved(operation: try operationID(), dependency: try dependencyID())
        case .priorityChanged:
            return .priorityChanged(
                operation: try operationID(),
                priority: try word(priority, in: Vocabulary.priorities, field: "priority"),
                effective: try word(effectivePriority, in: Vocabulary.priorities, field: "effectivePriority"))
        case .unsignalledFinish: return .unsignalledFinish(operation: try operationID())
        case .released: return .released(operation: try operationID())
        }
    }

    private func queueID() throws(LineDecodingError) -> QueueID { QueueID(try require(queue, "queue")) }
    private func operationID() throws(LineDecodingError) -> OperationID { OperationID(try require(operation, "operation")) }
    private func dependencyID() throws(LineDecodingError) -> OperationID { OperationID(try require(dependency, "dependency")) }

    private func decodeOperationInfo() throws(LineDecodingError) -> OperationInfo {
        OperationInfo(
            id: try operationID(),
            queue: queue.map { QueueID($0) },
            name: name.map(scanner.text),
            typeName: try text(typeName, "typeName"),
            priority: try word(priority, in: Vocabulary.priorities, field: "priority"),
            effectivePriority: try word(effectivePriority, in: Vocabulary.priorities, field: "effectivePriority"),
            priorityIsExplicit: priorityIsExplicit,
            qualityOfService: try word(qualityOfService, in: Vocabulary.qualities, field: "qualityOfService"),
            isAsynchronous: try require(isAsynchronous, "isAsynchronous"),
            isBarrier: try require(isBarrier, "isBarrier"),
            dependencies: try require(dependencies, "dependencies").map { OperationID($0) },
            observation: try word(observation, in: Vocabulary.operationObservations, field: "observation"),
            isReady: try require(isReady, "isReady"),
            isExecuting: try require(isExecuting, "isExecuting"),
            isCancelled: try require(isCancelled, "isCancelled")
        )
    }
}
