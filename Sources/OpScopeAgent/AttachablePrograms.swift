import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program that can be attached to, as its agent describes itself.
public struct AttachableProgram: Sendable, Equatable {
    /// The agent's socket.
    public var path: String
    /// The process id.
    public var processID: Int32
    /// The program's name.
    public var program: String
    /// When the process started (UTC, ISO 8601).
    public var startedAt: String
    /// The names of its live queues.
    public var queues: [String]
    /// Whether it refuses commands.
    public var readOnly: Bool

    /// A program as described (by its agent, or by a test).
    package init(path: String, processID: Int32, program: String, startedAt: String, queues: [String], readOnly: Bool) {
        self.path = path
        self.processID = processID
        self.program = program
        self.startedAt = startedAt
        self.queues = queues
        self.readOnly = readOnly
    }
}

/// Finding the programs to attach to: every socket in the user's directory is asked for its
/// agent's description. Sockets of processes that are gone are removed on the way.
public enum AttachablePrograms {
    /// The programs serving in `directory`, in order of process id, and one line for each socket
    /// that did not answer (with why).
    public static func list(in directory: SocketDirectory = .standard()) -> (programs: [AttachableProgram], problems: [String]) {
        var programs: [AttachableProgram] = []
        var problems: [String] = []
        for (path, pid) in directory.sockets() {
            do throws(AttachError) {
                programs.append(try describe(path: path))
            } catch {
                if error.kind == .stale, let pid, !UnixSocket.processExists(pid) {
                    // Left by a process that died without cleaning up.
                    unlink(path)
                    continue
                }
                problems.append("\(path): \(error.message)")
            }
        }
        return (programs, problems)
    }

    /// The description of the agent at `path` (a greeting in `info` mode).
    public static func describe(path: String, timeout: Double = 2) throws(AttachError) -> AttachableProgram {
        let connected = try RemoteHandshake.connect(path: path, mode: .info, client: "opscope attach", timeout: timeout)
        close(connected.descriptor)
        let welcome = connected.welcome
        return AttachableProgram(path: path, processID: welcome.processID, program: welcome.program, startedAt: welcome.startedAt,
                                 queues: welcome.queues ?? [], readOnly: welcome.commandsRefused != nil)
    }

    /// The socket to attach to for `argument`: a path (anything with a `/`, or a file that
    /// exists), or a process id whose socket is in `directory` (or, served at a path of its own,
    /// the socket it listens on). A path that is not a socket is
    /// refused naming what it is.
    public static func path(for argument: String, in directory: SocketDirectory = .standard()) throws(AttachError) -> String {
        if argument.contains("/") || (Int32(argument) == nil && FileManager.default.fileExists(atPath: argument)) {
            try refuseNonSocket(argument)
            return argument
        }
        if let number = Int64(argument), number <= 0 {
            throw AttachError(.notFound, "\(argument) is not a process id: process ids are positive")
        }
        guard let pid = Int32(argument), pid > 0 else {
            throw AttachError(.notFound, "'\(argument)' is neither a process id nor a socket path")
        }
        let path = directory.socketPath(for: pid)
        guard FileManager.default.fileExists(atPath: path) else {
            let alive = UnixSocket.processExists(pid)
            // Served at a path of its own (--socket PATH): the process's listening socket.
            if alive, let own = ProcessSockets.listeningPaths(of: pid).first(where: { FileManager.default.fileExists(atPath: $0) }) {
                return own
            }
            throw AttachError(.notFound, alive
                ? "process \(pid) serves no OpScope agent (no \(path)); it must call OpScopeAgent.start(monitor) (or run a demo with --serve)"
                : "no process \(pid)")
        }
        return path
    }

    /// A path that exists but is not a socket is named for what it is (connecting would only say
    /// that nobody listens, as for a socket its program left behind); a recording is pointed to
    /// the commands that read one.
    private static func refuseNonSocket(_ path: String) throws(AttachError) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw AttachError(.notFound, "\(path) is a directory, not an agent's socket")
        }
        var message = "\(path) is a file, not an agent's socket"
        if looksLikeRecording(path) {
            message += "; it looks like a recording: opscope report \(path) reports on it, opscope replay \(path) shows it"
        }
        throw AttachError(.notFound, message)
    }

    /// True when the file starts as an OpScope event stream's header does.
    private static func looksLikeRecording(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 256)) ?? Data(), as: UTF8.self)
        return start.hasPrefix("{") && start.contains("\"opscope-events\"")
    }
}
