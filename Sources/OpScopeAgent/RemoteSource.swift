import Foundation
import OperationEvents

/// A program in another process, attached to over its agent's socket: an `EventSource` that a
/// dashboard session runs on as on the local monitor. Commands travel over the socket with
/// request ids and come back as the agent's reply (done, or refused with the reason).
///
/// When the program exits or the connection drops, the source says so (`sourceInfo.status`),
/// keeps what it had, and, unless told not to, connects again to the same path; the stream then
/// starts over from the program's keyframe. A program's own socket in the user's directory
/// (`PID.sock`, where a program serves by default) is not where the program comes back, since
/// started again it has another process id: once that socket is gone the source attaches to the
/// same program (same name, same user) started again in that directory, the newest if several.
public final class RemoteSource: EventSource, ProgramChangeDescribing, @unchecked Sendable {
    // Safety: `links` and `primaryClaimed` are guarded by `lock`.
    /// The socket attached to: the one connected to first, or that of the program started again.
    public var path: String { primary.currentPath }
    /// Whether a dropped connection is made again.
    public let reconnects: Bool
    private let client: String
    /// Where the program started again is looked for (nil: at its path only).
    private let restarts: RestartSearch?
    private let lock = NSLock()
    /// The first link (made while connecting, so that errors come out at once), then one per
    /// further subscription.
    private var links: [RemoteLink] = []
    private var primaryClaimed = false
    private let primary: RemoteLink

    /// Whether this console refuses to send commands (`opscope attach --readonly`): a console
    /// for watching a program, which a stray key cannot change.
    public let readOnly: Bool

    /// Why a read-only console sends no command.
    public static let readOnlyReason = "read-only console (opscope attach --readonly): it sends the program no commands"

    /// Connects to the agent at `path` and greets it; throws one clear error (nobody there,
    /// another user's program, a version mismatch, a refusal). `readOnly`: the console refuses
    /// every command itself, whatever the program's agent would take.
    public convenience init(path: String, reconnects: Bool = true, client: String = "opscope", readOnly: Bool = false) throws(AttachError) {
        try self.init(path: path, reconnects: reconnects, client: client, readOnly: readOnly, restartDirectory: .standard())
    }

    /// The same, looking for a program started again in `restartDirectory` instead of the
    /// user's directory (tests).
    package init(path: String, reconnects: Bool = true, client: String = "opscope", readOnly: Bool = false,
                 restartDirectory: SocketDirectory) throws(AttachError) {
        self.reconnects = reconnects
        self.client = client
        self.readOnly = readOnly
        restarts = RestartSearch(path: path, directory: restartDirectory)
        primary = try RemoteLink(path: path, mode: .stream, reconnects: reconnects, client: client, restarts: restarts)
        links = [primary]
    }

    /// The program, as its agent described itself at the latest greeting.
    public var welcome: WelcomeMessage { primary.currentWelcome }

    /// What the dashboard shows about the source: remote, the program and its pid, whether it
    /// takes commands, and while the connection is down, that it is.
    public var sourceInfo: SourceInfo {
        // One look at the link: a reconnection changes the program and the status together.
        let (welcome, _, status) = primary.currentWelcomeAndStatus
        return SourceInfo(kind: .remote, program: Self.programText(welcome.program, welcome.processID),
                          commandsRefused: readOnly ? Self.readOnlyReason : welcome.commandsRefused, status: status)
    }

    /// How `sourceInfo` names a program: `NAME (pid N)`.
    private static func programText(_ program: String, _ processID: Int32) -> String { "\(program) (pid \(processID))" }

    /// The program was started again and attached to again (at its new socket, or at a path of
    /// its own): the status line says so rather than that it is another program.
    public func programChange(from previous: String, to current: String) -> String? {
        guard let restart = primary.currentRestart, current == Self.programText(restart.program, restart.processID),
              previous.hasPrefix("\(restart.program) (pid ") else { return nil }
        return "program \(restart.program) restarted as pid \(restart.processID), attached again"
    }

    /// The dashboard's caption for an attached program: `attached to NAME (pid N)`, with
    /// `, read-only` when its agent refuses commands. Made from `sourceInfo` each time it names
    /// another program, so that it follows a reconnection to another program at the same socket.
    @Sendable public static func caption(_ info: SourceInfo) -> String {
        "attached to \(info.program)\(info.commandsRefused == nil ? "" : ", read-only")"
    }

    /// Whether the connection is up; when it is not, whether it is being made again.
    public var connection: ConnectionState {
        switch primary.currentStatus {
        case .connected: .connected
        case .reconnecting(let reason): .reconnecting(reason)
        case .ended(let reason): .ended(reason)
        }
    }

    /// The state of a remote source's connection.
    public enum ConnectionState: Sendable, Equatable {
        /// Up.
        case connected
        /// Down (the reason, e.g. `program exited`), being made again.
        case reconnecting(String)
        /// Down for good.
        case ended(String)
    }

    /// The first subscription takes the connection made while connecting; later ones connect
    /// anew (each console-side consumer has its own subscription in the program).
    public func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        lock.lock()
        defer { lock.unlock() }
        if !primaryClaimed {
            primaryClaimed = true
            return RemoteSubscription(link: primary, consumer: request.consumer)
        }
        guard let link = try? RemoteLink(path: primary.currentPath, mode: .stream, reconnects: reconnects, client: client, restarts: restarts) else {
            return RemoteSubscription(link: nil, consumer: request.consumer)
        }
        links.append(link)
        return RemoteSubscription(link: link, consumer: request.consumer)
    }

    /// Sends the command to the program and waits for its reply.
    public func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        // Refused here, not sent: a read-only console never reaches the program's commands.
        if readOnly { return .failure(CommandError(.unsupported, Self.readOnlyReason)) }
        return primary.perform(command)
    }

    /// The program's work templates.
    public var workTemplates: [WorkTemplateInfo] { primary.currentWelcome.templates }

    /// The program's clock: its last reading plus the time since.
    public func now() -> UInt64 { primary.now() }

    /// Ends every connection.
    public func close() {
        lock.lock()
        let all = links
        lock.unlock()
        for link in all { link.close() }
    }

    /// Connections made by the first link (1, then one more per reconnection).
    package var connectionsMade: Int {
        primary.connectionCount
    }
}

/// A subscription over one link; a subscription whose connection could not be made is empty.
final class RemoteSubscription: EventSubscription, @unchecked Sendable {
    let consumer: String
    private let link: RemoteLink?

    init(link: RemoteLink?, consumer: String) {
        self.link = link
        self.consumer = consumer
    }

    func next(limit: Int) -> EventBatch {
        link?.take(limit: limit) ?? EventBatch(events: [], droppedTotal: 0)
    }

    func resynchronize() { link?.resynchronize() }

    func close() { link?.close() }
}
