/// What a dashboard draws on and reads input from: the ncurses terminal in programs, a
/// `TestTerminal` in tests. Used from one thread (the dashboard's).
public protocol TerminalSurface: AnyObject {
    /// Columns and rows now.
    var size: (width: Int, height: Int) { get }
    /// The next key or mouse event, if one is waiting (never blocks). A resize arrives as `.resize`.
    func readKey() -> Key?
    /// Shows a frame: only what changed since the last one, unless `full`.
    func draw(_ frame: Buffer, full: Bool)
    /// A terminating signal that arrived (SIGINT, SIGTERM, SIGHUP), if any.
    var pendingSignal: Int32? { get }
    /// Waits up to `seconds`, returning early when input arrives.
    func waitForInput(seconds: Double)
}
