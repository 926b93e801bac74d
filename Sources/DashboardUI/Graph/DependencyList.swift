import DashboardModel
import OperationEvents

/// The whole graph as a list, one row per operation (dependencies above their dependents),
/// with the edges drawn in lanes on the left like `git log --graph`. Computed once for all rows;
/// a view draws only the rows it shows.
public struct DependencyList: Sendable {
    /// One row.
    public struct Row: Sendable, Equatable {
        /// The operation.
        public var operation: OperationID
        /// Its edge column.
        public var column: Int
        /// Edges into or out of it that did not fit in the lanes.
        public var hiddenEdges: Int
    }

    private struct Stroke: Sendable, Equatable {
        var x: Int
        var arms: GraphCanvas.Arms
        var group: Int
    }

    /// The rows, in drawing order.
    public private(set) var rows: [Row] = []
    /// Lanes used (at most `maximumColumns`).
    public private(set) var columnCount = 0
    private var strokes: [[Stroke]] = []

    /// Builds the list for every retained operation of the model; at most `maximumColumns` edges
    /// are drawn side by side (a row counts the edges it could not draw).
    public static func build(_ model: DashboardModel, maximumColumns: Int = 24) -> DependencyList {
        var list = DependencyList()
        let records = model.operations.values.sorted { ($0.level, $0.enqueueOrder, $0.id) < ($1.level, $1.enqueueOrder, $1.id) }
        var rowOf: [OperationID: Int] = [:]
        rowOf.reserveCapacity(records.count)
        for (row, record) in records.enumerated() { rowOf[record.id] = row }
        // Each lane holds the operation its edge goes to (nil: free).
        var lanes: [OperationID?] = []
        for (row, record) in records.enumerated() {
            let id = record.id
            var strokes: [Stroke] = []
            let incoming = lanes.indices.filter { lanes[$0] == id }
            let column = incoming.min() ?? lanes.firstIndex { $0 == nil } ?? lanes.count
            if column == lanes.count, column < maximumColumns { lanes.append(nil) }
            let group = id.rawValue
            for slot in lanes.indices where lanes[slot] != nil && lanes[slot] != id {
                strokes.append(Stroke(x: slot * 2, arms: .vertical, group: lanes[slot]!.rawValue))
            }
            for slot in incoming {
                lanes[slot] = nil
                if slot == column {
                    strokes.append(Stroke(x: slot * 2, arms: .up, group: group))
                } else {
                    strokes += connector(from: slot, to: column, vertical: .up, group: group)
                }
            }
            var hidden = 0
            let outgoing = record.dependents.filter { (rowOf[$0] ?? -1) > row }.sorted { rowOf[$0]! < rowOf[$1]! }
            for dependent in outgoing {
                var slot: Int?
                if column < lanes.count, lanes[column] == nil {
                    slot = column
                } else if let free = lanes.firstIndex(where: { $0 == nil }) {
                    slot = free
                } else if lanes.count < maximumColumns {
                    lanes.append(nil)
                    slot = lanes.count - 1
                }
                guard let slot else {
                    hidden += 1
                    continue
                }
                lanes[slot] = dependent
                if slot == column {
                    strokes.append(Stroke(x: slot * 2, arms: .down, group: dependent.rawValue))
                } else {
                    strokes += connector(from: slot, to: column, vertical: .down, group: dependent.rawValue)
                }
            }
            // Dependencies above whose edge found no lane.
            let above = record.dependencies.filter { (rowOf[$0] ?? row) < row }.count
            hidden += max(0, above - incoming.count)
            while let last = lanes.last, last == nil, lanes.count > column + 1 { lanes.removeLast() }
            list.columnCount = max(list.columnCount, lanes.count, column + 1)
            list.rows.append(Row(operation: id, column: min(column, maximumColumns - 1), hiddenEdges: hidden))
            list.strokes.append(strokes)
        }
        return list
    }

    /// A turn in lane `slot` toward the node's lane, and the horizontal run between them.
    private static func connector(from slot: Int, to column: Int, vertical: GraphCanvas.Arms, group: Int) -> [Stroke] {
        let toward: GraphCanvas.Arms = column < slot ? .left : .right
        let back: GraphCanvas.Arms = column < slot ? .right : .left
        var result = [Stroke(x: slot * 2, arms: vertical.union(toward), group: group)]
        let (a, b) = (min(slot, column) * 2, max(slot, column) * 2)
        for x in (a + 1)..<b { result.append(Stroke(x: x, arms: .horizontal, group: group)) }
        result.append(Stroke(x: column * 2, arms: back, group: group))
        return result
    }

    /// Draws rows `range` (lanes, each operation's `marker` in its lane, then its `label`) into a
    /// canvas of `width`. Markers come from the caller so that a state change only repaints.
    public func draw(rows range: Range<Int>, width: Int, marker: (OperationID) -> Character = { _ in "●" },
                     label: (OperationID) -> String) -> GraphCanvas {
        let range = range.clamped(to: 0..<rows.count)
        var canvas = GraphCanvas(width: max(0, width), height: range.count)
        let labelX = columnCount * 2 + 1
        for (y, row) in range.enumerated() {
            for stroke in strokes[row] { canvas.stroke(x: stroke.x, y: y, stroke.arms, group: stroke.group) }
            let entry = rows[row]
            canvas.write(String(marker(entry.operation)), x: entry.column * 2, y: y)
            canvas.write(label(entry.operation) + (entry.hiddenEdges > 0 ? " (+\(entry.hiddenEdges) edges)" : ""),
                         x: labelX, y: y, node: entry.operation.rawValue, width: max(0, width - labelX))
        }
        return canvas
    }
}
