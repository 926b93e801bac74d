import DashboardModel
import OperationEvents
import TerminalKit

/// View 1: the panes (the operations table, the graph or the details, the QoS lanes, the
/// warnings) under the queue lines. Tab moves the keys between the panes: ↑ ↓ and Enter act in
/// the one that has them.
struct OverviewScreen: ScreenView {
    let text = ScreenText(.overview, title: "overview",
                          keyHelp: "view: the overview",
                          summary:
                              "the overview: queue lines, operations (live first; `H` hides the finished), graph, QoS lanes (executing, next in start "
                              + "order, held: ready but in a suspended queue, in none, or not started by a queue with room for it, waiting), warnings "
                              + "(wrapped; Tab to them, Enter goes to the operation; the title counts them)")

    /// The table's rows.
    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID] {
        interaction.rows(model)
    }

    /// Moves in the pane that has the keys: the queues, the warnings, the details, the graph or
    /// the table.
    func move(by delta: Int, _ interaction: inout Interaction, _ model: DashboardModel) {
        switch interaction.state.focus {
        case .queues: interaction.moveQueue(by: delta, model)
        case .warnings:
            let count = model.warnings().count
            interaction.state.warnings.offset = min(max(0, interaction.state.warnings.offset.addingClamped(delta)), max(0, count - 1))
        case .graph where interaction.state.details != nil:
            let details = interaction.state.details?.offset ?? 0
            interaction.state.details = ViewState.ScrollState(offset: max(0, details.addingClamped(delta)))
        case .graph: interaction.moveInGraph(by: delta, model)
        case .table, .lanes: interaction.moveSelection(by: delta, model)
        }
    }

    /// On a queue, shows its operations; on a warning, goes to its operation; on a fold of the
    /// graph, opens it; otherwise opens the details.
    func enter(_ interaction: inout Interaction, _ model: DashboardModel) -> [Effect] {
        switch interaction.state.focus {
        case .queues:
            guard let queue = interaction.state.queue else { return [] }
            interaction.state.table.filter = "queue:\(queue)"
            interaction.state.focus = .table
            interaction.status("operations of \(queue) only (Esc clears the filter)")
        case .warnings:
            let warnings = model.warnings()
            guard !warnings.isEmpty else { return [] }
            let warning = warnings[min(interaction.state.warnings.offset, warnings.count - 1)]
            guard let id = warning.operation else { return interaction.error("this warning is about the whole program") }
            return interaction.reveal(id, model)
        case .graph where interaction.state.details == nil:
            if let effects = interaction.enterGraph(model) { return effects }
            interaction.state.details = ViewState.ScrollState()
        case .graph, .table, .lanes:
            interaction.state.details = ViewState.ScrollState()
        }
        return [.redraw]
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let state = interaction.state
        // Titles are cut after a whole word, never in the middle of one.
        let frame = { (pane: ViewState.Pane, title: String, area: Rect) -> Frame in
            Frame(title: TextWrap.fit(theme.text(title), width: max(1, area.width - 4)), style: state.focus == pane ? theme.focusedFrame : theme.frame,
                  titleStyle: state.focus == pane ? theme.focusedFrame : theme.header, ascii: !theme.unicode)
        }
        let wide = area.width >= 100
        // The graph, when it has the keys, takes the room a drawing needs: the wider column, or
        // most of the rows (and the lanes give it theirs).
        let graphFocused = state.focus == .graph && state.details == nil
        let left: Rect
        let right: Rect
        if wide {
            (left, right) = area.splitLeft(graphFocused ? area.width * 2 / 5 : area.width * 11 / 20)
        } else {
            // Stacked: open details get the larger part, so that their "Why" shows.
            let top = state.details != nil ? max(4, area.height * 2 / 5)
                : graphFocused ? max(4, area.height / 3) : max(4, area.height / 2)
            (left, right) = area.splitTop(top)
        }
        // Left: the table, with the warnings under it when there are any.
        var tableArea = left
        if wide, !warnings.isEmpty, left.height >= 12 {
            let needed = WarningsView.lineCount(warnings, width: left.width - 2, theme: theme) + 2
            let split = left.splitBottom(min(needed, max(4, left.height / 3)))
            tableArea = split.rest
            drawWarnings(&buffer, &map, theme, split.bottom, warnings, state, frame)
        }
        map.panes[.table] = tableArea
        let tableInner = frame(.table, Self.tableTitle(state, width: tableArea.width - 2), tableArea).render(into: &buffer, area: tableArea)
        OperationsPane(theme: theme).render(model, interaction, into: &buffer, area: tableInner, map: &map)

        // Right (or below): details, or the graph and the lanes.
        if let details = state.details {
            map.panes[.graph] = right
            let inner = frame(.graph, "Details (↑ ↓ scroll when focused, Esc closes)", right).render(into: &buffer, area: right)
            DetailView(theme: theme).render(model, state, offset: details.offset, warnings: warnings, into: &buffer, area: inner)
            return
        }
        var graphArea = right
        var lanesArea: Rect?
        if graphFocused {
            graphArea = right
        } else if wide || right.height >= 14 {
            let split = right.splitTop(right.height * 3 / 5)
            graphArea = split.0
            lanesArea = split.1
        } else if state.focus == .lanes {
            graphArea = Rect(x: right.x, y: right.y, width: 0, height: 0)
            lanesArea = right
        } else if state.focus == .warnings {
            drawWarnings(&buffer, &map, theme, right, warnings, state, frame)
            return
        }
        if !graphArea.isEmpty {
            map.panes[.graph] = graphArea
            let inner = frame(.graph, GraphView.title(model, state), graphArea).render(into: &buffer, area: graphArea)
            // The graph draws in Unicode but for the labels' `<>` (as the table's); the frame's
            // last pass makes the rest ASCII with everything else.
            GraphView(theme: theme).render(model, state, into: &buffer, area: inner, map: &map)
            // What it leaves out and where it is panned, on its bottom edge.
            let note = map.graph.note.isEmpty ? "" : " \(map.graph.note) "
            if !note.isEmpty, graphArea.height > 2, note.count < graphArea.width - 2 {
                buffer.write(note, x: graphArea.maxX - note.count - 1, y: graphArea.maxY - 1,
                             style: state.focus == .graph ? theme.focusedFrame : theme.frame, clip: graphArea)
            }
        }
        if let lanesArea {
            map.panes[.lanes] = lanesArea
            let inner = frame(.lanes, "QoS lanes", lanesArea).render(into: &buffer, area: lanesArea)
            QoSLanesView(theme: theme).render(model, state, into: &buffer, area: inner, map: &map)
        }
    }

    private func drawWarnings(_ buffer: inout Buffer, _ map: inout ScreenMap, _ theme: Theme, _ area: Rect, _ warnings: [Warning], _ state: ViewState,
                              _ frame: (ViewState.Pane, String, Rect) -> Frame) {
        map.panes[.warnings] = area
        let hint = state.focus == .warnings && !warnings.isEmpty ? ": ↑ ↓ choose, Enter goes to it" : ""
        let inner = frame(.warnings, "Warnings (\(warnings.count))\(hint)", area).render(into: &buffer, area: area)
        WarningsView(theme: theme).render(warnings, selected: state.warnings.offset, focused: state.focus == .warnings,
                                          into: &buffer, area: inner, map: &map)
    }

    /// `Operations /filter  sort WAIT▲`, saying when the sort column is not on screen and when
    /// finished operations are hidden.
    private static func tableTitle(_ state: ViewState, width: Int) -> String {
        let table = state.table
        let mark = table.descending ? "▼" : "▲"
        var title = "Operations"
        if !table.filter.isEmpty { title += " /\(table.filter)" }
        if table.hideFinished { title += " (finished hidden)" }
        title += "  sort \(table.sort.title)\(mark)"
        if table.follow { title += "  following" }
        if !OperationsPane.layout(width: width).contains(where: { $0.column == table.sort }) {
            title += " (column hidden: too narrow)"
        }
        return title
    }
}
