import DashboardModel
import OperationEvents
import TerminalKit

/// What the list views (2: stuck by root cause, 3: start order, 4: narration) share: their
/// frame, whose title names every view, and rows of styled text with the selected operation
/// highlighted, scrolled to keep it in view. Only the rows on screen are turned into text.
struct ListScreen {
    let theme: Theme

    /// A row before it is drawn: a heading, or an operation with what to say about it.
    enum Row {
        case heading(String, Style)
        case operation(OperationID, String)
        case blank
    }

    /// Draws the frame of `view` over `area`; returns its inside, where the rows go (nil when
    /// there is no room for any).
    func frame(_ view: some ScreenView, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) -> Rect? {
        let others = ScreenViews.all.map { "\($0.text.screen.rawValue) \($0.text.shortName)" }.joined(separator: ", ")
        let title = "\(view.text.screen.rawValue) \(view.text.title)  (\(others); Enter goes to it)"
        let inner = Frame(title: TextWrap.fit(title, width: max(1, area.width - 4)), style: theme.focusedFrame,
                          titleStyle: theme.focusedFrame, ascii: !theme.unicode)
            .render(into: &buffer, area: area)
        guard !inner.isEmpty else { return nil }
        map.list.body = inner
        map.panes[.table] = area
        return inner
    }

    /// Draws `rows`, or `empty` when there are none.
    func draw(_ rows: [Row], _ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect,
              map: inout ScreenMap, empty: String) {
        guard !rows.isEmpty else {
            buffer.write(empty, x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let selection = interaction.state.selection
        let selectedRow = selection.flatMap { id in rows.firstIndex { if case .operation(id, _) = $0 { return true } else { return false } } }
        let offset = TableView.scrolledOffset(selected: selectedRow, offset: interaction.map.list.offset, visibleRows: area.height, count: rows.count)
        map.list.offset = offset
        for (line, row) in rows[offset..<min(rows.count, offset + area.height)].enumerated() {
            let y = area.y + line
            let rect = Rect(x: area.x, y: y, width: area.width, height: 1)
            switch row {
            case .blank:
                map.list.rows.append(ListRowArea())
            case .heading(let text, let style):
                buffer.write(TextWrap.fit(theme.text(text), width: area.width), x: area.x, y: y, style: style, clip: area)
                map.list.rows.append(ListRowArea())
            case .operation(let id, let note):
                map.list.rows.append(ListRowArea(operation: id))
                guard let record = model.operations[id] else { continue }
                let inCycle = model.isInCycle(id)
                let style = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
                let priority = record.effectivePriority == .normal ? "" : " (\(record.effectivePriority))"
                var x = buffer.write("   " + theme.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle) + " ",
                                     x: area.x, y: y, style: style, clip: area)
                x = buffer.write(GraphTextFit.pad(record.label + priority, 30), x: x, y: y, style: style, clip: area)
                buffer.write(" " + TextWrap.fit(theme.text(note), width: max(0, area.maxX - x - 1)), x: x, y: y, style: theme.dim, clip: area)
                if id == selection { buffer.restyle(rect) { $0.attributes.insert(.reverse) } }
            }
        }
    }
}

/// Where the list view drew its rows in the last frame, for the mouse, paging and the next
/// frame's scroll.
public struct ListScreenArea: Sendable {
    /// The body (the frame's inside).
    public var body = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The visible rows, top to bottom.
    public var rows: [ListRowArea] = []
    /// The first visible row: the next frame scrolls from there, so that the selection moves
    /// within the view instead of the view jumping.
    public var offset = 0

    /// Nothing drawn yet.
    public init() {}
}

/// One visible row of a list view.
public struct ListRowArea: Sendable, Equatable {
    /// The operation on the row, if any.
    public var operation: OperationID?
    /// The narration entry on the row (the narration view).
    public var entry: Int?

    /// A row.
    public init(operation: OperationID? = nil, entry: Int? = nil) {
        self.operation = operation
        self.entry = entry
    }
}
