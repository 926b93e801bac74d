import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a command with `posix_spawn`, its output read through a pipe, with a deadline.
///
/// Why not Foundation's `Process`: on Linux it learns that a child exited when a socket it hands
/// to the child closes. `tmux new-session` forks the tmux server, which keeps every inherited
/// descriptor above 2 open, so when a call has to start the server, that socket stays open as
/// long as the server lives and `waitUntilExit()` never returns (seen as a test run that hung
/// until its 90-minute limit). Here the child gets only /dev/null, the output pipe and nothing
/// else, and every wait has a deadline.
enum ChildProcess {
    struct Result {
        var output: String
        /// The exit status, or nil if the command could not be started, was killed by a
        /// signal, or ran past its deadline.
        var status: Int32?
        var timedOut = false
    }

    static func run(_ arguments: [String], timeout: Double) -> Result {
        guard !arguments.isEmpty else { return Result(output: "", status: nil) }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return Result(output: "", status: nil) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end may leak into the child except as its standard output (dup2 clears the flag).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for descriptor in inheritableDescriptors() where descriptor != readEnd && descriptor != writeEnd {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, &envp)
        close(writeEnd)
        guard spawned == 0 else { return Result(output: "", status: nil) }

        let deadline = Date().addingTimeInterval(timeout)
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        reading: while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { timedOut = true; break }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = read(readEnd, &buffer, buffer.count)
            switch count {
            case 0: break reading
            case ..<0: if errno == EINTR { continue } else { break reading }
            default: output.append(contentsOf: buffer[0..<count])
            }
        }

        var status: Int32 = 0
        while !timedOut {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0, errno != EINTR { return Result(output: String(decoding: output, as: UTF8.self), status: nil) }
            if Date() >= deadline { timedOut = true; break }
            usleep(2_000)
        }
        if timedOut {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return Result(output: String(decoding: output, as: UTF8.self), status: nil, timedOut: true)
        }
        // Exited normally: the low 7 bits are 0 and the status is in the next byte.
        let exited = status & 0x7f == 0
        return Result(output: String(decoding: output, as: UTF8.self), status: exited ? (status >> 8) & 0xff : nil)
    }

    /// The directory the children see as XDG_CONFIG_HOME: empty, so that the config file of
    /// whoever runs the tests changes nothing the tests look at. A test that wants a config file
    /// writes one and names it (`--config FILE`, or `XDG_CONFIG_HOME=DIR` in the command).
    static let configHome: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-tests-config-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The children's environment (`NAME=value`): this process's as it is now (tests change
    /// TERM), with XDG_CONFIG_HOME at `configHome` (tmux passes it on to its panes).
    private static var environment: [String] {
        var variables: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let variable = String(cString: pointer)
            if !variable.hasPrefix("XDG_CONFIG_HOME=") { variables.append(variable) }
            entry += 1
        }
        return variables + ["XDG_CONFIG_HOME=" + configHome]
    }

    /// This process's open descriptors above 2 that a child would inherit (not close-on-exec).
    private static func inheritableDescriptors() -> [Int32] {
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        // The listing's own descriptor is closed by now: keep only the ones still open.
        return listed.compactMap { Int32($0) }.filter { descriptor in
            guard descriptor > 2 else { return false }
            let flags = fcntl(descriptor, F_GETFD)
            return flags >= 0 && flags & FD_CLOEXEC == 0
        }
    }
}
