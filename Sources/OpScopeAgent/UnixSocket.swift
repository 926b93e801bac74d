import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX socket calls the agent and the console need, with errors that name the path
/// and say what to do. Descriptors are plain `Int32`s owned by the caller.
package enum UnixSocket {
    /// The longest path a Unix socket address holds (`sun_path`, without its terminating NUL).
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new stream socket, close-on-exec (a program the app starts must not inherit it).
    package static func make() throws(AttachError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw AttachError(.system, "socket(): \(lastError())") }
        return descriptor
    }

    /// Binds `descriptor` to `path` and listens.
    package static func listen(_ descriptor: Int32, at path: String, backlog: Int32 = 128) throws(AttachError) {
        var address = try address(of: path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw AttachError(.system, "cannot bind \(path): \(lastError())") }
        guard Glibc.listen(descriptor, backlog) == 0 else { throw AttachError(.system, "cannot listen on \(path): \(lastError())") }
    }

    /// Connects `descriptor` to the socket at `path` (blocking).
    package static func connect(_ descriptor: Int32, to path: String) throws(AttachError) {
        var address = try address(of: path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result != 0 else { return }
        let code = errno
        switch code {
        case ENOENT: throw AttachError(.notFound, "no program serves \(path) (the socket does not exist)")
        case ECONNREFUSED: throw AttachError(.stale, "nobody listens at \(path) (its program exited; the socket is stale)")
        case EACCES, EPERM: throw AttachError(.permission, "permission denied for \(path): it belongs to another user")
        default: throw AttachError(.system, "cannot connect to \(path): \(String(cString: strerror(code)))")
        }
    }

    /// The uid and pid of the process at the other end of a connected socket (`SO_PEERCRED`).
    package static func peer(of descriptor: Int32) -> (pid: Int32, uid: UInt32)? {
        // `struct ucred` (pid, uid, gid: three 32-bit fields) is only declared with _GNU_SOURCE,
        // which the Glibc module is not built with: read it as three words.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              length == socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size) else { return nil }
        return (credentials.0, credentials.1)
    }

    /// Makes reads and writes on `descriptor` return at once instead of waiting.
    package static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Bounds how long a blocking read or write may wait (0: forever).
    package static func setTimeouts(_ descriptor: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes` on a blocking socket; false when the peer is gone or a write timed out.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Whether a process with this id exists (it may belong to another user).
    package static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The text of `errno`.
    package static func lastError() -> String { String(cString: strerror(errno)) }

    private static func address(of path: String) throws(AttachError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else {
            throw AttachError(.system, "socket path too long (\(bytes.count) bytes, at most \(maximumPathLength)): \(path)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }
}
