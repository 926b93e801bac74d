import DashboardModel
import OperationEvents
import TerminalKit

/// The graph pane's picture as text (what `GraphView` draws inside the pane's frame), for tests
/// and tools. `memory` is the pane's memory, kept between calls as frames keep it.
package enum GraphText {
    /// The pane's rows, trailing spaces removed, and what its bottom edge would say.
    package static func render(_ model: DashboardModel, _ state: ViewState, width: Int, height: Int,
                               memory: inout GraphPaneMemory, unicode: Bool = true) -> (lines: [String], note: String) {
        var buffer = Buffer(width: width, height: height)
        var map = ScreenMap()
        map.graph = memory
        GraphView(theme: Theme(unicode: unicode, color: false)).render(model, state, into: &buffer, area: buffer.area, map: &map)
        memory = map.graph
        if !unicode { buffer.mapCharacters(Theme.ascii) }
        var lines = buffer.lines().map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return (lines, memory.note)
    }

    /// The label of operation `id`'s box fitted into `width` columns, as the labelled pane
    /// draws it (`tagQueue`: with its queue's tag, as when its group spans queues).
    package static func label(of id: OperationID, _ model: DashboardModel, width: Int, tagQueue: Bool = false) -> String {
        GraphLabels.fit(GraphLabels.operation(id, model, queues: QueueFlags(model), tagQueue: tagQueue), width: width)
    }

    /// Columns a label takes on the canvas (`text` made visible first), as the pane measures it.
    package static func columns(_ text: String) -> Int { GraphLabels.columns(TerminalText.visible(text)) }

    /// The widest a box's label is drawn in a pane `width` columns wide.
    package static func labelWidth(paneWidth width: Int) -> Int { GraphView.labelWidth(paneWidth: width) }

    /// Every entry of the pane's plan laid out and drawn, whether or not it would fit on screen
    /// (nil for a line, such as the finished groups): what the pane would show, all of it.
    package static func pictures(_ model: DashboardModel, _ state: ViewState, width: Int) -> [DrawnBlock?] {
        var memory = GraphPaneMemory()
        let queues = QueueFlags(model)
        let plan = GraphPlan(model, state, memory: &memory, queues: queues)
        let labelWidth = GraphView.labelWidth(paneWidth: width)
        return plan.entries.indices.map { entry in
            guard let block = plan.block(entry, model, queues: queues) else { return nil }
            var layout = GraphLayoutMemory<GraphNodeKey>()
            return DrawnBlock(block, layout: &layout, width: width, labelWidth: labelWidth, compact: state.graph.compact)
        }
    }
}
