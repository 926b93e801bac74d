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

    func require<Value>(_ value: Value?, _ name: StaticString) throws(LineDecodingError) -> Value {
        guard let value else { throw .corrupt("\(what) has no \"\(name)\"") }
        return value
    }

    func word<Value>(_ slot: StringSlot, in words: Words<Value>, field: StaticString, unknownIsNil: Bool = false)
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

    func word<Value>(_ slot: StringSlot?, in words: Words<Value>, field: StaticString) throws(LineDecodingError) -> Value {
        try word(require(slot, field), in: words, field: field)!
    }

    func text(_ slot: StringSlot?, _ field: StaticString) throws(LineDecodingError) -> String {
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
        return MonitorEvent(sequence: sequence, time: time, origin: origin, change: try .init(kind: kind, reading: self))
    }
}

/// A change's fields read from the line's slots, words for the enums.
extension LineFields: ChangeFieldReader {
    typealias Failure = LineDecodingError

    func integer(_ field: MonitorEvent.Change.IntegerField) throws(LineDecodingError) -> Int {
        try require(optionalInteger(field), field.key)
    }

    func optionalInteger(_ field: MonitorEvent.Change.IntegerField) -> Int? {
        switch field {
        case .queue: queue
        case .operation: operation
        case .dependency: dependency
        case .maxConcurrentOperationCount: maxConcurrentOperationCount
        case .operations: operations
        }
    }

    func flag(_ field: MonitorEvent.Change.FlagField) throws(LineDecodingError) -> Bool {
        try require(optionalFlag(field), field.key)
    }

    func optionalFlag(_ field: MonitorEvent.Change.FlagField) -> Bool? {
        switch field {
        case .isSuspended: isSuspended
        case .isMainQueue: isMainQueue
        case .priorityIsExplicit: priorityIsExplicit
        case .isAsynchronous: isAsynchronous
        case .isBarrier: isBarrier
        case .isReady: isReady
        case .isExecuting: isExecuting
        case .isCancelled: isCancelled
        }
    }

    func text(_ field: MonitorEvent.Change.TextField) throws(LineDecodingError) -> String {
        try text(slot(field), field.key)
    }

    func optionalText(_ field: MonitorEvent.Change.TextField) -> String? {
        slot(field).map(scanner.text)
    }

    private func slot(_ field: MonitorEvent.Change.TextField) -> StringSlot? {
        switch field {
        case .name: name
        case .typeName: typeName
        }
    }

    func priority(_ field: MonitorEvent.Change.PriorityField) throws(LineDecodingError) -> OperationPriority {
        let slot = switch field {
        case .priority: priority
        case .effectivePriority: effectivePriority
        }
        return try word(slot, in: Vocabulary.priorities, field: field.key)
    }

    func readQualityOfService() throws(LineDecodingError) -> QoSClass {
        try word(qualityOfService, in: Vocabulary.qualities, field: MonitorEvent.Change.qualityOfServiceKey)
    }

    func readQueueObservation() throws(LineDecodingError) -> QueueObservation {
        try word(observation, in: Vocabulary.queueObservations, field: MonitorEvent.Change.observationKey)
    }

    func readOperationObservation() throws(LineDecodingError) -> ObservationMode {
        try word(observation, in: Vocabulary.operationObservations, field: MonitorEvent.Change.observationKey)
    }

    func readDependencies() throws(LineDecodingError) -> [OperationID] {
        try require(dependencies, MonitorEvent.Change.dependenciesKey).map { OperationID($0) }
    }
}
