import EventCoding
import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an agent, kept up by a reader thread: frames are decoded into a bounded
/// inbox of events (the subscription's), replies are matched to their commands, and when the
/// connection drops the link says so and, if asked, connects again: to the same path, or, for
/// a program's own socket in the user's directory, to the same program started again.
final class RemoteLink: @unchecked Sendable {
    // Safety: mutable state is guarded by `lock`; the descriptor is only closed with both `lock`
    // and `writeLock` held, and written with `writeLock` held, so no write reaches a closed one.
    /// The socket connected to (another one once the program was found started again).
    var path: String
    let mode: AttachMode
    /// Where the program is looked for once its socket is gone; nil: only its path is tried.
    let restarts: RestartSearch?
    let reconnects: Bool
    let client: String
    /// Events the inbox holds before it gives them up and asks for a keyframe.
    let inboxCapacity: Int
    let lock = NSCondition()
    let writeLock = NSLock()
    var descriptor: Int32 = -1
    var welcome: WelcomeMessage
    var status = LinkStatus.connected
    var closed = false
    var inbox = Inbox()
    var replies: [UInt64: Result<CommandReceipt, CommandError>] = [:]
    var waiting: Set<UInt64> = []
    private var nextRequest: UInt64 = 1
    /// The agent's clock at a local moment, to tell the time between frames.
    var clockBase: (remote: UInt64, local: UInt64) = (0, 0)
    var latestRemoteTime: UInt64 = 0
    /// Connections made (1 for the first).
    var connections = 0
    /// Set when the latest connection found the program of the one before with another process
    /// id (it was started again), for the status line.
    var restart: (program: String, processID: Int32)?

    /// Whether the link is up, and if not, why.
    enum LinkStatus: Equatable {
        case connected
        /// Down, trying again.
        case reconnecting(String)
        /// Down for good (no reconnecting, or closed).
        case ended(String)
    }

    /// Events decoded and not yet taken, with where to start from.
    struct Inbox {
        var start: StreamStart?
        var events: [MonitorEvent] = []
        var droppedTotal = 0
        /// Events were given up here: the rest are dropped until a keyframe comes.
        var awaitingStart = false
    }

    /// Connects (the greeting included) and starts the reader; throws what stopped the greeting.
    /// `restarts`: where to look for the program started again once its socket is gone.
    init(path: String, mode: AttachMode, reconnects: Bool, client: String, restarts: RestartSearch? = nil,
         inboxCapacity: Int = 262_144) throws(AttachError) {
        self.path = path
        self.mode = mode
        self.restarts = restarts
        self.reconnects = reconnects
        self.client = client
        self.inboxCapacity = inboxCapacity
        let connected = try RemoteHandshake.connect(path: path, mode: mode, client: client)
        welcome = connected.welcome
        adopt(connected, at: path)
        let thread = Thread { [self] in read(from: connected) }
        thread.name = "opscope.remote"
        thread.start()
    }

    var currentStatus: LinkStatus {
        lock.lock()
        defer { lock.unlock() }
        return status
    }

    var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections
    }

    /// The program and the status in one look (a reconnection changes them together), with the
    /// status's line for the dashboard.
    var currentWelcomeAndStatus: (welcome: WelcomeMessage, status: LinkStatus, text: String?) {
        lock.lock()
        defer { lock.unlock() }
        return (welcome, status, text(of: status, program: welcome.program, path: path))
    }

    var currentPath: String {
        lock.lock()
        defer { lock.unlock() }
        return path
    }

    /// The program started again that the latest connection found, if it did.
    var currentRestart: (program: String, processID: Int32)? {
        lock.lock()
        defer { lock.unlock() }
        return restart
    }

    var currentWelcome: WelcomeMessage {
        lock.lock()
        defer { lock.unlock() }
        return welcome
    }

    /// The agent's clock now: its last reading plus the time since (never going back). It runs
    /// on while the link is down: a dashboard paces its frames by it, and keeps its model still
    /// by itself while the source reports a status.
    func now() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let estimate = clockBase.remote &+ (AgentConfiguration.monotonicNow() &- clockBase.local)
        latestRemoteTime = max(latestRemoteTime, estimate)
        return latestRemoteTime
    }

    /// Takes up to `limit` events, with where to start from when the stream (re)started.
    func take(limit: Int) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        let count = min(max(0, limit), inbox.events.count)
        let events = Array(inbox.events.prefix(count))
        inbox.events.removeFirst(count)
        let batch = EventBatch(start: inbox.start, events: events, droppedTotal: inbox.droppedTotal)
        inbox.start = nil
        return batch
    }

    /// Asks the agent for a fresh keyframe.
    func resynchronize() {
        _ = send(Messages.frame(ResyncMessage()))
    }

    /// Sends a command and waits for its reply (at most `timeout` seconds).
    func perform(_ command: MonitorCommand, timeout: Double = 10) -> Result<CommandReceipt, CommandError> {
        lock.lock()
        guard status == .connected else {
            lock.unlock()
            return .failure(CommandError(.unsupported, "not sent: \(text(of: status, program: welcome.program, path: path) ?? "not connected")"))
        }
        let id = nextRequest
        nextRequest += 1
        waiting.insert(id)
        lock.unlock()
        guard send(Messages.frame(CommandMessage(id: id, command: command))) else {
            lock.lock()
            waiting.remove(id)
            lock.unlock()
            return .failure(CommandError(.unsupported, "not sent: the connection to the program is lost"))
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer {
            waiting.remove(id)
            replies[id] = nil
            lock.unlock()
        }
        while replies[id] == nil, status == .connected, !closed {
            if !lock.wait(until: deadline) { break }
        }
        if let reply = replies[id] { return reply }
        if status != .connected || closed {
            return .failure(CommandError(.unsupported, "the program went away before replying"))
        }
        return .failure(CommandError(.unsupported, "no reply from the program within \(Int(timeout)) s (the command may still run)"))
    }

    /// Ends the link: the reader stops, nothing reconnects.
    func close() {
        lock.lock()
        closed = true
        if case .connected = status { status = .ended("closed") }
        let current = descriptor
        lock.broadcast()
        lock.unlock()
        if current >= 0 { shutdown(current, Int32(SHUT_RDWR)) }
    }

    /// One line for the dashboard while the link is down (`program` and `path`: the ones last
    /// connected to). Reconnecting to a program's own socket in the user's directory says that
    /// the program started again is waited for. At a socket named after a process id elsewhere
    /// (`PID.sock` in a directory of the program's choosing) it says what to do: a program
    /// started again has another process id, so another socket, and is never found at this one.
    func text(of status: LinkStatus, program: String, path: String) -> String? {
        switch status {
        case .connected: nil
        case .reconnecting(let reason) where restarts != nil:
            "\(reason) — last state kept, reconnecting… (to \(program) when it starts again)"
        case .reconnecting(let reason) where Self.isProcessSocket(path):
            "\(reason) — last state kept, reconnecting… (started again, it serves at a new socket: q, then opscope attach; "
                + "serve with --socket PATH to be found again)"
        case .reconnecting(let reason): "\(reason) — last state kept, reconnecting…"
        case .ended(let reason): "\(reason) — last state kept"
        }
    }

    /// Whether `path` names a process's own socket, `PID.sock`.
    static func isProcessSocket(_ path: String) -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasSuffix(".sock") else { return false }
        let stem = name.dropLast(5)
        return !stem.isEmpty && stem.allSatisfy(\.isASCII) && stem.allSatisfy(\.isNumber)
    }

    private func send(_ frame: [UInt8]) -> Bool {
        writeLock.lock()
        defer { writeLock.unlock() }
        lock.lock()
        let current = descriptor
        lock.unlock()
        guard current >= 0 else { return false }
        return UnixSocket.writeAll(current, frame)
    }

    /// Takes a connection made to the agent at `socket` (the same path, or the socket of the
    /// program started again).
    func adopt(_ connected: RemoteHandshake.Connected, at socket: String) {
        lock.lock()
        if connections > 0 {
            let again = connected.welcome.program == welcome.program && connected.welcome.processID != welcome.processID
            restart = again ? (connected.welcome.program, connected.welcome.processID) : nil
        }
        path = socket
        descriptor = connected.descriptor
        welcome = connected.welcome
        clockBase = (connected.welcome.now, AgentConfiguration.monotonicNow())
        latestRemoteTime = max(latestRemoteTime, connected.welcome.now)
        status = .connected
        connections += 1
        lock.broadcast()
        lock.unlock()
        // Reads wait as long as the program is quiet; writes (commands) give up after a while.
        var forever = timeval(tv_sec: 0, tv_usec: 0)
        _ = setsockopt(connected.descriptor, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
    }
}
