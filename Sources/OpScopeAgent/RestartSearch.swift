import EventCoding
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finding a program that was started again. At its default socket, `PID.sock` in the user's
/// directory, a program started again has another process id and so another socket: a console
/// that lost it looks in that directory for the same program (same name, same user) and attaches
/// to it. A socket path of the program's choosing (`--socket PATH`) is where it comes back, so
/// it is never searched for.
struct RestartSearch: Sendable {
    /// Where the program serves, and where it is looked for.
    let directory: SocketDirectory
    /// This console's user: a candidate's socket must be theirs.
    let user: UInt32

    /// The search for a console attached at `path`: nil unless `path` is a `PID.sock` directly in
    /// `directory` (the user's, `SocketDirectory.standard()`, unless a test gives another).
    init?(path: String, directory: SocketDirectory = .standard(), user: UInt32 = geteuid()) {
        let socket = URL(fileURLWithPath: path).standardizedFileURL
        guard RemoteLink.isProcessSocket(path),
              socket.deletingLastPathComponent().path == URL(fileURLWithPath: directory.path).standardizedFileURL.path
        else { return nil }
        self.directory = directory
        self.user = user
    }

    /// A program serving in the directory, as the search weighs it.
    struct Candidate: Sendable, Equatable {
        /// Its socket.
        var path: String
        var processID: Int32
        var program: String
        /// When it started (ISO 8601, as its agent says).
        var startedAt: String
        /// The uid that owns its socket.
        var owner: UInt32
    }

    /// The program to attach to in place of `lost`, among `candidates`: the same name and the
    /// same user, started no earlier than `lost` (one started before it is another copy of the
    /// program that was running all along, not the one started again); of several, the newest,
    /// and of equal start times the higher process id. Nil when none fits.
    static func choose(among candidates: [Candidate], replacing lost: WelcomeMessage, user: UInt32) -> Candidate? {
        let lostStart = WallClockTime(iso8601: lost.startedAt)
        func started(_ candidate: Candidate) -> WallClockTime? { WallClockTime(iso8601: candidate.startedAt) }
        let fitting = candidates.filter { candidate in
            guard candidate.program == lost.program, candidate.owner == user, let start = started(candidate) else { return false }
            return lostStart.map { start >= $0 } ?? true
        }
        return fitting.max { first, second in
            (started(first)!, first.processID) < (started(second)!, second.processID)
        }
    }

    /// The socket of the program started in place of `lost` (last served at `lostPath`), if it
    /// serves yet. Sockets asked once and found to be another program are in `ruledOut` (by path
    /// and inode: a program's name and start never change), so that a console waiting for hours
    /// does not ask every program twice a second; a socket that did not answer is asked again
    /// next time (a program that is starting binds its socket before it listens).
    func find(replacing lost: WelcomeMessage, lostPath: String, ruledOut: inout Set<String>) -> Candidate? {
        var candidates: [Candidate] = []
        for (path, _) in directory.sockets() where path != lostPath {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { continue }
            let key = "\(path) \(status.st_ino)"
            if ruledOut.contains(key) { continue }
            guard let program = try? AttachablePrograms.describe(path: path) else { continue }
            let candidate = Candidate(path: path, processID: program.processID, program: program.program,
                                      startedAt: program.startedAt, owner: status.st_uid)
            if Self.choose(among: [candidate], replacing: lost, user: user) == nil {
                ruledOut.insert(key)
            } else {
                candidates.append(candidate)
            }
        }
        return Self.choose(among: candidates, replacing: lost, user: user)
    }
}
