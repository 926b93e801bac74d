/// Something that draws itself into an area of a buffer. Widgets must draw in any area, 0x0 and
/// 1x1 included, and never outside it.
public protocol Widget {
    /// Draws into `area` of `buffer`.
    func render(into buffer: inout Buffer, area: Rect)
}

/// Lines of styled text, clipped (no wrapping): each line is a list of spans.
public struct TextBlock: Widget, Sendable {
    /// A piece of a line in one style.
    public struct Span: Sendable, Equatable {
        /// The text.
        public var text: String
        /// Its style.
        public var style: Style
        /// A span.
        public init(_ text: String, _ style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// Lines of styled spans.
    public var lines: [[Span]]
    /// Lines skipped at the top (scrolling).
    public var offset: Int

    /// A block starting `offset` lines down.
    public init(lines: [[Span]], offset: Int = 0) {
        self.lines = lines
        self.offset = offset
    }

    /// Plain lines.
    public init(_ text: [String], style: Style = .plain) {
        self.init(lines: text.map { [Span($0, style)] })
    }

    /// Draws the lines, clipped to `area`.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        for (row, line) in lines.dropFirst(max(0, offset)).prefix(area.height).enumerated() {
            var x = area.x
            for span in line { x = buffer.write(span.text, x: x, y: area.y + row, style: span.style, clip: area) }
        }
    }
}

/// A border with a title around an inner area.
public struct Frame: Sendable {
    /// Shown in the top edge.
    public var title: String
    /// The lines of the frame.
    public var style: Style
    /// The title.
    public var titleStyle: Style
    /// Draw with `+-|` instead of box drawing characters.
    public var ascii: Bool

    /// A frame.
    public init(title: String = "", style: Style = .plain, titleStyle: Style = Style(attributes: .bold), ascii: Bool = false) {
        self.title = title
        self.style = style
        self.titleStyle = titleStyle
        self.ascii = ascii
    }

    /// Draws the border and returns the area inside it (empty when there is no room).
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Rect {
        guard area.width >= 2, area.height >= 2 else {
            buffer.write(title, x: area.x, y: area.y, style: titleStyle, clip: area)
            return Rect(x: area.x, y: area.y, width: 0, height: 0)
        }
        let (h, v, tl, tr, bl, br): (Character, Character, Character, Character, Character, Character) =
            ascii ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "┌", "┐", "└", "┘")
        for column in (area.x + 1)..<(area.maxX - 1) {
            buffer[column, area.y] = Cell(h, style: style)
            buffer[column, area.maxY - 1] = Cell(h, style: style)
        }
        for row in (area.y + 1)..<(area.maxY - 1) {
            buffer[area.x, row] = Cell(v, style: style)
            buffer[area.maxX - 1, row] = Cell(v, style: style)
        }
        buffer[area.x, area.y] = Cell(tl, style: style)
        buffer[area.maxX - 1, area.y] = Cell(tr, style: style)
        buffer[area.x, area.maxY - 1] = Cell(bl, style: style)
        buffer[area.maxX - 1, area.maxY - 1] = Cell(br, style: style)
        if !title.isEmpty {
            let titleArea = Rect(x: area.x + 1, y: area.y, width: area.width - 2, height: 1)
            buffer.write(" \(title) ", x: area.x + 1, y: area.y, style: titleStyle, clip: titleArea)
        }
        return area.inset(by: 1)
    }
}

/// Rows under a header, in columns, with one selected row; scrolls to keep the selection visible.
public struct TableView: Widget, Sendable {
    /// A column: title and width (the last column takes what is left).
    public struct Column: Sendable, Equatable {
        /// The heading.
        public var title: String
        /// Columns.
        public var width: Int
        /// A column.
        public init(_ title: String, width: Int) {
            self.title = title
            self.width = width
        }
    }

    /// The columns, left to right.
    public var columns: [Column]
    /// One span per column per row.
    public var rows: [[TextBlock.Span]]
    /// The highlighted row (index into `rows`).
    public var selected: Int?
    /// Rows scrolled.
    public var offset: Int
    /// The heading row.
    public var headerStyle: Style
    /// The highlighted row.
    public var selectedStyle: Style

    /// A table.
    public init(columns: [Column], rows: [[TextBlock.Span]], selected: Int? = nil, offset: Int = 0,
                headerStyle: Style = Style(attributes: [.bold, .underline]), selectedStyle: Style = Style(attributes: .reverse)) {
        self.columns = columns
        self.rows = rows
        self.selected = selected
        self.offset = offset
        self.headerStyle = headerStyle
        self.selectedStyle = selectedStyle
    }

    /// The first row to show so that `selected` is visible in `visibleRows`, moving as little as
    /// possible from `offset`.
    public static func scrolledOffset(selected: Int?, offset: Int, visibleRows: Int, count: Int) -> Int {
        guard visibleRows > 0, count > 0 else { return 0 }
        var result = min(max(0, offset), max(0, count - visibleRows))
        if let selected {
            if selected < result { result = selected }
            if selected >= result + visibleRows { result = selected - visibleRows + 1 }
        }
        return max(0, result)
    }

    /// Draws the heading and the visible rows.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x
        for (index, column) in columns.enumerated() {
            let width = index == columns.count - 1 ? max(0, area.maxX - x) : column.width
            buffer.write(column.title, x: x, y: area.y, style: headerStyle,
                         clip: Rect(x: x, y: area.y, width: width, height: 1).intersection(area))
            x += width + 1
        }
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        guard !body.isEmpty else { return }
        let first = Self.scrolledOffset(selected: selected, offset: offset, visibleRows: body.height, count: rows.count)
        for (line, rowIndex) in (first..<min(rows.count, first + body.height)).enumerated() {
            let y = body.y + line
            var x = body.x
            for (index, column) in columns.enumerated() {
                let width = index == columns.count - 1 ? max(0, body.maxX - x) : column.width
                if index < rows[rowIndex].count {
                    let span = rows[rowIndex][index]
                    buffer.write(span.text, x: x, y: y, style: span.style,
                                 clip: Rect(x: x, y: y, width: width, height: 1).intersection(body))
                }
                x += width + 1
            }
            if rowIndex == selected {
                buffer.restyle(Rect(x: body.x, y: y, width: body.width, height: 1)) { $0.attributes.formUnion(selectedStyle.attributes) }
            }
        }
    }
}
