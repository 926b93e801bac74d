/// A failure as a value: a category for programs and tests, and one line for people.
///
/// The errors of the package's layers (a refused command, a failed attach) differ only in their
/// categories, so each is this type over its own `Kind` enum rather than a copy of it.
public struct CategorizedError<Category: Sendable & Equatable>: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category. A member type (a generic parameter is not), so `CommandError.Kind` still
    /// names the enum.
    public typealias Kind = Category

    /// The category.
    public var kind: Kind
    /// One line for people, naming what went wrong.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Coded as `{"kind": ..., "message": ...}` when its category is codable (a command's refusal
/// travels back over the socket).
extension CategorizedError: Codable where Category: Codable {}
