import OperationEvents

/// Why attaching, serving or a request over the socket failed: one line for people, and a
/// category for programs and tests.
public typealias AttachError = CategorizedError<AttachErrorKind>

/// The category of an attach failure (`AttachError.Kind`).
public enum AttachErrorKind: String, Sendable {
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
