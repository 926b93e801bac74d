import DashboardModel
import OperationEvents
import TerminalKit

/// Composes a whole frame from the model and the view state: header, panes, status line and key
/// bar, and the overlays. Pure: the same inputs give the same cells (the clock is the model's).
public struct FrameComposer: Sendable {
    /// Colours and character set.
    public var theme: Theme
    /// The one-line lesson or description shown under the title (a demo's caption).
    public var caption: String
    /// Smallest usable terminal.
    public static let minimumWidth = 40
    /// Smallest usable terminal height.
    public static let minimumHeight = 10

    /// A composer.
    public init(theme: Theme = Theme(), caption: String = "") {
        self.theme = theme
        self.caption = caption
    }

    /// Draws a frame of `width` × `height`; returns it and where things went (for the mouse).
    public func compose(_ model: DashboardModel, _ interaction: Interaction, width: Int, height: Int) -> (Buffer, ScreenMap) {
        var buffer = Buffer(width: width, height: height)
        var map = ScreenMap()
        map.graphLayout = interaction.map.graphLayout
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            drawTooSmall(&buffer)
            return (buffer, map)
        }
        let state = interaction.state
        var area = buffer.area
        let (titleRow, rest) = area.splitTop(1)
        drawTitle(&buffer, titleRow, model, state)
        area = rest
        let queueLines = min(max(1, model.queues.count), height >= 30 ? 8 : 4)
        let (header, body) = area.splitTop(queueLines)
        HeaderView(theme: theme).render(model, state, into: &buffer, area: header)
        let (main, bottom) = body.splitBottom(2)
        drawPanes(&buffer, &map, main, model, interaction)
        drawStatus(&buffer, Rect(x: bottom.x, y: bottom.y, width: bottom.width, height: 1), model, interaction)
        KeyBarView(theme: theme).render(into: &buffer, area: Rect(x: bottom.x, y: bottom.y + 1, width: bottom.width, height: 1))
        switch state.overlay {
        case .picker(let row): PickerOverlay(theme: theme).render(interaction.templates, selected: row, into: &buffer, area: main)
        case .help(let offset): HelpOverlay(theme: theme).render(offset: offset, into: &buffer, area: main)
        case .confirm, nil: break
        }
        // `--ascii`: one last pass, so that no view can leak a Unicode character.
        if !theme.unicode { buffer.mapCharacters(GraphCanvas.ascii) }
        return (buffer, map)
    }

    private func drawTooSmall(_ buffer: inout Buffer) {
        let lines = ["Terminal too small: \(buffer.width)x\(buffer.height)",
                     "OpScope needs \(Self.minimumWidth)x\(Self.minimumHeight)", "q quits"]
        for (index, line) in lines.enumerated() where index < buffer.height {
            let x = max(0, (buffer.width - line.count) / 2)
            let y = max(0, (buffer.height - lines.count) / 2) + index
            buffer.write(line, x: x, y: y, style: index == 0 ? theme.warning : .plain)
        }
    }

    private func drawTitle(_ buffer: inout Buffer, _ area: Rect, _ model: DashboardModel, _ state: ViewState) {
        var x = buffer.write(" OpScope ", x: area.x, y: area.y, style: theme.title.with(.reverse), clip: area)
        if !caption.isEmpty { x = buffer.write(" " + caption, x: x, y: area.y, style: theme.dim, clip: area) }
        var right: [(String, Style)] = []
        if model.droppedEvents > 0 { right.append(("\(model.droppedEvents) events dropped", theme.error)) }
        if state.paused { right.append(("PAUSED", theme.warning.with(.reverse))) }
        right.append(("\(model.operations.count) ops", theme.dim))
        var end = area.maxX
        for (text, style) in right.reversed() {
            let start = end - text.count - 1
            guard start > x else { break }
            buffer.write(text, x: start, y: area.y, style: style, clip: area)
            end = start
        }
    }

    private func drawPanes(_ buffer: inout Buffer, _ map: inout ScreenMap, _ area: Rect, _ model: DashboardModel,
                           _ interaction: Interaction) {
        let state = interaction.state
        let warnings = model.warnings()
        let frame = { (pane: ViewState.Pane, title: String) in
            Frame(title: title, style: state.focus == pane ? theme.focusedFrame : theme.frame,
                  titleStyle: state.focus == pane ? theme.focusedFrame : theme.header, ascii: !theme.unicode)
        }
        let wide = area.width >= 100
        let left: Rect
        let right: Rect
        if wide {
            (left, right) = area.splitLeft(area.width * 11 / 20)
        } else {
            let top = max(4, area.height / 2)
            let split = area.splitTop(top)
            (left, right) = (split.0, split.1)
        }
        // Left: the table, with the warnings under it when there are any.
        var tableArea = left
        if wide, !warnings.isEmpty, left.height >= 12 {
            let split = left.splitBottom(min(6, warnings.count + 2))
            tableArea = split.rest
            map.panes[.warnings] = split.bottom
            let inner = frame(.warnings, "Warnings (\(warnings.count))").render(into: &buffer, area: split.bottom)
            WarningsView(theme: theme).render(warnings, offset: state.warnings.offset, into: &buffer, area: inner)
        }
        map.panes[.table] = tableArea
        let sortMark = state.table.descending ? "▼" : "▲"
        let filterNote = state.table.filter.isEmpty ? "" : " /\(state.table.filter)"
        let tableInner = frame(.table, "Operations\(filterNote)  sort \(state.table.sort.title)\(theme.unicode ? sortMark : (state.table.descending ? "v" : "^"))")
            .render(into: &buffer, area: tableArea)
        OperationTableView(theme: theme).render(model, interaction, into: &buffer, area: tableInner, map: &map)

        // Right (or below): details, or the graph and the lanes.
        if let details = state.details {
            map.panes[.graph] = right
            let inner = frame(.graph, "Details").render(into: &buffer, area: right)
            DetailView(theme: theme).render(model, state, offset: details.offset, warnings: warnings, into: &buffer, area: inner)
            return
        }
        var graphArea = right
        var lanesArea: Rect?
        if wide || right.height >= 14 {
            let split = right.splitTop(right.height * 3 / 5)
            graphArea = split.0
            lanesArea = split.1
        } else if state.focus == .lanes {
            graphArea = Rect(x: right.x, y: right.y, width: 0, height: 0)
            lanesArea = right
        } else if state.focus == .warnings, !wide {
            map.panes[.warnings] = right
            let inner = frame(.warnings, "Warnings (\(warnings.count))").render(into: &buffer, area: right)
            WarningsView(theme: theme).render(warnings, offset: state.warnings.offset, into: &buffer, area: inner)
            return
        }
        if !graphArea.isEmpty {
            map.panes[.graph] = graphArea
            let title = state.graph.layout == .focused
                ? (state.graph.followsSelection ? "Graph around \(state.selection?.description ?? "-")" : "Graph: critical path")
                : "Graph: all operations"
            let inner = frame(.graph, title).render(into: &buffer, area: graphArea)
            GraphView(theme: theme).render(model, state, into: &buffer, area: inner, map: &map)
        }
        if let lanesArea {
            map.panes[.lanes] = lanesArea
            let inner = frame(.lanes, "QoS lanes").render(into: &buffer, area: lanesArea)
            QoSLanesView(theme: theme).render(model, state, into: &buffer, area: inner)
        }
    }

    private func drawStatus(_ buffer: inout Buffer, _ area: Rect, _ model: DashboardModel, _ interaction: Interaction) {
        let state = interaction.state
        if case .confirm(let confirmation) = state.overlay {
            buffer.write(confirmation.question, x: area.x, y: area.y, style: theme.warning.with(.reverse), clip: area)
            return
        }
        switch state.input {
        case .command(let text):
            let x = buffer.write(":" + text, x: area.x, y: area.y, clip: area)
            buffer.write("█", x: x, y: area.y, clip: area)
        case .filter(let text):
            let x = buffer.write("/" + text, x: area.x, y: area.y, clip: area)
            buffer.write("█", x: x, y: area.y, clip: area)
        case nil:
            if let status = state.status {
                buffer.write(status.text, x: area.x, y: area.y, style: status.isError ? theme.error : .plain, clip: area)
            } else if !state.table.tagged.isEmpty {
                buffer.write("\(state.table.tagged.count) tagged: c cancels them, Esc clears", x: area.x, y: area.y,
                             style: theme.dim, clip: area)
            }
        }
    }
}
