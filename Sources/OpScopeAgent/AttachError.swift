/// Why attaching, serving or a request over the socket failed: one line for people, and a
/// category for programs and tests.
public struct AttachError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category.
    public enum Kind: String, Sendable {
        /// No socket at the path, or no program to attach to.
        case notFound
        /// A socket whose program is gone (nobody listens).
        case stale
        /// The socket or its directory belongs to another user, or the agent refused this user.
        case permission
        /// The agent refused the console (version, too many consoles, a malformed greeting).
        case refused
        /// The two sides speak different protocol versions.
        case versionMismatch
        /// The other side broke the protocol, or went silent past a deadline.
        case protocolError
        /// The directory is unsafe (not ours, or open to others), or the path is already served.
        case unsafe
        /// A system call failed.
        case system
    }

    /// The category.
    public var kind: Kind
    /// One line naming what went wrong.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
