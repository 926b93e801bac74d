/// Why an event could not be applied as it stands. Each is counted and handled (ignored, or
/// applied as far as it makes sense); none is a fault of the consumer.
public enum StreamAnomaly: String, Codable, Sendable, CaseIterable {
    /// It names an operation the state does not hold (never announced, or trimmed).
    case unknownOperation
    /// It names a queue the state does not hold.
    case unknownQueue
    /// It repeats what the state already shows (a second start, a second exact finish).
    case duplicate
    /// It comes after a later step of the operation's life (a ready after the start).
    case outOfOrder
    /// It is about an operation whose finish was seen: nothing follows a finish.
    case afterFinish
    /// Its sequence number is below the next expected one: it is reflected in the state already
    /// (a repeat, or from before the keyframe or snapshot the state started from).
    case stale
}

/// What a stream state counts besides its queues' totals: anomalies by kind, events lost,
/// gaps in the sequence numbers, and trimmed operations that belonged to no queue.
public struct StreamCounters: Sendable, Equatable {
    private var anomalyCounts = [Int](repeating: 0, count: StreamAnomaly.allCases.count)
    /// Events the consumer of this state lost before they reached it (from its batches, or the
    /// hub's own losses), as last reported.
    public internal(set) var eventsLost = 0
    /// Times the sequence numbers jumped forward.
    public internal(set) var sequenceGaps = 0
    /// Events the jumps skipped, in all.
    public internal(set) var missedEvents: UInt64 = 0
    /// Finished operations in no queue that were trimmed.
    public internal(set) var trimmedWithoutQueue = 0
    /// Finished operations trimmed, in all (also those of queues since forgotten).
    public internal(set) var trimmed = 0

    /// No counts.
    public init() {}

    /// How many anomalies of `kind` were met.
    public subscript(anomaly: StreamAnomaly) -> Int {
        anomalyCounts[Self.index(anomaly)]
    }

    /// Anomalies of every kind.
    public var anomalies: Int { anomalyCounts.reduce(0, +) }

    mutating func count(_ anomaly: StreamAnomaly) {
        anomalyCounts[Self.index(anomaly)] += 1
    }

    mutating func set(_ anomaly: StreamAnomaly, _ value: Int) {
        anomalyCounts[Self.index(anomaly)] = value
    }

    private static func index(_ anomaly: StreamAnomaly) -> Int {
        switch anomaly {
        case .unknownOperation: 0
        case .unknownQueue: 1
        case .duplicate: 2
        case .outOfOrder: 3
        case .afterFinish: 4
        case .stale: 5
        }
    }
}

extension StreamCounters: Codable {
    private enum CodingKeys: String, CodingKey {
        case anomalies, eventsLost, sequenceGaps, missedEvents, trimmedWithoutQueue, trimmed
    }

    /// Anomalies are coded by name (`{"unknownOperation": 2}`), only those met.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let named = try container.decodeIfPresent([String: Int].self, forKey: .anomalies) ?? [:]
        for (name, value) in named {
            guard let kind = StreamAnomaly(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .anomalies, in: container, debugDescription: "unknown anomaly \(name)")
            }
            set(kind, value)
        }
        eventsLost = try container.decode(Int.self, forKey: .eventsLost)
        sequenceGaps = try container.decode(Int.self, forKey: .sequenceGaps)
        missedEvents = try container.decode(UInt64.self, forKey: .missedEvents)
        trimmedWithoutQueue = try container.decode(Int.self, forKey: .trimmedWithoutQueue)
        trimmed = try container.decode(Int.self, forKey: .trimmed)
    }

    /// See `init(from:)`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var named: [String: Int] = [:]
        for kind in StreamAnomaly.allCases where self[kind] > 0 { named[kind.rawValue] = self[kind] }
        try container.encode(named, forKey: .anomalies)
        try container.encode(eventsLost, forKey: .eventsLost)
        try container.encode(sequenceGaps, forKey: .sequenceGaps)
        try container.encode(missedEvents, forKey: .missedEvents)
        try container.encode(trimmedWithoutQueue, forKey: .trimmedWithoutQueue)
        try container.encode(trimmed, forKey: .trimmed)
    }
}
