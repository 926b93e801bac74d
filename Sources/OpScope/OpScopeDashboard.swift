import DashboardModel
@_exported import DashboardUI
import Foundation
@_exported import NcursesBackend
import OperationEvents
@_exported import TerminalKit

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
    /// How the dashboard ended.
    public enum Ending: Sendable, Equatable {
        /// `q`, F10 or `:quit`.
        case quit
        /// A terminating signal (SIGINT, SIGTERM, SIGHUP); the terminal was restored first.
        case signal(Int32)
    }

    /// Shows the dashboard until the person quits or a terminating signal arrives; the terminal
    /// is restored however it ends. Throws `TerminalUnavailable` (one line, with a hint) when
    /// standard output is not a terminal or TERM is unusable.
    @discardableResult
    public static func run(_ monitor: any EventSource, options: DashboardOptions = DashboardOptions()) throws -> Ending {
        try startInTerminal(monitor, options).wait()
    }

    /// The same, suspending the caller instead of blocking it.
    @discardableResult
    public static func run(_ monitor: any EventSource, options: DashboardOptions = DashboardOptions()) async throws -> Ending {
        try await startInTerminal(monitor, options).value()
    }

    /// Runs the dashboard loop on `terminal` (tests, other front ends), suspending the caller.
    @discardableResult
    public static func run(_ monitor: any EventSource, on terminal: any DashboardTerminal,
                           options: DashboardOptions = DashboardOptions()) async -> Ending {
        let outcome = Outcome()
        let box = TerminalBox(terminal)
        startThread(outcome) {
            var session = Session(monitor: monitor, options: options)
            return session.run(box.terminal)
        }
        return (try? await outcome.value()) ?? .quit
    }

    /// Starts the dashboard thread on the process's terminal (ncurses is used from it alone).
    private static func startInTerminal(_ monitor: any EventSource, _ options: DashboardOptions) -> Outcome {
        let outcome = Outcome()
        startThread(outcome) {
            let terminal = try NcursesTerminal(options: TerminalOptions(color: options.color, mouse: options.mouse))
            defer { terminal.stop() }
            var session = Session(monitor: monitor, options: options)
            return session.run(terminal)
        }
        return outcome
    }

    private static func startThread(_ outcome: Outcome, _ body: @escaping @Sendable () throws -> Ending) {
        let thread = Thread {
            do { outcome.finish(.success(try body())) } catch { outcome.finish(.failure(error)) }
        }
        thread.name = "opscope.dashboard"
        thread.start()
    }

    /// The model's report of the monitor's current state (a snapshot, then the events since).
    public static func report(_ monitor: any EventSource, configuration: ModelConfiguration = ModelConfiguration()) -> DashboardReport {
        var model = DashboardModel(configuration: configuration)
        let subscription = monitor.subscribe(SubscriptionRequest(consumer: "report"))
        defer { subscription.close() }
        model.apply(subscription.next(limit: .max))
        model.advance(to: monitor.now())
        return model.report()
    }
}

/// Hands a terminal to the dashboard thread, which alone uses it from then on.
private final class TerminalBox: @unchecked Sendable {
    let terminal: any DashboardTerminal
    init(_ terminal: any DashboardTerminal) { self.terminal = terminal }
}

/// The dashboard thread's result, waited for by the caller.
final class Outcome: @unchecked Sendable {
    private let lock = NSCondition()
    private var result: Result<OpScopeDashboard.Ending, Error>?
    private var continuation: CheckedContinuation<OpScopeDashboard.Ending, Error>?

    func finish(_ value: Result<OpScopeDashboard.Ending, Error>) {
        lock.lock()
        result = value
        let waiting = continuation
        continuation = nil
        lock.broadcast()
        lock.unlock()
        waiting?.resume(with: value)
        // A caller waiting in the main run loop wakes for main-queue work: post some.
        DispatchQueue.main.async {}
    }

    /// Blocks until the thread ends. On the main thread the main run loop keeps turning (so
    /// `OperationQueue.main` runs); where it cannot (inside a main-queue block) this sleeps in
    /// short steps instead of spinning.
    func wait() throws -> OpScopeDashboard.Ending {
        while true {
            lock.lock()
            if let result {
                lock.unlock()
                return try result.get()
            }
            if !Thread.isMainThread {
                lock.wait(until: Date(timeIntervalSinceNow: 0.05))
                lock.unlock()
                continue
            }
            lock.unlock()
            Self.pause(0.25)
        }
    }

    /// Waits about `seconds`; on the main thread the main run loop turns meanwhile (so
    /// `OperationQueue.main` runs), falling back to sleeping where it cannot (inside a
    /// main-queue block, where it would return at once and spin).
    static func pause(_ seconds: Double) {
        guard Thread.isMainThread else {
            Thread.sleep(forTimeInterval: seconds)
            return
        }
        let started = Date()
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
        let elapsed = Date().timeIntervalSince(started)
        if elapsed < seconds / 2 { Thread.sleep(forTimeInterval: seconds - elapsed) }
    }

    func value() async throws -> OpScopeDashboard.Ending {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(with: result)
                return
            }
            self.continuation = continuation
            lock.unlock()
        }
    }
}

/// One dashboard session: the loop that moves events into the model, keys into commands, and
/// frames to the terminal.
struct Session {
    let monitor: any EventSource
    let subscription: any EventSubscription
    let options: DashboardOptions
    var model: DashboardModel
    /// The model as shown while the display is paused (the live one keeps reducing).
    var frozen: DashboardModel?
    var dashboard: Dashboard
    let screen: DashboardScreen

    init(monitor: any EventSource, options: DashboardOptions) {
        self.monitor = monitor
        self.options = options
        model = DashboardModel(configuration: options.model)
        subscription = monitor.subscribe(SubscriptionRequest(consumer: "dashboard"))
        model.apply(subscription.next(limit: 0))
        dashboard = Dashboard(templates: monitor.workTemplates, mouseEnabled: options.mouse)
        screen = DashboardScreen(theme: Theme(unicode: options.unicode, color: options.color), caption: options.caption)
    }

    mutating func run(_ terminal: any DashboardTerminal) -> OpScopeDashboard.Ending {
        let frameInterval = 1_000_000_000 / UInt64(max(1, min(120, options.framesPerSecond)))
        var dirty = true
        var fullRedraw = true
        var lastFrame: UInt64 = 0
        var lastClockTick: UInt64 = 0
        var lastActivity: UInt64 = 0
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
                lastActivity = monitor.now()
            }
            if dashboard.state.paused, frozen == nil { frozen = model }
            if !dashboard.state.paused { frozen = nil }
            // Events: drain what is there (the buffer is bounded; a loss re-synchronises).
            let batch = subscription.next(limit: 16_384)
            model.apply(batch)
            let now = monitor.now()
            if !batch.events.isEmpty, frozen == nil { dirty = true }
            if !batch.events.isEmpty { lastActivity = now }
            // Durations on screen move with the clock: with unfinished work the screen refreshes
            // four times a second, with none once a second (throughputs decay), so a quiet
            // dashboard costs next to nothing.
            let live = model.queues.values.contains { $0.executing + $0.waiting > 0 }
            if now &- lastClockTick >= (live ? 250_000_000 : 1_000_000_000) {
                model.advance(to: now)
                lastClockTick = now
                if frozen == nil { dirty = true }
            }
            if dirty, now &- lastFrame >= frameInterval || fullRedraw {
                // For the reliability tests only: a trap while the dashboard owns the terminal.
                if lastFrame != 0, ProcessInfo.processInfo.environment["OPSCOPE_TEST_TRAP"] == "1" {
                    fatalError("OPSCOPE_TEST_TRAP: a trap while the dashboard draws")
                }
                let shown = frozen ?? model
                dashboard.keepSelectionValid(shown)
                let (buffer, map) = screen.compose(shown, dashboard, width: terminal.size.width, height: terminal.size.height)
                dashboard.map = map
                terminal.draw(buffer, full: fullRedraw)
                lastFrame = now
                dirty = false
                fullRedraw = false
            }
            // This is the dashboard's own thread: sleeping here never holds up the main queue.
            // Wait for a key (it ends the wait at once) or the next look at the events: short
            // while things happen, longer when quiet, so an idle dashboard barely wakes.
            let quiet = monitor.now() &- lastActivity > 1_000_000_000
            terminal.waitForInput(seconds: dirty ? 0.005 : (quiet ? 0.1 : 0.015))
        }
    }
}

extension OpScopeDashboard {
    /// Reduces the monitor's events for `seconds`, then returns the report (headless: for
    /// `opscope report` and for programs that want the state in-process).
    public static func observe(_ monitor: any EventSource, for seconds: Double,
                               configuration: ModelConfiguration = ModelConfiguration()) -> DashboardReport {
        var model = DashboardModel(configuration: configuration)
        let subscription = monitor.subscribe(SubscriptionRequest(consumer: "report"))
        defer { subscription.close() }
        let deadline = Date().addingTimeInterval(max(0, seconds))
        repeat {
            model.apply(subscription.next(limit: 65_536))
            if Date() >= deadline { break }
            Outcome.pause(min(0.05, max(0, deadline.timeIntervalSinceNow)))
        } while true
        model.advance(to: monitor.now())
        return model.report()
    }
}
