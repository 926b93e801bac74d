/// A key press or mouse event, as the backend decoded it. Views and tests speak in these; only
/// the ncurses backend knows key codes.
public enum Key: Sendable, Hashable {
    /// A printable character (or a Unicode scalar the terminal sent).
    case character(Character)
    /// Arrow keys.
    case up, down, left, right
    /// Paging keys.
    case pageUp, pageDown, home, end
    /// Editing and navigation keys (`backTab` is Shift-Tab).
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
    /// What the mouse did.
    public enum Kind: Sendable, Hashable { case press, wheelUp, wheelDown }
    /// What the mouse did.
    public var kind: Kind
    /// Column of the cell.
    public var x: Int
    /// Row of the cell.
    public var y: Int
    /// An event at a cell.
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
