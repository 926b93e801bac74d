/// How the terminal is driven.
public struct TerminalOptions: Sendable {
    /// Use colours when the terminal has them (`--no-color`: false).
    public var color = true
    /// Report mouse clicks and the wheel (`--no-mouse`: false).
    public var mouse = true

    public init(color: Bool = true, mouse: Bool = true) {
        self.color = color
        self.mouse = mouse
    }
}
