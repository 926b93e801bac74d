import DashboardModel
import OperationEvents
import TerminalKit

/// The graph pane: the selection's group, a pinned blocking chain (`f`), or every group (`g`),
/// drawn left to right (a dependency before its dependents), stacked one group under another,
/// scrolled to the cursor and panned (`h` `l`), with `…` where a drawing is cut and the position
/// on the pane's bottom edge. Boxes take the colour of their state; root causes are underlined;
/// edges stay neutral, back edges of cycles are dashed in the cycle colour.
struct GraphView {
    let theme: Theme

    /// What the frame needs besides the cells: the title of the pane.
    static func title(_ model: DashboardModel, _ state: ViewState) -> String {
        var title: String
        switch state.graph.layout {
        case .all: title = "Graph: all operations, stuck first"
        case .focused:
            if let pinned = state.graph.pinned, model.operations.contains(pinned) {
                title = "Graph: blocking chain of \(pinned) (f releases)"
            } else {
                title = "Graph around \(state.selection?.description ?? "-")"
            }
        }
        if state.graph.compact { title += ", compact (z)" }
        return title
    }

    /// The widest a box's label may be: half the pane, between 14 and 36 columns.
    static func labelWidth(paneWidth: Int) -> Int { min(36, max(14, paneWidth / 2)) }

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        var memory = map.graph
        defer { map.graph = memory }
        memory.items = []
        memory.note = ""
        guard !area.isEmpty else { return }
        if model.operations.isEmpty {
            buffer.write("no operations yet", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let queues = QueueFlags(model)
        let plan = GraphPlan(model, state, memory: &memory, queues: queues)
        guard !plan.entries.isEmpty else { return }
        let compact = state.graph.compact
        let cursor = state.graph.cursorKey(selection: state.selection)
        let mode = "\(state.graph.layout) \(compact) \(String(describing: state.graph.pinned))"
        let moved = cursor != memory.lastCursor || mode != memory.lastMode
        let footer = compact && area.height > 2
        let height = area.height - (footer ? 1 : 0)
        let labelWidth = Self.labelWidth(paneWidth: area.width)

        let modelStamp = GraphPaneMemory.ModelStamp(model)
        var used: Set<GraphPaneMemory.LayoutSlot> = []
        var built: [Int: DrawnBlock] = [:]
        func drawn(_ entry: Int) -> DrawnBlock {
            if let block = built[entry] { return block }
            let result: DrawnBlock
            let slot = plan.slot(entry)
            let signature = plan.signature(entry)
            let stamp = GraphPaneMemory.DrawingStamp(model: signature == nil ? modelStamp : nil,
                                                     content: signature.map { ComponentStructure.mix($0, queues.signature) } ?? 0,
                                                     graph: state.graph, selection: state.selection,
                                                     width: area.width, labelWidth: labelWidth)
            if plan.isGroup(entry), let cached = memory.drawings[slot], cached.stamp == stamp {
                used.insert(slot)
                result = cached.value
            } else if let block = plan.block(entry, model, queues: queues, unicode: theme.unicode) {
                used.insert(slot)
                var layout = memory.layouts[slot] ?? GraphLayoutMemory()
                result = DrawnBlock(block, layout: &layout, width: area.width, labelWidth: labelWidth, compact: compact)
                memory.layouts[slot] = layout
                memory.drawings[slot] = (stamp, result)
            } else if let (text, key) = plan.line(entry) {
                result = DrawnBlock(line: text, key: key)
            } else {
                result = DrawnBlock(line: "", key: .finishedGroups)
            }
            built[entry] = result
            return result
        }

        // Vertical: from the first entry shown last frame, moved to the cursor when it moved.
        let count = plan.entries.count
        var top = memory.topGroup.flatMap { key in plan.entries.indices.first { plan.slot($0).key == key } } ?? 0
        var topRow = memory.topRow
        let cursorEntry = plan.entry(of: cursor, model)
        if moved, let entry = cursorEntry, entry < top || entry - top > height {
            top = entry
            topRow = 0
        }
        top = min(top, count - 1)
        var end = top
        var rows = 0
        while end < count, rows - topRow < height || (moved && (cursorEntry ?? -1) >= end) {
            rows += drawn(end).height
            end += 1
        }
        if moved, let entry = cursorEntry, entry >= top, entry < end, let item = drawn(entry).item(cursor) {
            let row = (top..<entry).reduce(0) { $0 + drawn($1).height } + item.row
            if row < topRow { topRow = row }
            if row >= topRow + height { topRow = row - height + 1 }
        }
        // A cursor that moved (or a new layout) within the first page: the page starts at the
        // top, so that what stands above the first box (a cycle's banner) shows with it, as a
        // list's heading does. Counted only as far as one page.
        if moved, let entry = cursorEntry, top > 0 || topRow > 0 {
            var above = 0
            var index = 0
            while index < entry, above < height {
                above += drawn(index).height
                index += 1
            }
            if above < height, let item = drawn(entry).item(cursor), above + item.row < height {
                top = 0
                topRow = 0
                rows = 0
                end = 0
            }
        }
        while top < end - 1, topRow >= drawn(top).height {
            topRow -= drawn(top).height
            rows -= drawn(top).height
            top += 1
        }
        // Fill the window: more below, or, at the end, more from above.
        while end < count, rows - topRow < height {
            rows += drawn(end).height
            end += 1
        }
        while rows - topRow < height {
            if topRow > 0 {
                topRow = max(0, rows - height)
            } else if top > 0 {
                top -= 1
                rows += drawn(top).height
                topRow += drawn(top).height
            } else {
                break
            }
        }
        topRow = max(0, min(topRow, rows - height))

        // Horizontal: the widest drawing shown; panned to the cursor when it moved.
        var contentWidth = 0
        for entry in top..<end { contentWidth = max(contentWidth, drawn(entry).canvas.width) }
        var pan = memory.panX
        if moved, let entry = cursorEntry, entry >= top, entry < end, let item = drawn(entry).item(cursor),
           case .node = item.key {
            if item.x - pan < (pan > 0 ? 1 : 0) { pan = max(0, item.x - 2) }
            if item.x + item.width > pan + area.width - 1 { pan = max(0, min(item.x - 1, item.x + item.width - area.width + 2)) }
        }
        pan = max(0, min(pan, contentWidth - area.width))

        // Draw.
        var documentRow = 0
        var items: [GraphPaneMemory.Item] = []
        for entry in top..<end {
            let block = drawn(entry)
            for item in block.items {
                items.append(GraphPaneMemory.Item(key: item.key, row: documentRow + item.row, x: item.x, width: item.width))
            }
            for row in 0..<block.height {
                let y = area.y + documentRow + row - topRow
                guard y >= area.y, y < area.y + height else { continue }
                if row < block.banners.count {
                    buffer.write(block.banners[row], x: area.x, y: y, style: theme.style(state: .pending, cancelled: false, inCycle: true), clip: area)
                } else if row < block.banners.count + block.canvas.height {
                    drawCanvasRow(block, row - block.banners.count, y: y, pan: pan, area: area, cursor: cursor, into: &buffer, map: &map)
                } else if let trailer = block.trailer {
                    buffer.write(trailer.text, x: area.x, y: y, style: trailer.key == cursor ? theme.header.with(.reverse) : theme.dim, clip: area)
                }
            }
            documentRow += block.height
        }
        if footer, let entry = cursorEntry, let key = cursor {
            let block = drawn(entry)
            let text = block.node(key).map { "▸ " + $0.label } ?? block.trailer.map { "▸ " + $0.text } ?? ""
            buffer.write(TextWrap.fit(text, width: area.width), x: area.x, y: area.maxY - 1, style: theme.header, clip: area)
        }

        // What the bottom edge says: what is left out, and where the pane is.
        var notes: [String] = []
        if let left = leftOut(model, plan, drawn(0)) { notes.append(left) }
        if contentWidth > area.width { notes.append("◂ cols \(pan + 1)-\(min(contentWidth, pan + area.width)) of \(contentWidth) ▸") }
        if case .all = plan.mode {
            if top > 0 || end < count { notes.append("groups \(top + 1)-\(end) of \(count)") }
        } else if rows > height {
            notes.append("rows \(topRow + 1)-\(min(rows, topRow + height)) of \(rows)")
        }
        memory.note = notes.joined(separator: theme.separator)
        memory.items = items
        memory.before = top > 0 ? drawn(top - 1).items.first?.key : nil
        memory.after = end < count ? drawn(end).items.first?.key : nil
        memory.first = drawn(0).items.first?.key
        memory.last = drawn(count - 1).items.first?.key
        memory.topGroup = plan.slot(top).key
        memory.topRow = topRow
        memory.panX = pan
        memory.contentWidth = contentWidth
        memory.viewWidth = area.width
        memory.viewHeight = height
        memory.lastCursor = cursor
        memory.lastMode = mode
        memory.keepLayouts(used)
    }

    /// One row of a drawing, panned, with `…` where it is cut, and its boxes coloured.
    private func drawCanvasRow(_ block: DrawnBlock, _ row: Int, y: Int, pan: Int, area: Rect, cursor: GraphItemKey?,
                               into buffer: inout Buffer, map: inout ScreenMap) {
        let canvas = block.canvas
        let line = block.lines[row]
        // Cell by cell: the drawing's characters are displayable already, and most are blank.
        let end = min(line.count, pan + area.width)
        if pan < end {
            for x in pan..<end where line[x] != " " { buffer[area.x + x - pan, y] = Cell(line[x], style: theme.frame) }
            // A wide character the pan cuts in half: a blank, as half of one cannot be drawn.
            if pan > 0, line[pan] == Cell.continuationCharacter { buffer[area.x, y] = Cell(" ", style: theme.frame) }
            if end < line.count, line[end] == Cell.continuationCharacter { buffer[area.x + end - 1 - pan, y] = Cell(" ", style: theme.frame) }
        }
        // Back edges in the cycle colour.
        let cycle = theme.style(state: .pending, cancelled: false, inCycle: true)
        for x in block.dashedOnRow[row] where x >= pan && x < pan + area.width {
            buffer.restyle(Rect(x: area.x + x - pan, y: y, width: 1, height: 1)) { $0 = Style(foreground: cycle.foreground) }
        }
        for index in block.placedOnRow[row] {
            let placed = canvas.placed[index]
            let node = block.nodes[placed.node]
            let rect = Rect(x: area.x + placed.x - pan, y: y, width: placed.width, height: 1).intersection(area)
            guard !rect.isEmpty else { continue }
            var style = theme.style(state: node.state, cancelled: node.isCancelled, inCycle: node.inCycle)
            if node.root != nil { style.attributes.insert(.underline) }
            if .node(node.key) == cursor { style.attributes.insert(.reverse) }
            buffer.restyle(rect) { $0 = style }
            if case .operation(let id) = node.key { map.graphNodes.append(OperationArea(rect: rect, operation: id)) }
        }
        // Cut on the left or the right: say so.
        if pan > 0, line.prefix(pan).contains(where: { $0 != " " }) {
            buffer.write("…", x: area.x, y: y, style: theme.dim, clip: area)
        }
        if line.count > pan + area.width, line[(pan + area.width)...].contains(where: { $0 != " " }) {
            buffer.write("…", x: area.maxX - 1, y: y, style: theme.dim, clip: area)
        }
    }

    /// What the focused picture leaves out of the model.
    private func leftOut(_ model: DashboardModel, _ plan: GraphPlan, _ block: DrawnBlock) -> String? {
        let others = model.operations.count - block.shownOperations
        guard others > 0 else { return nil }
        switch plan.mode {
        case .focused(let focus):
            return block.hiddenEdges == 0 ? "\(others) not linked to \(focus) (g: all)" : "\(others) not drawn"
        case .pinned: return "\(others) not on the chain"
        case .all: return nil
        }
    }
}
