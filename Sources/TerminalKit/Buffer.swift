/// A screen's worth of cells. Widgets draw into a buffer; a backend shows the difference between
/// the buffer it showed last and the new one, so only changed cells reach the terminal.
public struct Buffer: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    private(set) var cells: [Cell]

    /// A blank buffer; negative sizes become zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a position (blank outside).
    public subscript(x: Int, y: Int) -> Cell {
        get { area.contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { if area.contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    /// Writes `text` from (`x`, `y`), clipped to `clip` (and the buffer); returns the column after
    /// the last character written. The text is made visible first (``TerminalText/visible(_:)``:
    /// control, escape and bidirectional characters are shown as inert text); wide characters take
    /// two cells, and one that would straddle the clip's edge is shown as a space.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let bounds = (clip ?? area).intersection(area)
        guard y >= bounds.y, y < bounds.maxY else { return x }
        var column = x
        let width = width
        return cells.withUnsafeMutableBufferPointer { cells in
            if TerminalText.isPlain(text) {
                // One cell per scalar: no grapheme breaking, no width lookup.
                for scalar in text.unicodeScalars {
                    if column >= bounds.maxX { break }
                    if column >= bounds.x { Self.put(Cell(Character(scalar), style: style), at: column, row: y, in: cells, width: width) }
                    column += 1
                }
                return column
            }
            for character in TerminalText.visible(text) {
                if column >= bounds.maxX { break }
                let columns = TerminalText.columns(character)
                if columns == 2 {
                    if column >= bounds.x, column + 1 < bounds.maxX {
                        Self.put(Cell(character, style: style), at: column, row: y, in: cells, width: width)
                        Self.put(Cell(Cell.continuationCharacter, style: style), at: column + 1, row: y, in: cells, width: width)
                    } else {
                        // Half of it would be cut: a blank says "something is here" without lying.
                        if column >= bounds.x { Self.put(Cell(" ", style: style), at: column, row: y, in: cells, width: width) }
                        if column + 1 >= bounds.x, column + 1 < bounds.maxX {
                            Self.put(Cell(" ", style: style), at: column + 1, row: y, in: cells, width: width)
                        }
                    }
                    column += 2
                } else {
                    if column >= bounds.x { Self.put(Cell(character, style: style), at: column, row: y, in: cells, width: width) }
                    column += 1
                }
            }
            return column
        }
    }

    /// Sets one cell, first breaking up any wide character the new cell overlaps, so that no
    /// half of a wide character is left without its other half. Works on the cells in place
    /// (a frame writes thousands of them).
    private static func put(_ cell: Cell, at column: Int, row: Int, in cells: UnsafeMutableBufferPointer<Cell>, width: Int) {
        let index = row * width + column
        if cells[index].isContinuation, column > 0, !cell.isContinuation {
            cells[index - 1].character = " "
        }
        if column + 1 < width, cells[index + 1].isContinuation, TerminalText.columns(cells[index].character) == 2 {
            cells[index + 1].character = " "
        }
        cells[index] = cell
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let target = rect.intersection(area)
        guard !target.isEmpty else { return }
        for row in target.y..<target.maxY {
            // Wide characters cut by either edge lose their other half too.
            if cells[row * width + target.x].isContinuation, target.x > 0 { cells[row * width + target.x - 1].character = " " }
            if target.maxX < width, cells[row * width + target.maxX].isContinuation { cells[row * width + target.maxX].character = " " }
            for column in target.x..<target.maxX { cells[row * width + column] = cell }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the characters.
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let target = rect.intersection(area)
        guard !target.isEmpty else { return }
        for row in target.y..<target.maxY {
            for column in target.x..<target.maxX { change(&cells[row * width + column].style) }
        }
    }

    // MARK: Diffing

    /// A run of changed cells on one row.
    public struct Run: Sendable, Equatable {
        /// First column of the run.
        public var x: Int
        /// Its row.
        public var y: Int
        /// The new cells, left to right.
        public var cells: [Cell]
        /// A run.
        public init(x: Int, y: Int, cells: [Cell]) {
            self.x = x
            self.y = y
            self.cells = cells
        }
    }

    /// The runs of cells that differ from `previous` (everything when the sizes differ). Runs
    /// join across short unchanged gaps: moving the cursor costs about as much as rewriting a
    /// few cells.
    public func changes(since previous: Buffer?) -> [Run] {
        let sameSize = previous.map { $0.width == width && $0.height == height } ?? false
        var runs: [Run] = []
        for row in 0..<height {
            var column = 0
            while column < width {
                let index = row * width + column
                if sameSize, previous!.cells[index] == cells[index] {
                    column += 1
                    continue
                }
                // A changed right half is redrawn from its left half: a terminal draws a wide
                // character whole.
                if cells[index].isContinuation, column > 0 { column -= 1 }
                var end = column + 1
                var lastChanged = max(column, index - row * width)
                while end < width, end - lastChanged <= 4 {
                    let at = row * width + end
                    if !sameSize || previous!.cells[at] != cells[at] { lastChanged = end }
                    end += 1
                }
                runs.append(Run(x: column, y: row, cells: Array(cells[(row * width + column)...(row * width + lastChanged)])))
                column = lastChanged + 1
            }
        }
        return runs
    }

    /// Replaces every character through `transform` (e.g. an ASCII-only mode as a last pass).
    /// A wide character replaced by a narrow one gives its second cell a space.
    public mutating func mapCharacters(_ transform: (Character) -> Character) {
        for index in cells.indices where !cells[index].character.isASCII {
            let before = cells[index].character
            let after = transform(before)
            cells[index].character = after
            if index + 1 < cells.count, cells[index + 1].isContinuation, TerminalText.columns(before) == 2,
               TerminalText.columns(after) != 2 {
                cells[index + 1].character = " "
            }
        }
    }

    /// The text of each row, trailing spaces removed: what a person sees (tests compare it).
    public func lines() -> [String] {
        (0..<height).map { row in
            // The right half of a wide character is part of the character before it.
            var line = String(cells[(row * width)..<(row * width + width)].lazy.filter { !$0.isContinuation }.map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The rows joined by newlines.
    public var text: String { lines().joined(separator: "\n") }
}
