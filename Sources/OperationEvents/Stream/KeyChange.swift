/// One change of an operation's keys: the "KVO keys" made visible, with how the change was seen.
public struct KeyChange: Codable, Sendable, Equatable {
    /// The key that changed.
    public enum Key: UInt8, Codable, Sendable, CaseIterable {
        /// The operation was added to its queue (`value` true), or was first seen already added
        /// (`value` false: `detail` holds the keys read then, see `KeyChange.firstSeen`).
        case added
        /// `isReady`.
        case isReady
        /// `isExecuting`.
        case isExecuting
        /// `isFinished`.
        case isFinished
        /// `isCancelled`.
        case isCancelled
        /// `dependencies` (`value`: added or removed; `detail`: the dependency's id).
        case dependencies
        /// `queuePriority` (`detail`: the priority's raw value).
        case queuePriority
        /// `isFinished` reads true but the queue was never told.
        case unsignalledFinish

        /// Coded by name, so that keyframes stay readable.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let key = Self.allCases.first(where: { $0.name == name }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown key \(name)"))
            }
            self = key
        }

        /// Coded by name (`"isReady"`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }

        /// The Swift spelling of the key, e.g. `isReady`.
        public var name: String {
            switch self {
            case .added: "added"
            case .isReady: "isReady"
            case .isExecuting: "isExecuting"
            case .isFinished: "isFinished"
            case .isCancelled: "isCancelled"
            case .dependencies: "dependencies"
            case .queuePriority: "queuePriority"
            case .unsignalledFinish: "unsignalledFinish"
            }
        }
    }

    /// When (monitor clock, nanoseconds).
    public var time: UInt64
    /// Which key.
    public var key: Key
    /// The new value of a Boolean key (for `dependencies`: true added, false removed).
    public var value: Bool
    /// How the change was seen.
    public var origin: EventOrigin
    /// A related id or value: the dependency for `dependencies`, the priority's raw value for
    /// `queuePriority`; 0 otherwise.
    public var detail: Int32

    /// Creates a history entry.
    public init(time: UInt64, key: Key, value: Bool, origin: EventOrigin, detail: Int32 = 0) {
        self.time = time
        self.key = key
        self.value = value
        self.origin = origin
        self.detail = detail
    }

    /// The first entry of an operation first seen already added: what was read then, not a
    /// change. Its `detail` holds `isReady` (bit 0), `isExecuting` (bit 1), `isCancelled` (bit 2).
    public static func firstSeen(_ info: OperationInfo, time: UInt64, origin: EventOrigin) -> KeyChange {
        var keys: Int32 = 0
        if info.isReady { keys |= 1 }
        if info.isExecuting { keys |= 2 }
        if info.isCancelled { keys |= 4 }
        return KeyChange(time: time, key: .added, value: false, origin: origin, detail: keys)
    }

    /// For a first-seen entry (`key == .added`, `value` false): the keys read when it was first
    /// seen.
    public var firstSeenKeys: (isReady: Bool, isExecuting: Bool, isCancelled: Bool) {
        (detail & 1 != 0, detail & 2 != 0, detail & 4 != 0)
    }
}
