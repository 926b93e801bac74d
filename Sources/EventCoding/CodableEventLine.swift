import OperationEvents

/// The event line written and read through `Codable` (`JSONEncoder`/`JSONDecoder`): the same
/// fields (`MonitorEvent.Change.writeFields(into:)` and `init(kind:reading:)`) through a second,
/// independent JSON implementation.
///
/// The product uses the hand-written coder, which `opscope-bench coding` measures at about 30
/// times the encoding rate and 10 times the decoding rate of this one. This one stays as the
/// reference the tests hold the hand-written JSON text and scanner to (each must read what the
/// other writes, in any key order and whitespace) and as the baseline the benchmark compares
/// against.
package struct CodableEventLine: Codable, Equatable {
    package var event: MonitorEvent

    package init(_ event: MonitorEvent) {
        self.event = event
    }

    /// Any key of the line: the line's own, and the change's fields by their keys.
    private struct Key: CodingKey, Sendable {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ key: StaticString) { stringValue = "\(key)" }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let kind = Key("kind"), sequence = Key("sequence"), time = Key("time")
        static let origin = Key("origin"), change = Key("change")
    }

    private struct WrongKind: Error {}

    package func encode(to encoder: any Encoder) throws {
        var writer = Writer(container: encoder.container(keyedBy: Key.self))
        try writer.container.encode("event", forKey: .kind)
        try writer.container.encode(event.sequence, forKey: .sequence)
        try writer.container.encode(event.time, forKey: .time)
        try writer.container.encode(event.origin, forKey: .origin)
        try writer.container.encode("\(event.change.kind.word)", forKey: .change)
        event.change.writeFields(into: &writer)
        if let error = writer.error { throw error }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard try container.decode(String.self, forKey: .kind) == "event" else { throw WrongKind() }
        let changeName = try container.decode(String.self, forKey: .change)
        guard let kind = Array(changeName.utf8).withUnsafeBufferPointer({ Vocabulary.changes.value(matching: $0) }) else {
            throw DecodingError.dataCorruptedError(forKey: .change, in: container, debugDescription: "unknown change \(changeName)")
        }
        let change = try MonitorEvent.Change(kind: kind, reading: Reader(container: container))
        event = MonitorEvent(
            sequence: try container.decode(UInt64.self, forKey: .sequence),
            time: try container.decode(UInt64.self, forKey: .time),
            origin: try container.decode(EventOrigin.self, forKey: .origin),
            change: change)
    }

    /// The change's fields into the keyed container, enums by their own `Codable` (their Swift
    /// names, the stream's words); the first error is kept, as the field writer cannot throw.
    private struct Writer: ChangeFieldWriter {
        var container: KeyedEncodingContainer<Key>
        var error: (any Error)?

        private mutating func encode(_ value: some Encodable, _ key: StaticString) {
            guard error == nil else { return }
            do { try container.encode(value, forKey: Key(key)) } catch { self.error = error }
        }

        mutating func write(_ field: MonitorEvent.Change.IntegerField, _ value: Int) { encode(value, field.key) }
        mutating func write(_ field: MonitorEvent.Change.FlagField, _ value: Bool) { encode(value, field.key) }
        mutating func write(_ field: MonitorEvent.Change.TextField, _ value: String) { encode(value, field.key) }
        mutating func write(_ field: MonitorEvent.Change.PriorityField, _ value: OperationPriority) {
            encode(value, field.key)
        }
        mutating func write(qualityOfService: QoSClass) { encode(qualityOfService, MonitorEvent.Change.qualityOfServiceKey) }
        mutating func write(observation: QueueObservation) { encode(observation, MonitorEvent.Change.observationKey) }
        mutating func write(observation: ObservationMode) { encode(observation, MonitorEvent.Change.observationKey) }
        mutating func write(dependencies: [OperationID]) { encode(dependencies, MonitorEvent.Change.dependenciesKey) }
    }

    /// The change's fields from the keyed container.
    private struct Reader: ChangeFieldReader {
        typealias Failure = any Error

        let container: KeyedDecodingContainer<Key>

        private func value<Value: Decodable>(_ key: StaticString) throws -> Value {
            try container.decode(Value.self, forKey: Key(key))
        }

        private func optional<Value: Decodable>(_ key: StaticString) throws -> Value? {
            try container.decodeIfPresent(Value.self, forKey: Key(key))
        }

        func integer(_ field: MonitorEvent.Change.IntegerField) throws -> Int { try value(field.key) }
        func optionalInteger(_ field: MonitorEvent.Change.IntegerField) throws -> Int? { try optional(field.key) }
        func flag(_ field: MonitorEvent.Change.FlagField) throws -> Bool { try value(field.key) }
        func optionalFlag(_ field: MonitorEvent.Change.FlagField) throws -> Bool? { try optional(field.key) }
        func text(_ field: MonitorEvent.Change.TextField) throws -> String { try value(field.key) }
        func optionalText(_ field: MonitorEvent.Change.TextField) throws -> String? { try optional(field.key) }
        func priority(_ field: MonitorEvent.Change.PriorityField) throws -> OperationPriority { try value(field.key) }
        func readQualityOfService() throws -> QoSClass { try value(MonitorEvent.Change.qualityOfServiceKey) }
        func readQueueObservation() throws -> QueueObservation { try value(MonitorEvent.Change.observationKey) }
        func readOperationObservation() throws -> ObservationMode { try value(MonitorEvent.Change.observationKey) }
        func readDependencies() throws -> [OperationID] { try value(MonitorEvent.Change.dependenciesKey) }
    }
}
