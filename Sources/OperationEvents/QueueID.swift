/// A small, stable integer that names one observed or tracked queue for the lifetime of its monitor.
public struct QueueID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The integer value, starting at 1.
    public let rawValue: Int

    /// Wraps an integer id.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps an integer id.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// `q2`: the form the dashboard and the command line use.
    public var description: String { "q\(rawValue)" }

    public static func < (lhs: QueueID, rhs: QueueID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Encoded as a bare integer so reports stay readable.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encoded as a bare integer so reports stay readable.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
