/// The priority an operation queue schedules by, mirroring `Operation.QueuePriority`
/// plus the `barrier` level the queue uses internally for `addBarrierBlock`.
///
/// The raw values are Foundation's, so `veryHigh > normal` compares the way the scheduler does.
public enum OperationPriority: Int, Codable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case veryLow = -8
    case low = -4
    case normal = 0
    case high = 4
    case veryHigh = 8
    /// Barrier blocks are scheduled before every other priority.
    case barrier = 12

    /// Scheduling order: the queue scans its lists from `barrier` down to `veryLow`.
    public static let schedulingOrder: [OperationPriority] = [.barrier, .veryHigh, .high, .normal, .low, .veryLow]

    public static func < (lhs: OperationPriority, rhs: OperationPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The position in `schedulingOrder` (`barrier` 0 ... `veryLow` 5). A switch, not a search:
    /// the bridge packs it for every operation added and the model files every operation by it
    /// (inlinable: the model's own switch was inlined before it moved here).
    @inlinable
    package var schedulingIndex: Int {
        switch self {
        case .barrier: 0
        case .veryHigh: 1
        case .high: 2
        case .normal: 3
        case .low: 4
        case .veryLow: 5
        }
    }

    /// The priority at `schedulingIndex`, or nil outside 0...5.
    package init?(schedulingIndex: Int) {
        switch schedulingIndex {
        case 0: self = .barrier
        case 1: self = .veryHigh
        case 2: self = .high
        case 3: self = .normal
        case 4: self = .low
        case 5: self = .veryLow
        default: return nil
        }
    }

    /// The spelling used in Swift source, e.g. `veryHigh`.
    public var description: String {
        switch self {
        case .veryLow: "veryLow"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "veryHigh"
        case .barrier: "barrier"
        }
    }

    /// Parses the Swift spelling (`veryHigh`), case-insensitively, also accepting `very-high` and `very_high`.
    public init?(parsing text: String) {
        let key = String(text.lowercased().filter { $0 != "-" && $0 != "_" })
        guard let match = Self.allCases.first(where: { $0.description.lowercased() == key }) else { return nil }
        self = match
    }

    /// Encoded by name (`"veryHigh"`), which is what the JSON report documents.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = OperationPriority(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown priority \(text)"))
        }
        self = value
    }

    /// Encoded by name (`"veryHigh"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
