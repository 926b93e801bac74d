/// One character cell of the screen.
public struct Cell: Sendable, Hashable {
    /// The character shown (a space when empty). A wide character (CJK, emoji) takes its cell
    /// and the next, which holds ``continuationCharacter``.
    public var character: Character
    /// How it looks.
    public var style: Style

    /// A cell showing `character`.
    public init(_ character: Character = " ", style: Style = .plain) {
        self.character = character
        self.style = style
    }

    /// An empty cell.
    public static let blank = Cell()

    /// The character of the right half of a wide character. NUL never reaches a buffer any
    /// other way (``TerminalText/visible(_:)`` shows it as `^@`), so it cannot be mistaken.
    public static let continuationCharacter: Character = "\u{0}"

    /// Whether this cell is the right half of the wide character in the cell before it.
    public var isContinuation: Bool { character == Self.continuationCharacter }
}
