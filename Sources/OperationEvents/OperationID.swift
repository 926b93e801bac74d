/// A small, stable integer that names one observed operation for the lifetime of its monitor.
///
/// Ids are assigned in the order operations are first seen and are never reused, so a
/// dashboard, a recording and a command line (`cancel 12`) all speak of the same operation.
public struct OperationID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The integer value, starting at 1.
    public let rawValue: Int

    /// Wraps an integer id.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps an integer id.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// `#12`: the form the dashboard and the command line use.
    public var description: String { "#\(rawValue)" }

    public static func < (lhs: OperationID, rhs: OperationID) -> Bool { lhs.rawValue < rhs.rawValue }

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
