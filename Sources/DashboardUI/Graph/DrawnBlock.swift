import DashboardModel
import OperationEvents
import TerminalKit

/// One entry of the graph pane, laid out and drawn: its banners (cycles), its boxes and edges,
/// and a line under it (hidden edges, or the finished groups).
package struct DrawnBlock: Sendable {
    /// Banner lines, wrapped to the pane (they do not pan).
    package var banners: [String] = []
    /// The drawing (it pans), and its rows as characters.
    package var canvas = GraphCanvas(width: 0, height: 0)
    var lines: [[Character]] = []
    /// Per row of the drawing: the boxes on it (indexes into `canvas.placed`), and the columns
    /// a back edge passes through (coloured apart).
    var placedOnRow: [[Int]] = []
    var dashedOnRow: [[Int]] = []
    /// The boxes, by the node numbers in `canvas.placed`.
    package var nodes: [GraphNode] = []
    /// The edges drawn between the boxes (indexes into `nodes`): from a dependency to its
    /// dependent, and apart, those that close a cycle.
    package var edges: [LayeredLayout.Edge] = []
    package var backEdges: [LayeredLayout.Edge] = []
    /// A line under the drawing: what it leaves out, or the finished groups (does not pan).
    package var trailer: (text: String, key: GraphItemKey)?
    /// Operations shown, and edges to operations left out.
    package var shownOperations = 0
    package var hiddenEdges = 0
    /// Everything the cursor can stand on, in reading order (rows within the block).
    private(set) var items: [GraphPaneMemory.Item] = []

    /// Rows it takes.
    var height: Int { banners.count + canvas.height + (trailer == nil ? 0 : 1) }

    /// Lays out (with the pane's memory, so that boxes stay put) and draws `block`.
    init(_ block: GraphBlock, layout memory: inout GraphLayoutMemory<GraphNodeKey>, width: Int, labelWidth: Int, compact: Bool) {
        nodes = block.nodes
        edges = (0..<block.graph.nodeCount).flatMap { from in block.graph.successors[from].map { LayeredLayout.Edge(from, $0) } }
        backEdges = block.backEdges
        shownOperations = block.shownOperations
        hiddenEdges = block.hiddenEdges
        for banner in block.banners {
            var lines = TextWrap.wrap(banner, width: max(1, width))
            if lines.count > 3 {
                lines = Array(lines.prefix(2)) + [TextWrap.fit(lines.dropFirst(2).joined(separator: " "), width: width)]
            }
            banners += lines
        }
        // Names are made visible (controls as inert text) by `GraphLabels` when a box is made,
        // not here per frame; widths are columns (a CJK character or an emoji takes two).
        var labelWidth = labelWidth
        func label(_ index: Int) -> String {
            compact ? String(block.nodes[index].glyph) : GraphLabels.fit(block.nodes[index], width: labelWidth)
        }
        if block.backEdges.isEmpty, let chain = Self.chain(block.graph) {
            // One box, or a plain chain (most groups): one row, nothing to lay out. The same
            // picture the layered drawing makes of them, without its work.
            labelWidth = Self.labelWidth(columns: chain.map { [block.nodes[$0]] }, paneWidth: width, least: labelWidth)
            let texts = chain.map(label)
            let widths = texts.map(GraphLabels.columns)
            canvas = GraphCanvas(width: widths.reduce(0, +) + 3 * (texts.count - 1), height: 1)
            var x = 0
            for (place, text) in texts.enumerated() {
                if place > 0 {
                    canvas.horizontal(from: x - 1, to: x + 3, y: 0, group: chain[place])
                    x += 3
                }
                canvas.write(text, x: x, y: 0, node: chain[place], width: widths[place])
                x += widths[place]
            }
        } else {
            let (layout, order) = memory.layout(block.graph, keys: block.nodes.map(\.key))
            var layoutIndex = [Int](repeating: 0, count: order.count)
            for (index, node) in order.enumerated() { layoutIndex[node] = index }
            let back = block.backEdges.map { LayeredLayout.Edge(layoutIndex[$0.from], layoutIndex[$0.to]) }
            // A layer also holds the dummies of edges that pass through it (negative ids).
            labelWidth = Self.labelWidth(columns: layout.layers.map { $0.compactMap { $0 >= 0 ? block.nodes[order[$0]] : nil } },
                                         paneWidth: width, least: labelWidth)
            canvas = GraphDrawing.draw(layout, labels: order.map(label), backEdges: back, maxLabelWidth: compact ? 1 : labelWidth)
            canvas.renumberPlaced { order[$0] }
        }
        lines = canvas.rows(unicode: true)
        placedOnRow = [[Int]](repeating: [], count: canvas.height)
        for (index, placed) in canvas.placed.enumerated() { placedOnRow[placed.y].append(index) }
        dashedOnRow = (0..<canvas.height).map { y in (0..<canvas.width).filter { canvas.isDashed(x: $0, y: y) } }
        if block.hiddenEdges > 0 {
            let count = block.hiddenEdges
            trailer = ("+\(count) edge\(count == 1 ? "" : "s") to hidden operations ▸", .hiddenEdges(block.key))
        }
        collectItems()
    }

    /// The columns a label may take in a block whose layers hold `columns`: every label whole
    /// when the widest of each layer fit the pane side by side (less the gaps the edges need);
    /// else the pane's share for each layer, and never less than `least`, the pane's default. A
    /// chain of two shows whole names where they fit, not short ones with the pane blank beside.
    static func labelWidth(columns: [[GraphNode]], paneWidth: Int, least: Int) -> Int {
        guard !columns.isEmpty else { return least }
        let gaps = 6 * (columns.count - 1)
        let widest = columns.map { column in column.map { GraphLabels.columns($0.label) }.max() ?? 0 }
        if widest.reduce(0, +) + gaps <= paneWidth { return max(least, widest.max() ?? least) }
        return max(least, (paneWidth - gaps) / columns.count)
    }

    /// The nodes of `graph` in order when it is one straight chain (a single node included):
    /// each has at most one edge in and one out, and all hang together.
    static func chain(_ graph: LayoutGraph) -> [Int]? {
        let count = graph.nodeCount
        guard count > 0, graph.edgeCount == count - 1 else { return nil }
        guard let start = (0..<count).first(where: { graph.predecessors[$0].isEmpty }) else { return nil }
        var order = [start]
        order.reserveCapacity(count)
        var node = start
        while order.count < count {
            guard graph.successors[node].count == 1 else { return nil }
            node = graph.successors[node][0]
            guard graph.predecessors[node].count == 1 else { return nil }
            order.append(node)
        }
        return graph.successors[node].isEmpty ? order : nil
    }

    /// A line alone (the finished groups).
    init(line text: String, key: GraphItemKey) {
        trailer = (text, key)
        collectItems()
    }

    private mutating func collectItems() {
        let top = banners.count
        items = canvas.placed.map { placed in
            GraphPaneMemory.Item(key: .node(nodes[placed.node].key), row: top + placed.y, x: placed.x, width: placed.width)
        }
        items.sort { ($0.row, $0.x) < ($1.row, $1.x) }
        if let trailer { items.append(GraphPaneMemory.Item(key: trailer.key, row: height - 1, x: 0, width: trailer.text.count)) }
    }

    /// The item `key`, if drawn here.
    func item(_ key: GraphItemKey?) -> GraphPaneMemory.Item? {
        guard let key else { return nil }
        return items.first { $0.key == key }
    }

    /// The box drawn for `key`.
    func node(_ key: GraphItemKey) -> GraphNode? {
        guard case .node(let nodeKey) = key else { return nil }
        return nodes.first { $0.key == nodeKey }
    }
}
