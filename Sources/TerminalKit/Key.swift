/// A key press or mouse event, as the backend decoded it. Views and tests speak in these; only
/// the ncurses backend knows key codes.
public enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    /// F1 ... F12.
    case function(Int)
    /// Ctrl plus a letter (lowercase).
    case control(Character)
    /// The terminal changed size (the next frame uses the new size).
    case resize
    /// A mouse event at a cell.
    case mouse(MouseEvent)
}

/// A mouse click or wheel step.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case press, wheelUp, wheelDown }
    public var kind: Kind
    public var x: Int
    public var y: Int
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
