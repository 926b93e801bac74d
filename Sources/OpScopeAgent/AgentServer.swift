import EventCoding
import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// The agent: serves an event source over a Unix socket to consoles in other processes
/// (`opscope attach`), and carries out their commands unless read-only.
///
/// ```swift
/// let agent = try AgentServer.start(monitor)   // $XDG_RUNTIME_DIR/opscope/PID.sock
/// ...
/// agent.stop()                                  // the socket is removed
/// ```
///
/// The agent serves until `stop()` or the end of the process, whether or not the program keeps
/// the returned object. Each console gets its own subscription (its history first, then live events) and its own
/// bounded output; nothing a console does can block the program or another console. The socket
/// is 0600 in a 0700 directory, and every connection's peer must be this user or root.
public final class AgentServer: @unchecked Sendable {
    // Safety: `loop` and `thread` are set in `init`; `stopped` is guarded by `lock`.
    /// The path consoles attach to.
    public let socketPath: String
    /// How the agent serves.
    public let configuration: AgentConfiguration
    private let loop: AgentLoop
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false

    /// Starts serving `source` (the program's monitor) at `configuration.path()`. A socket left
    /// there by a process that died is replaced; a live one is an error.
    public static func start(_ source: any EventSource, configuration: AgentConfiguration = AgentConfiguration()) throws(AttachError) -> AgentServer {
        try AgentServer(source: source, configuration: configuration)
    }

    private init(source: any EventSource, configuration: AgentConfiguration) throws(AttachError) {
        self.configuration = configuration
        socketPath = configuration.path()
        if configuration.socketPath == nil { try configuration.directory.prepare() }
        try StaleSocket.clear(socketPath)
        listener = try UnixSocket.make()
        do throws(AttachError) {
            // Created 0600 from the start (the umask applies to bind): no moment open to others.
            let previous = umask(0o177)
            defer { umask(previous) }
            try UnixSocket.listen(listener, at: socketPath)
        } catch {
            close(listener)
            throw error
        }
        UnixSocket.setNonBlocking(listener)
        let header = StreamHeader(program: configuration.program, processID: Int(getpid()),
                                  startedAt: WallClockTime.now(), startMonitorTime: source.now())
        do throws(AttachError) {
            loop = try AgentLoop(source: source, configuration: configuration, listener: listener, header: header)
        } catch {
            close(listener)
            unlink(socketPath)
            throw error
        }
        if configuration.removeAtExit { ExitCleanup.register(socketPath) }
        let loop = self.loop
        let thread = Thread {
            AgentServer.nameThisThread("opscope.agent")
            loop.run()
        }
        thread.name = "opscope.agent"
        thread.start()
    }

    /// Stops serving: attached consoles are told the program's stream ended, the socket is
    /// removed. Safe to call more than once.
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return }
        loop.stop()
        close(listener)
        unlink(socketPath)
        ExitCleanup.unregister(socketPath)
    }

    /// What the agent has done so far.
    public var statistics: AgentStatistics { loop.currentStatistics }

    /// Makes the loop look at its connections now (tests that move a manual clock).
    package func wake() { loop.wake() }

    /// Names the calling thread for `top -H`, `ps -L` and /proc (Foundation's `Thread.name`
    /// does not reach the kernel here, and `pthread_setname_np` is not in the Glibc module).
    static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
    }
}

/// Sockets to remove when the process exits normally (`exit`, the end of `main`): an agent the
/// program never stopped leaves nothing behind. A process killed outright leaves its socket; the
/// next agent at that path finds nobody listening and replaces it.
enum ExitCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var installed = false

    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
        if !installed {
            installed = true
            atexit { ExitCleanup.removeAll() }
        }
    }

    static func unregister(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    /// Also called from a program's signal handling before it exits.
    static func removeAll() {
        lock.lock()
        let remaining = paths
        paths = []
        lock.unlock()
        for path in remaining { unlink(path) }
    }
}
