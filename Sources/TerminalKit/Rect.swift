/// A rectangle of cells: `x`, `y` of the top-left cell, `width` × `height`. Never negative.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A rectangle; negative sizes become zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// True when it holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The column just right of it.
    public var maxX: Int { x + width }
    /// The row just below it.
    public var maxY: Int { y + height }
    /// Cells in it.
    public var area: Int { width * height }
    /// `WxH+X+Y`, as X11 geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// The part of this rectangle inside `other`.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// Shrunk by `margin` on every side.
    public func inset(by margin: Int) -> Rect {
        Rect(x: x + margin, y: y + margin, width: width - 2 * margin, height: height - 2 * margin)
    }

    /// The top `rows` rows, and the rest.
    public func splitTop(_ rows: Int) -> (Rect, Rect) {
        let top = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }

    /// The bottom `rows` rows, and the rest above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let bottom = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - bottom),
                Rect(x: x, y: maxY - bottom, width: width, height: bottom))
    }

    /// The left `columns` columns, and the rest.
    public func splitLeft(_ columns: Int) -> (Rect, Rect) {
        let left = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }

    /// True when the cell lies inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }
}
