/// A quality-of-service class, mirroring Foundation's `QualityOfService` without importing it.
public enum QoSClass: String, Codable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case background
    case utility
    case `default`
    case userInitiated
    case userInteractive

    /// Lanes are drawn from the most to the least urgent class.
    public static let laneOrder: [QoSClass] = [.userInteractive, .userInitiated, .default, .utility, .background]

    /// This class's index in `laneOrder` (0 is the most urgent): a switch, not a search, because
    /// sorting and the lanes ask it once per operation per frame.
    public var laneIndex: Int {
        switch self {
        case .userInteractive: 0
        case .userInitiated: 1
        case .default: 2
        case .utility: 3
        case .background: 4
        }
    }

    /// The queue priority Foundation derives from this class when an operation has no explicit
    /// `queuePriority` and its queue is not serial (swift-corelibs-foundation `_addOperations`).
    public var derivedPriority: OperationPriority {
        switch self {
        case .userInteractive: .veryHigh
        case .userInitiated: .high
        case .default: .normal
        case .utility: .low
        case .background: .veryLow
        }
    }

    /// The class at `laneIndex`, or nil outside 0...4.
    package init?(laneIndex: Int) {
        switch laneIndex {
        case 0: self = .userInteractive
        case 1: self = .userInitiated
        case 2: self = .default
        case 3: self = .utility
        case 4: self = .background
        default: return nil
        }
    }

    /// Less urgent is less. By `laneIndex`, not by a search of `allCases`, which builds a new
    /// array at each read.
    public static func < (lhs: QoSClass, rhs: QoSClass) -> Bool { lhs.laneIndex > rhs.laneIndex }

    /// The Swift spelling, e.g. `userInitiated`.
    public var description: String { rawValue }

    /// Parses the Swift spelling case-insensitively, also accepting `user-initiated` and `user_initiated`.
    public init?(parsing text: String) {
        let key = String(text.lowercased().filter { $0 != "-" && $0 != "_" })
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == key }) else { return nil }
        self = match
    }
}
