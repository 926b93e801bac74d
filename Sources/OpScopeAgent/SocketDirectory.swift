import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where agents put their sockets, one per process: `$XDG_RUNTIME_DIR/opscope/PID.sock`, or
/// `/tmp/opscope-UID/PID.sock` where there is no runtime directory. The directory is the user's
/// own and closed to everyone else (0700), the sockets 0600: the file system keeps other users
/// out, and the agent checks every connection's peer as well.
public struct SocketDirectory: Sendable, Equatable {
    /// The directory's path.
    public let path: String

    /// A directory at `path` (tests, or a program that wants its own place).
    public init(path: String) {
        self.path = path
    }

    /// The user's directory: under `XDG_RUNTIME_DIR` when it is set to a directory, else in /tmp.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SocketDirectory {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var status = stat()
            if stat(runtime, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                return SocketDirectory(path: runtime + "/opscope")
            }
        }
        return SocketDirectory(path: "/tmp/opscope-\(geteuid())")
    }

    /// The socket of the process `pid`.
    public func socketPath(for pid: Int32) -> String { "\(path)/\(pid).sock" }

    /// Creates the directory (0700) if needed and checks that it is safe: a directory (not a
    /// link), owned by this user, closed to others. One that is ours but open is closed; one
    /// that belongs to someone else is refused (it could be a trap laid in /tmp).
    public func prepare() throws(AttachError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw AttachError(.system, "cannot create \(path): \(UnixSocket.lastError())")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw AttachError(.system, "cannot read \(path): \(UnixSocket.lastError())") }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw AttachError(.unsafe, "\(path) is not a directory (a link or a file is in the way); remove it")
        }
        guard status.st_uid == geteuid() else {
            throw AttachError(.unsafe, "\(path) belongs to uid \(status.st_uid), not to this user (\(geteuid())); remove it")
        }
        if status.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw AttachError(.unsafe, "\(path) is open to other users and cannot be closed: \(UnixSocket.lastError())")
        }
    }

    /// The sockets in the directory, with the process id each name carries (nil for a socket
    /// placed there under another name), in order of process id.
    public func sockets() -> [(path: String, pid: Int32?)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { $0.hasSuffix(".sock") }.map { name in
            (path + "/" + name, Int32(name.dropLast(5)))
        }.sorted { ($0.pid ?? .max, $0.path) < ($1.pid ?? .max, $1.path) }
    }
}

/// Making a socket path free for a new agent: a socket left by a process that died without
/// cleaning up (nobody listens at it) is removed; a live one is refused.
enum StaleSocket {
    static func clear(_ path: String) throws(AttachError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw AttachError(.unsafe, "\(path) exists and is not a socket; remove it")
        }
        let probe = try UnixSocket.make()
        defer { close(probe) }
        do throws(AttachError) {
            try UnixSocket.connect(probe, to: path)
        } catch let error where error.kind == .stale || error.kind == .notFound {
            // Nobody listens: left by a process that crashed or was killed.
            unlink(path)
            return
        }
        throw AttachError(.unsafe, "\(path) is already served by a running agent")
    }
}
