import DashboardModel
import OperationEvents
import TerminalKit

/// Draws a layered layout into a `GraphCanvas`, left to right: one column per layer, one row per
/// node in its layer, edges routed through vertical channels in the gaps between columns.
///
/// Edges into the same box share a channel (they merge, drawn as joins); different edges get
/// different channels (where they cross, the canvas draws a crossing). Edges the layout reversed
/// are dashed. Back edges of a cycle, kept out of the layout, are routed apart: out of their
/// source's right side, down to a row of their own under the boxes, back left, and into their
/// target's left side, dashed, through channels of their own. Labels are painted after the lines.
public enum GraphDrawing {
    /// Draws `layout` of a graph whose real nodes have `labels`; `dashed` edges are drawn dashed;
    /// `backEdges` (between real nodes, each from a node to one in an earlier layer) are routed
    /// under the boxes.
    public static func draw(_ layout: LayeredLayout, labels: [String], dashed: Set<LayeredLayout.Edge> = [],
                            backEdges: [LayeredLayout.Edge] = [], maxLabelWidth: Int = 24) -> GraphCanvas {
        let layerCount = layout.layers.count
        guard layerCount > 0 else { return GraphCanvas(width: 0, height: 0) }
        // Which edges to dash (the layout knows the real edge each dummy carries).
        let dashedEdges = dashed.union(layout.reversedEdges)
        // Most drawings have neither: no edge is hashed then.
        let anyReversed = !layout.reversedEdges.isEmpty
        let anyDashed = !dashedEdges.isEmpty
        // Widths are columns of the labels as the canvas shows them (made visible; CJK and emoji
        // take two), measured once.
        var shown: [String] = []
        var labelColumns: [Int] = []
        shown.reserveCapacity(labels.count)
        labelColumns.reserveCapacity(labels.count)
        for label in labels {
            if let columns = GraphLabels.simpleColumns(label) {
                shown.append(label)
                labelColumns.append(columns)
            } else {
                shown.append(TerminalText.visible(label))
                labelColumns.append(GraphLabels.columns(shown[shown.count - 1]))
            }
        }
        func width(of node: Int) -> Int { node >= 0 ? min(maxLabelWidth, max(1, labelColumns[node])) : 1 }

        // Segments and channels per gap.
        struct Segment {
            var from: Int
            var to: Int
            var group: Int
            var dashed: Bool
        }
        var gaps: [[Segment]] = Array(repeating: [], count: max(0, layerCount - 1))
        for layer in 0..<(layerCount - 1) {
            // Segments into one box merge (a fan-in); segments out of one box into boxes nobody
            // else enters merge too (a fan-out). Anything else keeps its own group, so that
            // lines meet only where the edges really share an end.
            var incoming: [Int: Int] = [:]
            // (The layout's neighbour lists are read in place: no list is made per node.)
            for node in layout.layers[layer] {
                layout.forEachLower(node) { incoming[$0, default: 0] += 1 }
            }
            for node in layout.layers[layer] {
                let lowerCount = layout.lowerCount(node)
                layout.forEachLower(node) { next in
                    let edge = node < 0 ? layout.edge(ofDummy: node) : (next < 0 ? layout.edge(ofDummy: next) : LayeredLayout.Edge(node, next))
                    let target = anyReversed && layout.reversedEdges.contains(edge) ? edge.from : edge.to
                    let fanOut = node >= 0 && lowerCount > 1 && incoming[next] == 1
                    gaps[layer].append(Segment(from: node, to: next, group: fanOut ? -2 - node : target,
                                               dashed: anyDashed && dashedEdges.contains(edge)))
                }
            }
        }
        var channelOf: [[Int: Int]] = Array(repeating: [:], count: gaps.count)
        var channelCount = [Int](repeating: 0, count: gaps.count)
        for (gap, segments) in gaps.enumerated() {
            // One channel per target group; intervals that do not overlap share a channel.
            var spans: [Int: (Int, Int)] = [:]
            for segment in segments where layout.position(of: segment.from) != layout.position(of: segment.to) {
                let a = layout.position(of: segment.from)
                let b = layout.position(of: segment.to)
                let span = spans[segment.group] ?? (Int.max, Int.min)
                spans[segment.group] = (min(span.0, a, b), max(span.1, a, b))
            }
            var channelEnds: [Int] = []
            for (group, span) in spans.sorted(by: { ($0.value.0, $0.key) < ($1.value.0, $1.key) }) {
                if let free = channelEnds.firstIndex(where: { $0 < span.0 }) {
                    channelEnds[free] = span.1
                    channelOf[gap][group] = free
                } else {
                    channelOf[gap][group] = channelEnds.count
                    channelEnds.append(span.1)
                }
            }
            channelCount[gap] = channelEnds.count
        }

        // Back edges: a channel out of the source's layer and one into the target's layer.
        let back = backEdges.filter { $0.from < layout.realCount && $0.to < layout.realCount
            && layout.layer(of: $0.to) < layout.layer(of: $0.from) }
        var backOut = [Int](repeating: 0, count: layerCount)
        var backIn = [Int](repeating: 0, count: layerCount)
        var outSlot: [Int] = []
        var inSlot: [Int] = []
        for edge in back {
            outSlot.append(backOut[layout.layer(of: edge.from)])
            backOut[layout.layer(of: edge.from)] += 1
            inSlot.append(backIn[layout.layer(of: edge.to)])
            backIn[layout.layer(of: edge.to)] += 1
        }

        // Columns: [channels into layer 0] layer 0 [back out | channels | back in] layer 1 ... [back out].
        var columnX = [Int](repeating: 0, count: layerCount)
        var columnWidth = [Int](repeating: 1, count: layerCount)
        var x = backIn[0] > 0 ? backIn[0] + 1 : 0
        for layer in 0..<layerCount {
            columnX[layer] = x
            columnWidth[layer] = layout.layers[layer].map(width(of:)).max() ?? 1
            x += columnWidth[layer]
            if layer < layerCount - 1 { x += backOut[layer] + channelCount[layer] + backIn[layer + 1] + 3 }
        }
        if backOut[layerCount - 1] > 0 { x += backOut[layerCount - 1] + 1 }
        let rows = layout.layers.map(\.count).max() ?? 0
        var canvas = GraphCanvas(width: x, height: rows + back.count)

        // Dummies: a straight line across their column.
        for layer in 0..<layerCount {
            for node in layout.layers[layer] where node < 0 {
                let y = layout.position(of: node)
                let edge = layout.edge(ofDummy: node)
                let group = anyReversed && layout.reversedEdges.contains(edge) ? edge.from : edge.to
                canvas.horizontal(from: columnX[layer] - 1, to: columnX[layer] + columnWidth[layer], y: y,
                                  group: group, dashed: anyDashed && dashedEdges.contains(edge))
            }
        }
        // Segments.
        for (gap, segments) in gaps.enumerated() {
            let gapStart = columnX[gap] + columnWidth[gap]
            let entry = columnX[gap + 1] - 1
            for segment in segments {
                let y1 = layout.position(of: segment.from)
                let y2 = layout.position(of: segment.to)
                let start = segment.from >= 0 ? columnX[gap] + width(of: segment.from) : gapStart
                if y1 == y2 {
                    canvas.horizontal(from: start, to: entry, y: y1, group: segment.group, dashed: segment.dashed)
                    continue
                }
                let channel = gapStart + 1 + backOut[gap] + (channelOf[gap][segment.group] ?? 0)
                canvas.horizontal(from: start, to: channel, y: y1, group: segment.group, dashed: segment.dashed)
                canvas.vertical(from: y1, to: y2, x: channel, group: segment.group, dashed: segment.dashed)
                canvas.horizontal(from: channel, to: entry, y: y2, group: segment.group, dashed: segment.dashed)
            }
        }
        // Back edges, each in a row of its own under the boxes; a group of their own, so that
        // they join nothing they only cross.
        for (index, edge) in back.enumerated() {
            let (from, to) = (edge.from, edge.to)
            let (sourceLayer, targetLayer) = (layout.layer(of: from), layout.layer(of: to))
            let row = rows + index
            let out = columnX[sourceLayer] + columnWidth[sourceLayer] + 1 + outSlot[index]
            let into = targetLayer == 0
                ? inSlot[index]
                : columnX[targetLayer - 1] + columnWidth[targetLayer - 1] + 1 + backOut[targetLayer - 1]
                    + channelCount[targetLayer - 1] + inSlot[index]
            let group = -1_000_000 - index
            let (y1, y2) = (layout.position(of: from), layout.position(of: to))
            canvas.horizontal(from: columnX[sourceLayer] + width(of: from), to: out, y: y1, group: group, dashed: true)
            canvas.vertical(from: y1, to: row, x: out, group: group, dashed: true)
            canvas.horizontal(from: out, to: into, y: row, group: group, dashed: true)
            canvas.vertical(from: row, to: y2, x: into, group: group, dashed: true)
            canvas.horizontal(from: into, to: columnX[targetLayer] - 1, y: y2, group: group, dashed: true)
        }
        // Labels last.
        for layer in 0..<layerCount {
            for node in layout.layers[layer] where node >= 0 {
                let text = labelColumns[node] > columnWidth[layer] ? TerminalText.truncate(shown[node], to: columnWidth[layer]) : shown[node]
                canvas.write(text, x: columnX[layer], y: layout.position(of: node), node: node, width: columnWidth[layer])
            }
        }
        return canvas
    }

    /// `text`, shortened with `…` to at most `width` characters. (The graph's labels are cut by
    /// columns, through `TerminalText`.)
    public static func truncate(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}
