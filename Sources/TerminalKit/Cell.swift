/// One character cell of the screen.
public struct Cell: Sendable, Hashable {
    /// The character shown (a space when empty). Every character OpScope draws is one column wide;
    /// `Buffer` replaces wider ones (see `Buffer.displayable`).
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
}
