import DashboardModel
import OperationEvents
import TerminalKit

/// The operations table: id, name, queue, state, priority, QoS, dependencies, wait, run.
struct OperationsPane {
    let theme: Theme

    /// Columns with their width and the order they are dropped in when the pane is narrow
    /// (higher goes first; 0 never).
    static let specs: [(column: ViewState.SortColumn, width: Int, drop: Int)] = [
        (.id, 5, 0), (.name, 14, 0), (.queue, 8, 3), (.state, 11, 0), (.priority, 6, 4), (.qos, 5, 5),
        (.dependencies, 8, 6), (.wait, 7, 2), (.run, 7, 1),
    ]

    /// The columns that fit in `width`: those never dropped, then the others, most important
    /// first, each that fits in what is left (one too wide is passed over for a narrower one
    /// after it). A wider pane never shows fewer columns. What is left widens the name column
    /// (by up to 16, or as much as the longest name shown needs), which names are cut in: blank
    /// columns at the end while names end in `…` helped no one. Before it, the queue column
    /// takes what the longest queue name shown needs (`wanted`). `idWidth` widens the id column
    /// for ids of more than four digits, which it would otherwise cut.
    static func layout(width: Int, idWidth: Int = 5, wanted: [ViewState.SortColumn: Int] = [:])
        -> [(column: ViewState.SortColumn, width: Int)] {
        var all = specs
        if let id = all.firstIndex(where: { $0.column == .id }) { all[id].width = max(all[id].width, idWidth) }
        var shown = Set(all.filter { $0.drop == 0 }.map(\.column))
        var used = all.filter { $0.drop == 0 }.reduce(-1) { $0 + $1.width + 1 }
        for spec in all.filter({ $0.drop > 0 }).sorted(by: { $0.drop < $1.drop }) where used + 1 + spec.width <= width {
            shown.insert(spec.column)
            used += 1 + spec.width
        }
        var extra = max(0, width - used)
        var widths = Dictionary(uniqueKeysWithValues: all.map { ($0.column, $0.width) })
        func widen(_ column: ViewState.SortColumn, by most: Int) {
            guard shown.contains(column), let current = widths[column] else { return }
            let added = min(extra, max(0, most))
            widths[column] = current + added
            extra -= added
        }
        widen(.queue, by: (wanted[.queue] ?? 0) - (widths[.queue] ?? 0))
        widen(.name, by: max(16, (wanted[.name] ?? 0) - (widths[.name] ?? 0)))
        return all.filter { shown.contains($0.column) }.map { ($0.column, widths[$0.column] ?? $0.width) }
    }

    static func short(_ priority: OperationPriority) -> String {
        switch priority {
        case .veryLow: "vlow"
        case .low: "low"
        case .normal: "norm"
        case .high: "high"
        case .veryHigh: "vhigh"
        case .barrier: "barr"
        }
    }

    static func short(_ qos: QoSClass) -> String {
        switch qos {
        case .userInteractive: "UI"
        case .userInitiated: "INIT"
        case .default: "DEF"
        case .utility: "UTIL"
        case .background: "BG"
        }
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard !area.isEmpty else { return }
        let state = interaction.state
        map.rows = OperationRows.rows(model, state.table, reusing: interaction.map.rows)
        let ids = map.rows.ids
        let visible = max(0, area.height - 1)
        let selectedIndex = state.selection.flatMap { ids.firstIndex(of: $0) }
        let offset = TableView.scrolledOffset(selected: selectedIndex, offset: interaction.map.tableOffset, visibleRows: visible, count: ids.count)
        let shown = Array(ids[min(offset, ids.count)..<min(ids.count, offset + visible)])
        // What the rows on screen need, so that a wide pane does not cut a name it has room for.
        var wanted: [ViewState.SortColumn: Int] = [:]
        for id in shown {
            guard let record = model.operations[id] else { continue }
            let name = TerminalText.width(TerminalText.visible(record.displayName)) + (record.isAsynchronous ? 3 : 0)
            let queue = TerminalText.width(TerminalText.visible(record.queue.flatMap { model.queues[$0]?.name } ?? "-"))
            wanted[.name] = max(wanted[.name] ?? 0, name)
            wanted[.queue] = max(wanted[.queue] ?? 0, queue)
        }
        // The tag mark and every digit of the largest id listed (a long run passes 10,000).
        let layout = Self.layout(width: area.width, idWidth: 1 + String(ids.max()?.rawValue ?? 0).count, wanted: wanted)
        let columns = layout.map { column, width in
            let title = column == .priority ? "PRIO" : column.title
            return TableView.Column(column == state.table.sort ? title + (state.table.descending ? "-" : "+") : title, width: width)
        }
        let now = model.now
        let rows: [[TextBlock.Span]] = shown.map { id in
            guard let record = model.operations[id] else { return [] }
            let inCycle = model.isInCycle(id)
            let style = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
            let tag = state.table.tagged.contains(id) ? "•" : " "
            // A cancelled operation says its state too (`✗ executing`): the glyph says cancelled.
            let stateText = theme.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle) + " "
                + (inCycle ? "cycle" : record.state.rawValue)
            let queueName = record.queue.flatMap { model.queues[$0]?.name } ?? "-"
            // The scheduler uses another priority than the one set (QoS-derived, or a barrier).
            let priority = Self.short(record.effectivePriority) + (record.priority == record.effectivePriority ? "" : theme.priorityMismatchMark)
            let dependencies = record.dependencies.isEmpty ? "-" : record.dependencies.map { String($0.rawValue) }.joined(separator: ",")
            let wait = DurationText.format(record.waitTime(now: now))
            let run = record.runTime(now: now).map(DurationText.format) ?? "-"
            var cells: [TextBlock.Span] = []
            for (column, width) in layout {
                switch column {
                case .id: cells.append(.init(tag + String(id.rawValue), style))
                // Names that do not fit end in `…`, so that a cut name is seen to be cut.
                case .name:
                    let mark = record.isAsynchronous ? (theme.unicode ? " ⇄" : " <>") : ""
                    cells.append(.init(GraphTextFit.fit(record.displayName, max(1, width - mark.count)) + mark, style))
                case .queue: cells.append(.init(GraphTextFit.fit(queueName, width)))
                case .state: cells.append(.init(stateText, style))
                case .priority: cells.append(.init(priority))
                case .qos: cells.append(.init(Self.short(record.qualityOfService)))
                case .dependencies: cells.append(.init(dependencies))
                case .wait: cells.append(.init(wait))
                case .run: cells.append(.init(run))
                }
            }
            return cells
        }
        let table = TableView(columns: columns, rows: rows, selected: selectedIndex.map { $0 - offset }, offset: 0,
                              headerStyle: theme.header.with(.underline))
        table.render(into: &buffer, area: area)
        map.tableBody = Rect(x: area.x, y: area.y + 1, width: area.width, height: visible)
        map.tableIDs = shown
        map.tableOffset = offset
        if ids.isEmpty {
            let message: String
            if let error = map.rows.error {
                message = error
            } else if !state.table.filter.isEmpty {
                message = "nothing matches /\(state.table.filter)  (Esc clears)"
            } else if state.table.hideFinished, !model.operations.isEmpty {
                message = "no unfinished operation (H shows the finished ones)"
            } else {
                message = "no operations yet"
            }
            let style = map.rows.error == nil ? theme.dim : theme.error
            for (row, line) in TextWrap.wrap(message, width: area.width - 1).prefix(max(0, area.height - 1)).enumerated() {
                buffer.write(line, x: area.x + 1, y: area.y + 1 + row, style: style, clip: area)
            }
        }
    }
}
