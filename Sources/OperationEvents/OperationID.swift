/// What an `Identifier` names: operations and queues are numbered apart and printed differently.
public protocol IdentifierKind: Sendable {
    /// What precedes the number when printed: `#` for operations (`#12`), `q` for queues (`q2`).
    static var prefix: String { get }
}

/// The kind of `OperationID`.
public enum OperationKind: IdentifierKind {
    /// `#12`.
    public static let prefix = "#"
}

/// The kind of `QueueID`.
public enum QueueKind: IdentifierKind {
    /// `q2`.
    public static let prefix = "q"
}

/// A small, stable integer that names one observed operation or queue for the lifetime of its
/// monitor.
///
/// Ids are assigned in the order things are first seen and are never reused, so a dashboard, a
/// recording and a command line (`cancel 12`, `suspend q2`) all speak of the same one. The kind
/// parameter keeps an operation's id from being passed where a queue's is meant.
public struct Identifier<Kind: IdentifierKind>: RawRepresentable, Hashable, Comparable, Codable, Sendable,
    CustomStringConvertible
{
    /// The integer value, starting at 1.
    public let rawValue: Int

    /// Wraps an integer id.
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps an integer id.
    @inlinable public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// `#12` or `q2`: the form the dashboard and the command line use.
    public var description: String { Kind.prefix + String(rawValue) }

    /// Ordered by number: the order things were first seen.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Encoded as a bare integer so reports and recordings stay readable.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encoded as a bare integer so reports and recordings stay readable.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Names one operation: `#12`.
public typealias OperationID = Identifier<OperationKind>

/// Names one queue: `q2`.
public typealias QueueID = Identifier<QueueKind>
