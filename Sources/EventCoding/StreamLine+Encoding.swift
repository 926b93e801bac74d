import OperationEvents

extension StreamLine {
    /// The line's JSON text, without the line break (files add `\n`, frames a length).
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Appends the line's JSON text, without the line break, to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .header(let header):
            let bound = JSONText.fixedBound + JSONText.bound(header.program) + (header.host.map(JSONText.bound) ?? 0)
            JSONText.write(bound: bound, into: &bytes) { Self.encode(header, into: &$0) }
        case .event(let event):
            Self.encode(event, into: &bytes)
        case .keyframe(let keyframe):
            JSONText.write(bound: JSONText.fixedBound + keyframe.stateJSON.count, into: &bytes) { text in
                text.open(kind: "keyframe")
                text.field("sequence", keyframe.sequence)
                text.field("time", keyframe.time)
                text.field("state", json: keyframe.stateJSON)
                text.close()
            }
        case .dropped(let marker):
            JSONText.write(bound: JSONText.fixedBound, into: &bytes) { text in
                text.open(kind: "dropped")
                text.field("count", marker.count)
                if let sequence = marker.sequence { text.field("sequence", sequence) }
                if let time = marker.time { text.field("time", time) }
                text.close()
            }
        case .end(let marker):
            JSONText.write(bound: JSONText.fixedBound + (marker.reason.map(JSONText.bound) ?? 0), into: &bytes) { text in
                text.open(kind: "end")
                text.field("time", marker.time)
                if let events = marker.events { text.field("events", events) }
                if let dropped = marker.dropped { text.field("dropped", dropped) }
                if let reason = marker.reason { text.field("reason", string: reason) }
                text.close()
            }
        case .unknown(let kind):
            // Only a line read from a newer writer is unknown; what it held beyond its kind is gone.
            JSONText.write(bound: JSONText.fixedBound + JSONText.bound(kind), into: &bytes) { text in
                text.open(kindText: kind)
                text.close()
            }
        }
    }

    /// Appends one event's line, without the line break: the writer's hot path.
    public static func encode(_ event: MonitorEvent, into bytes: inout [UInt8]) {
        var bound = LineBound()
        event.change.writeFields(into: &bound)
        JSONText.write(bound: bound.bytes, into: &bytes) { text in
            text.open(kind: "event")
            text.field("sequence", event.sequence)
            text.field("time", event.time)
            text.field("origin", word: Vocabulary.origins.word(for: event.origin))
            text.field("change", word: event.change.kind.word)
            event.change.writeFields(into: &text)
            text.close()
        }
    }

    private static func encode(_ header: StreamHeader, into text: inout JSONText) {
        text.open(kind: "header")
        text.key("format")
        text.string(EventCoding.formatName)
        text.field("version", header.version)
        text.field("program", string: header.program)
        text.field("processID", header.processID)
        if let host = header.host { text.field("host", string: host) }
        text.field("startedAt", string: header.startedAt.description)
        text.field("startMonitorTime", header.startMonitorTime)
        text.close()
    }
}

/// The most bytes an event line can take: its fixed parts, plus its strings and dependencies,
/// added up over the same fields the line is written from.
private struct LineBound: ChangeFieldWriter {
    var bytes = JSONText.fixedBound

    mutating func write(_ field: MonitorEvent.Change.IntegerField, _ value: Int) {}
    mutating func write(_ field: MonitorEvent.Change.FlagField, _ value: Bool) {}
    mutating func write(_ field: MonitorEvent.Change.TextField, _ value: String) { bytes += JSONText.bound(value) }
    mutating func write(_ field: MonitorEvent.Change.PriorityField, _ value: OperationPriority) {}
    mutating func write(qualityOfService: QoSClass) {}
    mutating func write(observation: QueueObservation) {}
    mutating func write(observation: ObservationMode) {}
    mutating func write(dependencies: [OperationID]) { bytes += 21 * dependencies.count }
}

/// A change's fields written as the line's JSON fields, words for the enums.
extension JSONText: ChangeFieldWriter {
    mutating func write(_ field: MonitorEvent.Change.IntegerField, _ value: Int) { self.field(field.key, value) }
    mutating func write(_ field: MonitorEvent.Change.FlagField, _ value: Bool) { self.field(field.key, value) }
    mutating func write(_ field: MonitorEvent.Change.TextField, _ value: String) { self.field(field.key, string: value) }

    mutating func write(_ field: MonitorEvent.Change.PriorityField, _ value: OperationPriority) {
        self.field(field.key, word: Vocabulary.priorities.word(for: value))
    }

    mutating func write(qualityOfService: QoSClass) {
        field(MonitorEvent.Change.qualityOfServiceKey, word: Vocabulary.qualities.word(for: qualityOfService))
    }

    mutating func write(observation: QueueObservation) {
        field(MonitorEvent.Change.observationKey, word: Vocabulary.queueObservations.word(for: observation))
    }

    mutating func write(observation: ObservationMode) {
        field(MonitorEvent.Change.observationKey, word: Vocabulary.operationObservations.word(for: observation))
    }

    mutating func write(dependencies: [OperationID]) {
        field(MonitorEvent.Change.dependenciesKey, integers: dependencies.lazy.map(\.rawValue))
    }
}
