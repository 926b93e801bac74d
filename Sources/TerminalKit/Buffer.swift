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
    /// the last character written. Wide and control characters are replaced (one column each).
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let bounds = (clip ?? area).intersection(area)
        guard y >= bounds.y, y < bounds.maxY else { return x }
        var column = x
        for character in text {
            if column >= bounds.maxX { break }
            if column >= bounds.x { cells[y * width + column] = Cell(Self.displayable(character), style: style) }
            column += 1
        }
        return column
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let target = rect.intersection(area)
        guard !target.isEmpty else { return }
        for row in target.y..<target.maxY {
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

    /// A character that occupies exactly one column: control characters become `?`, and
    /// characters terminals draw two columns wide (CJK, most emoji) become `?` as well, so that
    /// the model of the screen and the screen agree.
    public static func displayable(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first else { return " " }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return "?" }
        if character.unicodeScalars.count > 1 && !character.unicodeScalars.dropFirst().allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) {
            return "?"
        }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value) {
            return "?"
        }
        return character
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
                var end = column + 1
                var lastChanged = column
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
    public mutating func mapCharacters(_ transform: (Character) -> Character) {
        for index in cells.indices where !cells[index].character.isASCII {
            cells[index].character = transform(cells[index].character)
        }
    }

    /// The text of each row, trailing spaces removed: what a person sees (tests compare it).
    public func lines() -> [String] {
        (0..<height).map { row in
            var line = String(cells[(row * width)..<(row * width + width)].map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The rows joined by newlines.
    public var text: String { lines().joined(separator: "\n") }
}
