import DashboardModel
import DashboardSession
import Foundation
import NcursesBackend
import OperationEvents
import TerminalKit

/// Runs the dashboard in the program's terminal, or reports the state without one.
///
/// ```swift
/// let monitor = OperationMonitor()
/// let queue = ObservedOperationQueue(monitor: monitor, name: "images")
/// try OpScopeDashboard.run(monitor)          // until q
/// ```
///
/// The dashboard's loop runs on a thread of its own. A caller on the main thread keeps the main
/// run loop turning while it waits, so that `OperationQueue.main` keeps running; from async code
/// (the main actor included) use `await run(...)`, which suspends instead of blocking.
public enum OpScopeDashboard {
    /// Shows the dashboard until the person quits or a terminating signal arrives; the terminal
    /// is restored however it ends. Throws `TerminalUnavailable` (one line, with a hint) when
    /// standard output is not a terminal or TERM is unusable.
    @discardableResult
    public static func run(_ source: any EventSource, options: SessionOptions = SessionOptions()) throws -> SessionEnding {
        try startInTerminal(source, options).wait()
    }

    /// The same, suspending the caller instead of blocking it.
    @discardableResult
    public static func run(_ source: any EventSource, options: SessionOptions = SessionOptions()) async throws -> SessionEnding {
        try await startInTerminal(source, options).value()
    }

    /// Runs the dashboard loop on `surface` (tests, other front ends) on the dashboard thread,
    /// suspending the caller. The surface is used from that thread alone from then on.
    @discardableResult
    public static func run(_ source: any EventSource, on surface: any TerminalSurface,
                           options: SessionOptions = SessionOptions()) async -> SessionEnding {
        let outcome = DashboardThread.Outcome()
        let box = SurfaceBox(surface)
        DashboardThread.start(outcome) {
            var session = Session(source: source, options: options)
            return session.run(on: box.surface)
        }
        return (try? await outcome.value()) ?? .quit
    }

    /// Starts the dashboard thread on the process's terminal (ncurses is used from it alone).
    private static func startInTerminal(_ source: any EventSource, _ options: SessionOptions) -> DashboardThread.Outcome {
        let outcome = DashboardThread.Outcome()
        var options = options
        options.trapWhileDrawing = ProcessInfo.processInfo.environment["OPSCOPE_TEST_TRAP"] == "1"
        DashboardThread.start(outcome) { [options] in
            let terminal = try NcursesTerminal(options: TerminalOptions(color: options.color, mouse: options.mouse))
            defer { terminal.stop() }
            var session = Session(source: source, options: options)
            return session.run(on: terminal)
        }
        return outcome
    }

    /// The report of everything `source` has seen: its past (the monitor's history), then the
    /// events so far. Reading it takes nothing away from a dashboard on the same source.
    public static func report(_ source: any EventSource, configuration: ModelConfiguration = .report) -> OpScopeReport {
        var ingest = EventIngest(source: source, configuration: configuration, consumer: "report")
        defer { ingest.close() }
        _ = ingest.ingest(budget: .max)
        ingest.advance(to: source.now())
        return ingest.model.report()
    }

    /// Reduces the source's events for `seconds`, then returns the report (headless: for
    /// `opscope report` and for programs that want the state in-process).
    public static func observe(_ source: any EventSource, for seconds: Double,
                               configuration: ModelConfiguration = ModelConfiguration()) -> OpScopeReport {
        var ingest = EventIngest(source: source, configuration: configuration, consumer: "report")
        defer { ingest.close() }
        let deadline = Date().addingTimeInterval(max(0, seconds))
        repeat {
            _ = ingest.ingest()
            if Date() >= deadline { break }
            DashboardThread.pause(min(0.05, max(0, deadline.timeIntervalSinceNow)))
        } while true
        _ = ingest.ingest(budget: .max)
        ingest.advance(to: source.now())
        return ingest.model.report()
    }
}

/// Hands a surface to the dashboard thread, which alone uses it from then on.
private final class SurfaceBox: @unchecked Sendable {
    let surface: any TerminalSurface
    init(_ surface: any TerminalSurface) { self.surface = surface }
}
