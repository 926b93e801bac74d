import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// How an agent serves: where, to how many consoles, with which bounds and deadlines.
public struct AgentConfiguration: Sendable {
    /// Refuse every command (the stream is still served).
    public var readOnly = false
    /// The directory of the socket (`PID.sock` in it), unless `socketPath` is set.
    public var directory = SocketDirectory.standard()
    /// A socket path of the program's choosing instead of `directory/PID.sock` (a program that
    /// restarts under the same path, so that attached consoles come back to it).
    public var socketPath: String?
    /// The program's name, as consoles list it.
    public var program = ProcessInfo.processInfo.processName
    /// Consoles served at once; one more is refused with a message.
    public var maximumClients = 128
    /// Bytes waiting for one console beyond which the agent takes no more events for it: its
    /// subscription then falls behind and loses events (counted), and it starts again from a
    /// keyframe once it reads. Memory per console stays under this plus one keyframe and one batch
    /// (a console that restarts takes both in one turn).
    public var sendBufferLimit = 4 << 20
    /// Events taken from a subscription at a time.
    public var batchLimit = 2_048
    /// Commands of one console being carried out at once; more are refused.
    public var commandsInFlight = 8
    /// Nanoseconds a console has to greet the agent after connecting.
    public var handshakeTimeout: UInt64 = 10_000_000_000
    /// Nanoseconds a frame may take to arrive once its first byte came (a peer that sends a
    /// frame a byte at a time, or stops in the middle, is closed after this).
    public var frameTimeout: UInt64 = 10_000_000_000
    /// Nanoseconds a console may leave bytes unread without taking any: then it is dropped.
    public var stallTimeout: UInt64 = 10_000_000_000
    /// Seconds between two looks at the subscriptions while consoles stream (none: no look).
    public var pumpInterval = 0.02
    /// Nanoseconds of silence after which a streaming console is sent the agent's clock.
    public var clockInterval: UInt64 = 1_000_000_000
    /// Called after each command a console sent was carried out (on the agent's command queue),
    /// e.g. to log what consoles did to the program.
    public var onCommand: (@Sendable (MonitorCommand, Result<CommandReceipt, CommandError>) -> Void)?
    /// Remove the socket when the process exits normally (`exit`, end of `main`).
    public var removeAtExit = true
    /// The clock of the deadlines above (nanoseconds); tests inject a manual one.
    package var clock: @Sendable () -> UInt64 = AgentConfiguration.monotonicNow
    /// The process id and start time (ISO 8601) the agent gives consoles; nil: this process's.
    /// Tests serve as other processes with it (a program started again, another copy of it).
    package var processIdentity: (processID: Int32, startedAt: String)?

    /// The defaults: commands on, the user's directory.
    public init() {}

    /// The defaults, read-only or not.
    public init(readOnly: Bool) {
        self.readOnly = readOnly
    }

    /// The socket path this configuration serves at, for process `pid`.
    public func path(for pid: Int32 = getpid()) -> String {
        socketPath ?? directory.socketPath(for: pid)
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    @Sendable package static func monotonicNow() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

/// What an agent has done so far: for tests, benchmarks and diagnostics.
public struct AgentStatistics: Sendable, Equatable {
    /// Connections accepted (refused ones included).
    public var connectionsAccepted = 0
    /// Consoles connected now.
    public var clientsConnected = 0
    /// Consoles dropped for not reading (their buffer full and untouched for `stallTimeout`).
    public var clientsDropped = 0
    /// Connections refused because their peer was another user.
    public var peersRefused = 0
    /// Connections refused because `maximumClients` were served.
    public var clientsRefusedAsTooMany = 0
    /// Connections closed for a broken frame, an unexpected message, a wrong version or a
    /// missed deadline.
    public var connectionsClosedForErrors = 0
    /// Commands carried out (done or refused by the source).
    public var commandsPerformed = 0
    /// Commands refused by the agent itself (read-only, too many in flight).
    public var commandsRefused = 0
    /// Events sent, over all consoles.
    public var eventsSent = 0
    /// Keyframes sent.
    public var keyframesSent = 0
    /// The most bytes ever waiting for one console.
    public var largestSendBuffer = 0
    /// The most bytes ever held for one console's incomplete incoming frame.
    public var largestReceiveBuffer = 0
    /// The largest keyframe sent, in bytes: what a console's buffer may hold on top of
    /// `sendBufferLimit` and one batch when it restarts from a keyframe.
    public var largestKeyframe = 0
    /// Turns of the agent's loop completed: a test that moved the clock waits for the next turn.
    public var turns = 0

    /// All zero.
    public init() {}
}
