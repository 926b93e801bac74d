@_exported import OpScopeAgent
import DashboardModel
import DashboardSession
import Foundation
import NcursesBackend
import OperationEvents
import TerminalKit

/// Lets consoles in other terminals watch this program (`opscope attach`): an agent serving the
/// monitor over a Unix socket, off until started.
///
/// ```swift
/// let monitor = OperationMonitor()
/// try OpScopeAgent.start(monitor)                 // serves $XDG_RUNTIME_DIR/opscope/PID.sock
/// ```
public enum OpScopeAgent {
    /// Starts serving `source` at the user's socket directory (`PID.sock`); with `readOnly`,
    /// consoles may watch but not command. The agent runs until `stop()` or the process ends
    /// (its socket is removed at a normal exit).
    @discardableResult
    public static func start(_ source: any EventSource, readOnly: Bool = false) throws -> AgentServer {
        try AgentServer.start(source, configuration: AgentConfiguration(readOnly: readOnly))
    }

    /// Starts serving `source` as `configuration` says (a socket path of its own, bounds).
    @discardableResult
    public static func start(_ source: any EventSource, configuration: AgentConfiguration) throws -> AgentServer {
        try AgentServer.start(source, configuration: configuration)
    }
}

/// The dashboard on a program in another process.
public enum OpScopeAttach {
    /// How an attached dashboard ended.
    public enum Ending: Sendable, Equatable {
        /// The person quit.
        case quit
        /// A terminating signal arrived.
        case signal(Int32)
        /// The program went away and the source does not reconnect (the reason).
        case programGone(String)
        /// The person left the choice of a program (q or Esc) without attaching to one.
        case nothingChosen
    }

    /// Shows the dashboard on `remote` in this terminal until the person quits; a source that
    /// does not reconnect also ends it when the program goes away.
    public static func run(_ remote: RemoteSource, options: SessionOptions = SessionOptions()) throws -> Ending {
        try console(options) { _ in .attached(remote) }
    }

    /// Lets the person choose one of `programs` in this terminal (↑ ↓ or j k, Enter; q or Esc
    /// leaves: `.nothingChosen`), then shows the dashboard on it as `run(_:options:)` does, on
    /// the same screen. `connect` makes the source for the chosen program (on the dashboard's
    /// thread, the picker still on screen); it is closed when the dashboard ends. What `connect`
    /// throws (the program exited meanwhile) ends it, the terminal restored first.
    public static func run(choosingFrom programs: [AttachableProgram], options: SessionOptions = SessionOptions(),
                           connect: @escaping @Sendable (AttachableProgram) throws -> RemoteSource) throws -> Ending {
        try console(options) { terminal in
            var picker = ProgramPicker(programs, unicode: options.unicode)
            switch picker.run(on: terminal) {
            case .chosen(let program): return .owned(try connect(program))
            case .left: return .ended(.nothingChosen)
            case .signal(let number): return .ended(.signal(number))
            }
        }
    }

    /// What a console shows the dashboard on: a source its caller closes, one the console made
    /// and closes, or none (it ended first).
    private enum Start {
        case attached(RemoteSource)
        case owned(RemoteSource)
        case ended(Ending)
    }

    /// The dashboard's thread with the terminal: `start` decides on it what to show, then the
    /// session runs until the person quits, a signal, or (for a source that does not reconnect)
    /// the program's end.
    private static func console(_ options: SessionOptions,
                                _ start: @escaping @Sendable (NcursesTerminal) throws -> Start) throws -> Ending {
        let outcome = DashboardThread.Outcome()
        let result = EndingBox()
        DashboardThread.start(outcome) { [options] in
            let terminal = try NcursesTerminal(options: TerminalOptions(color: options.color, mouse: options.mouse))
            defer { terminal.stop() }
            let remote: RemoteSource
            var owned = false
            switch try start(terminal) {
            case .attached(let source): remote = source
            case .owned(let source):
                remote = source
                owned = true
            case .ended(let ending):
                result.set(ending)
                return .quit
            }
            defer { if owned { remote.close() } }
            var session = Session(source: remote, options: options)
            while true {
                if let ending = session.step(on: terminal) { return ending }
                if !remote.reconnects, case .ended(let reason) = remote.connection {
                    result.set(.programGone(reason))
                    return .quit
                }
                terminal.waitForInput(seconds: session.idleWait)
            }
        }
        let ending = try outcome.wait()
        if let decided = result.value { return decided }
        switch ending {
        case .quit: return .quit
        case .signal(let number): return .signal(number)
        }
    }

    /// The report of the program's state now: its history (the keyframe the stream starts
    /// with) and the events that came with it. Waits at most `timeout` seconds for the keyframe.
    public static func report(_ remote: RemoteSource, configuration: ModelConfiguration = ModelConfiguration(),
                              timeout: Double = 10) throws -> OpScopeReport {
        let subscription = remote.subscribe(SubscriptionRequest(consumer: "report"))
        defer { subscription.close() }
        var model = DashboardModel(configuration: configuration)
        let deadline = Date(timeIntervalSinceNow: timeout)
        var started = false
        while true {
            let batch = subscription.next(limit: 65_536)
            if batch.start != nil { started = true }
            if started { model.apply(batch) }
            if started, batch.events.isEmpty { break }
            if !started {
                if case .ended(let reason) = remote.connection { throw AttachError(.protocolError, "\(remote.path): \(reason)") }
                guard Date() < deadline else { throw AttachError(.protocolError, "\(remote.path): no state from the program within \(Int(timeout)) s") }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        model.advance(to: remote.now())
        return model.report()
    }

    /// How the console ended when the session's own ending does not say (the program gone, or
    /// nothing chosen), set on the dashboard's thread and read by the caller after it.
    private final class EndingBox: @unchecked Sendable {
        // Safety: `ending` is guarded by `lock`.
        private let lock = NSLock()
        private var ending: Ending?
        func set(_ value: Ending) {
            lock.lock()
            ending = value
            lock.unlock()
        }
        var value: Ending? {
            lock.lock()
            defer { lock.unlock() }
            return ending
        }
    }
}
