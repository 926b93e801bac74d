import DashboardModel
import DashboardUI
import Foundation
@_exported import NcursesBackend
import OperationEvents
import TerminalKit

/// Runs the dashboard in the program's terminal, or reports the state without one.
///
/// ```swift
/// let monitor = OperationMonitor()
/// let queue = ObservedOperationQueue(monitor: monitor, name: "images")
/// try OpScopeDashboard.run(monitor)          // until q
/// ```
public enum OpScopeDashboard {
    /// How the dashboard ended.
    public enum Ending: Sendable, Equatable {
        /// `q`, F10 or `:quit`.
        case quit
        /// A terminating signal (SIGINT, SIGTERM, SIGHUP); the terminal was restored first.
        case signal(Int32)
    }

    /// Shows the dashboard until the person quits or a terminating signal arrives. Call it from
    /// the main thread: while it waits for keys it runs the main run loop, so that work on
    /// `OperationQueue.main` keeps running. The terminal is restored however it ends.
    @discardableResult
    public static func run(_ monitor: any MonitorConnection, options: DashboardOptions = DashboardOptions()) throws -> Ending {
        let terminal = try NcursesTerminal(options: TerminalOptions(color: options.color, mouse: options.mouse))
        defer { terminal.stop() }
        var session = Session(monitor: monitor, options: options)
        return session.run(terminal)
    }

    /// The model's report of the monitor's current state (a snapshot, then the events since).
    public static func report(_ monitor: any MonitorConnection, configuration: ModelConfiguration = ModelConfiguration()) -> DashboardReport {
        var model = DashboardModel(configuration: configuration)
        model.resync(from: monitor.snapshot())
        model.apply(monitor.drainEvents(limit: .max))
        model.advance(to: monitor.now())
        return model.report()
    }
}

/// One dashboard session: the loop that moves events into the model, keys into commands, and
/// frames to the terminal.
struct Session {
    let monitor: any MonitorConnection
    let options: DashboardOptions
    var model: DashboardModel
    /// The model as shown while the display is paused (the live one keeps reducing).
    var frozen: DashboardModel?
    var dashboard: Dashboard
    let screen: DashboardScreen

    init(monitor: any MonitorConnection, options: DashboardOptions) {
        self.monitor = monitor
        self.options = options
        model = DashboardModel(configuration: options.model)
        model.resync(from: monitor.snapshot())
        dashboard = Dashboard(templates: monitor.workTemplates, mouseEnabled: options.mouse)
        screen = DashboardScreen(theme: Theme(unicode: options.unicode, color: options.color), caption: options.caption)
    }

    mutating func run(_ terminal: NcursesTerminal) -> OpScopeDashboard.Ending {
        let frameInterval = 1_000_000_000 / UInt64(max(1, min(120, options.framesPerSecond)))
        var dirty = true
        var fullRedraw = true
        var lastFrame: UInt64 = 0
        var lastClockTick: UInt64 = 0
        while true {
            if let signal = terminal.pendingSignal { return .signal(signal) }
            // Keys first: a person's input wins over drawing.
            while let key = terminal.readKey() {
                let shown = frozen ?? model
                let action = dashboard.handle(key, model: shown)
                if action.quit { return .quit }
                if let command = action.command {
                    // Commands run user code (cancel, factories) on this thread, never under a lock of ours.
                    dashboard.commandFinished(monitor.perform(command))
                }
                if action.fullRedraw { fullRedraw = true }
                if action.redraw { dirty = true }
            }
            if dashboard.state.paused, frozen == nil { frozen = model }
            if !dashboard.state.paused { frozen = nil }
            // Events: drain what is there (the buffer is bounded; a loss re-synchronises).
            let batch = monitor.drainEvents(limit: 16_384)
            if model.apply(batch) { model.resync(from: monitor.snapshot()) }
            let now = monitor.now()
            if !batch.events.isEmpty, frozen == nil { dirty = true }
            // Durations on screen move with the clock: a quiet screen with executing work still
            // refreshes four times a second, an idle one once a second.
            if now &- lastClockTick >= 250_000_000 {
                model.advance(to: now)
                lastClockTick = now
                if frozen == nil { dirty = true }
            }
            if dirty, now &- lastFrame >= frameInterval || fullRedraw {
                let shown = frozen ?? model
                dashboard.keepSelectionValid(shown)
                let (buffer, map) = screen.compose(shown, dashboard, width: terminal.size.width, height: terminal.size.height)
                dashboard.map = map
                terminal.draw(buffer, full: fullRedraw)
                lastFrame = now
                dirty = false
                fullRedraw = false
            }
            // Wait without starving the main queue: the main run loop runs its work meanwhile.
            let pause = dirty ? 0.005 : 0.02
            if Thread.isMainThread {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: pause))
            } else {
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }
}

extension OpScopeDashboard {
    /// Reduces the monitor's events for `seconds`, then returns the report (headless: for
    /// `opscope report` and for programs that want the state in-process).
    public static func observe(_ monitor: any MonitorConnection, for seconds: Double,
                               configuration: ModelConfiguration = ModelConfiguration()) -> DashboardReport {
        var model = DashboardModel(configuration: configuration)
        model.resync(from: monitor.snapshot())
        let deadline = Date().addingTimeInterval(max(0, seconds))
        repeat {
            if model.apply(monitor.drainEvents(limit: 65_536)) { model.resync(from: monitor.snapshot()) }
            if Date() >= deadline { break }
            Thread.sleep(forTimeInterval: min(0.05, max(0, deadline.timeIntervalSinceNow)))
        } while true
        model.advance(to: monitor.now())
        return model.report()
    }
}

/// The reason the dashboard cannot start here (standard output not a terminal, TERM unusable).
public typealias TerminalUnavailableError = TerminalUnavailable
