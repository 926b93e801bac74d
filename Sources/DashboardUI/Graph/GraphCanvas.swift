import DashboardModel
import OperationEvents
import TerminalKit

/// A character grid for drawing graphs. Each cell holds the stroke arms (up, down, left, right)
/// that edges leave in it, remembered per edge group, or a character of a label. Glyphs are
/// chosen only when the canvas is read: a cell where two unrelated edges merely cross is drawn
/// as a crossing, not as a join (no false `┼`); edges of one group (into the same target, or out
/// of the same source) merge with proper join glyphs.
///
/// Cells are terminal columns, as in a `Buffer`: a wide character of a label (CJK, emoji) takes
/// its cell and the next, which holds `Cell.continuationCharacter`, so that what is drawn after
/// it stays in its column.
public struct GraphCanvas: Sendable, Equatable {
    /// Stroke directions leaving a cell's centre.
    public struct Arms: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: UInt8
        /// Arms from bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Toward the row above.
        public static let up = Arms(rawValue: 1)
        /// Toward the row below.
        public static let down = Arms(rawValue: 2)
        /// Toward the column on the left.
        public static let left = Arms(rawValue: 4)
        /// Toward the column on the right.
        public static let right = Arms(rawValue: 8)
        /// Left and right: a horizontal line.
        public static let horizontal: Arms = [.left, .right]
        /// Up and down: a vertical line.
        public static let vertical: Arms = [.up, .down]
    }

    /// A node drawn on the canvas, for the view to colour.
    public struct Placed: Sendable, Equatable {
        /// Index into the focused graph's nodes (or an operation for lane lists).
        public var node: Int
        /// Its first column.
        public var x: Int
        /// Its row.
        public var y: Int
        /// Columns it takes.
        public var width: Int
    }

    private struct Cell: Sendable, Equatable {
        var first: Arms = []
        // Int32.min marks "no group": any other value, negative ones included, names an edge group.
        var firstGroup: Int32 = .min
        var second: Arms = []
        var secondGroup: Int32 = .min
        var dashed = false
        var character: Character?
    }

    /// Width in cells.
    public let width: Int
    /// Height in cells.
    public let height: Int
    private var cells: [Cell]
    /// The nodes drawn, in drawing order.
    public private(set) var placed: [Placed] = []

    /// An empty canvas.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// Adds stroke arms to a cell for an edge group (`dashed` for back edges of a cycle).
    public mutating func stroke(x: Int, y: Int, _ arms: Arms, group: Int, dashed: Bool = false) {
        guard x >= 0, y >= 0, x < width, y < height, !arms.isEmpty else { return }
        let index = y * width + x
        let group = Int32(truncatingIfNeeded: group)
        if cells[index].firstGroup == .min || cells[index].firstGroup == group {
            cells[index].firstGroup = group
            cells[index].first.formUnion(arms)
        } else {
            if cells[index].secondGroup == .min { cells[index].secondGroup = group }
            cells[index].second.formUnion(arms)
        }
        if dashed { cells[index].dashed = true }
    }

    /// A horizontal run of strokes from `x0` to `x1` (inclusive) on row `y`; the end cells get
    /// only their inward arm.
    public mutating func horizontal(from x0: Int, to x1: Int, y: Int, group: Int, dashed: Bool = false) {
        run(from: x0, to: x1, arms: (.left, .right), group: group, dashed: dashed) { (x: $0, y: y) }
    }

    /// A vertical run of strokes from `y0` to `y1` (inclusive) in column `x`.
    public mutating func vertical(from y0: Int, to y1: Int, x: Int, group: Int, dashed: Bool = false) {
        run(from: y0, to: y1, arms: (.up, .down), group: group, dashed: dashed) { (x: x, y: $0) }
    }

    /// A straight run from `start` to `end` along one axis: each cell gets the arm towards the
    /// lower end (`arms.0`) unless it is that end, and the one towards the higher end unless it
    /// is that one; `cell` places a position on the axis.
    private mutating func run(from start: Int, to end: Int, arms: (Arms, Arms), group: Int, dashed: Bool,
                              cell: (Int) -> (x: Int, y: Int)) {
        guard start != end else { return }
        let (a, b) = (min(start, end), max(start, end))
        for position in a...b {
            var strokes: Arms = []
            if position > a { strokes.insert(arms.0) }
            if position < b { strokes.insert(arms.1) }
            let (x, y) = cell(position)
            stroke(x: x, y: y, strokes, group: group, dashed: dashed)
        }
    }

    /// Writes text (labels are painted after lines and win over them), clipped to the canvas,
    /// and returns the column after it. The text is made visible first (`TerminalText.visible`:
    /// the view copies these cells to the screen as they are); a wide character takes two cells,
    /// and one the canvas's edge would cut in half is shown as a blank. A `node` is recorded in
    /// `placed` as `fieldWidth` columns wide, or as wide as the text.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, node: Int? = nil, width fieldWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        var column = x
        if GraphLabels.simpleColumns(text) != nil {
            // One column per scalar, nothing to escape (most labels): no breaking into characters.
            for scalar in text.unicodeScalars {
                if column >= 0, column < width { put(Character(scalar), at: y * width + column, column: column) }
                column += 1
            }
        } else {
            for character in TerminalText.visible(text) {
                if TerminalText.columns(character) < 2 {
                    if column >= 0, column < width { put(character, at: y * width + column, column: column) }
                    column += 1
                    continue
                }
                if column >= 0, column + 1 < width {
                    put(character, at: y * width + column, column: column)
                    put(TerminalKit.Cell.continuationCharacter, at: y * width + column + 1, column: column + 1)
                } else {
                    if column >= 0, column < width { put(" ", at: y * width + column, column: column) }
                    if column + 1 >= 0, column + 1 < width { put(" ", at: y * width + column + 1, column: column + 1) }
                }
                column += 2
            }
        }
        if let node { placed.append(Placed(node: node, x: x, y: y, width: fieldWidth ?? column - x)) }
        return column
    }

    /// Sets a cell's character. Labels do not overlap, but if one ever covers half of a wide
    /// character, the other half becomes a blank rather than stay half a character.
    private mutating func put(_ character: Character, at index: Int, column: Int) {
        if let old = cells[index].character {
            let continuation = TerminalKit.Cell.continuationCharacter
            if old == continuation, column > 0, character != continuation { cells[index - 1].character = " " }
            if column + 1 < width, cells[index + 1].character == continuation, TerminalText.columns(old) == 2 {
                cells[index + 1].character = " "
            }
        }
        cells[index].character = character
    }

    /// Renames the nodes recorded in `placed` (when the drawing's node numbers are not the view's).
    public mutating func renumberPlaced(_ rename: (Int) -> Int) {
        for index in placed.indices { placed[index].node = rename(placed[index].node) }
    }

    /// The arms of a cell as drawn (both groups), for tests and views.
    public func arms(x: Int, y: Int) -> Arms {
        guard x >= 0, y >= 0, x < width, y < height else { return [] }
        let cell = cells[y * width + x]
        return cell.first.union(cell.second)
    }

    /// True where a dashed edge (a back edge of a cycle) passes, and no label covers it.
    public func isDashed(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        let cell = cells[y * width + x]
        return cell.dashed && cell.character == nil
    }

    /// True where two edge groups only cross (one straight across, the other straight through).
    public func isCrossing(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        let cell = cells[y * width + x]
        guard cell.secondGroup != .min else { return false }
        return (cell.first == .horizontal && cell.second == .vertical) || (cell.first == .vertical && cell.second == .horizontal)
    }

    /// The character to draw at a cell (a space where nothing is). The right half of a wide
    /// character is `Cell.continuationCharacter`; in ASCII, where the wide character becomes one
    /// `?`, it is a space.
    public func glyph(x: Int, y: Int, unicode: Bool = true) -> Character {
        guard x >= 0, y >= 0, x < width, y < height else { return " " }
        let cell = cells[y * width + x]
        if let character = cell.character {
            if unicode { return character }
            return character == TerminalKit.Cell.continuationCharacter ? " " : Self.ascii(character)
        }
        if isCrossing(x: x, y: y) { return unicode ? "│" : "|" }
        return Self.glyph(for: cell.first.union(cell.second), dashed: cell.dashed, unicode: unicode)
    }

    /// The canvas as rows of cells' characters, each as wide as the canvas (what a view pans
    /// over and copies into a `Buffer`, continuation cells included).
    public func rows(unicode: Bool = true) -> [[Character]] {
        (0..<height).map { y in (0..<width).map { glyph(x: $0, y: y, unicode: unicode) } }
    }

    /// The canvas as lines of text, as a person sees them (a wide character once, trailing
    /// spaces removed).
    public func lines(unicode: Bool = true) -> [String] {
        (0..<height).map { y in
            var line = String((0..<width).lazy.map { glyph(x: $0, y: y, unicode: unicode) }.filter { $0 != TerminalKit.Cell.continuationCharacter })
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    static func glyph(for arms: Arms, dashed: Bool, unicode: Bool) -> Character {
        if !unicode {
            switch arms {
            case []: return " "
            case .horizontal, .left, .right: return dashed ? "." : "-"
            case .vertical, .up, .down: return dashed ? ":" : "|"
            default: return "+"
            }
        }
        switch arms {
        case []: return " "
        case .horizontal, .left, .right: return dashed ? "┄" : "─"
        case .vertical, .up, .down: return dashed ? "┆" : "│"
        case [.down, .right]: return "┌"
        case [.down, .left]: return "┐"
        case [.up, .right]: return "└"
        case [.up, .left]: return "┘"
        case [.up, .down, .right]: return "├"
        case [.up, .down, .left]: return "┤"
        case [.left, .right, .down]: return "┬"
        case [.left, .right, .up]: return "┴"
        default: return "┼"
        }
    }

    /// ASCII stand-ins for every non-ASCII character OpScope draws (labels, lines, symbols);
    /// `?` for anything else. The dashboard's `--ascii` mode maps whole frames through it.
    public static func ascii(_ character: Character) -> Character {
        switch character {
        case "●": "*"
        case "○": "o"
        case "◐": "@"
        case "✓": "v"
        case "✗": "x"
        case "⟳": "%"
        case "×": "x"
        case "…", "∞": "~"
        case "─": "-"
        case "│": "|"
        // Back edges of a cycle stay apart from the other lines without colour too.
        case "┄": "."
        case "┆": ":"
        // Joins and corners: `+`, as the canvas's own ASCII drawing has them.
        case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼": "+"
        // The graph's queue tag (`·net`): a dot would read as a back edge's dash.
        case "·": "/"
        case "▸", "→", "›": ">"
        case "◂": "<"
        // A root cause; `!` is a warning's mark.
        case "◆": "#"
        case "▲": "^"
        case "▼": "v"
        case "•": "+"
        case "≈": "="
        case "█": "_"
        case "⇄": "="
        default: character.isASCII ? character : "?"
        }
    }
}
