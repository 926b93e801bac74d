import ArgumentParser
import OpScope

/// How the dashboard draws on the terminal: the flags every dashboard command takes (`opscope
/// demo`, `attach`, `replay` and each demo's own executable), declared once here.
public struct TerminalOptions: ParsableArguments {
    public init() {}

    /// `--ascii`: no box drawing or symbols.
    @Flag(help: "Draw with ASCII only (no box drawing or symbols).")
    public var ascii = false

    /// `--no-color`.
    @Flag(name: .customLong("no-color"), help: "No colours (states stay marked by symbols and attributes).")
    public var noColor = false

    /// `--no-mouse`.
    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse (lets the terminal select text).")
    public var noMouse = false

    /// `--fps N`.
    @Option(help: "At most this many frames per second (1-120).")
    public var fps = 30

    /// The flags as a summary line lists them.
    public static let summary = "--ascii, --no-color, --no-mouse, --fps N (1-120)"

    public func validate() throws {
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be between 1 and 120, got \(fps)") }
    }

    /// Session options drawing as these flags say.
    public var sessionOptions: SessionOptions {
        var options = SessionOptions()
        options.unicode = !ascii
        options.color = !noColor
        options.mouse = !noMouse
        options.framesPerSecond = fps
        return options
    }
}
