import DashboardModel
import OperationEvents
import TerminalKit

/// View 5: each queue as lanes of operation bars over time (a Gantt chart): waiting, running,
/// ran and cancelled drawn with different marks, so that they read without colour too;
/// overlapping bars stack in lanes, so a queue's concurrency shows as its height. The window
/// ends at the moment shown (the time cursor: now, or the replay's position).
struct TimelineView {
    let theme: Theme

    /// The marks: waiting, running, ran (finished), cancelled.
    private var marks: (waiting: Character, running: Character, ran: Character, cancelled: Character) {
        theme.unicode ? ("░", "█", "▓", "╳") : (".", "#", "=", "x")
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let state = interaction.state
        let (start, end) = TimelineLayout.window(model)
        let title = "5 timeline: the last \(DurationText.format(end - start)) of each queue  (↑ ↓ select, Enter goes to it)"
        let inner = Frame(title: TextWrap.fit(theme.text(title), width: max(1, area.width - 4)), style: theme.focusedFrame,
                          titleStyle: theme.focusedFrame, ascii: !theme.unicode)
            .render(into: &buffer, area: area)
        map.panes[.table] = area
        guard inner.width >= 20, inner.height >= 3 else {
            buffer.write("too small for the timeline", x: inner.x, y: inner.y, style: theme.dim, clip: inner)
            return
        }
        let labelWidth = min(18, max(8, inner.width / 5))
        let chartX = inner.x + labelWidth + 1
        let columns = inner.maxX - chartX - 1
        let cursorX = chartX + columns
        let layout = TimelineLayout.build(model, columns: columns, rows: inner.height - 2)
        drawLegend(into: &buffer, inner, cursor: cursorText(state))
        var y = inner.y + 1
        if layout.queues.isEmpty {
            buffer.write("no operation in this window", x: chartX, y: y, style: theme.dim, clip: inner)
        }
        for queue in layout.queues {
            for (index, lane) in queue.lanes.enumerated() {
                var label = index == 0 ? queue.title : ""
                if index == queue.lanes.count - 1, queue.hidden > 0 { label = index == 0 ? "\(queue.title) +\(queue.hidden)" : "+\(queue.hidden) more" }
                buffer.write(GraphTextFit.fit(label, labelWidth), x: inner.x, y: y, style: index == 0 ? theme.header : theme.dim, clip: inner)
                for bar in lane {
                    draw(bar, layout, y: y, chartX: chartX, columns: columns, selected: bar.id == state.selection, into: &buffer, map: &map)
                }
                buffer.write(theme.unicode ? "│" : "|", x: cursorX, y: y, style: theme.title, clip: inner)
                y += 1
            }
        }
        if layout.hiddenQueues > 0 {
            buffer.write("… \(layout.hiddenQueues) more queue\(layout.hiddenQueues == 1 ? "" : "s") (a taller terminal shows them)",
                         x: inner.x, y: y, style: theme.dim, clip: inner)
        }
        drawAxis(into: &buffer, inner, chartX: chartX, columns: columns, start: start, end: end, cursor: cursorText(state))
    }

    /// `now`, or the replay's position.
    private func cursorText(_ state: ViewState) -> String {
        guard let timeline = state.timeline else { return "now" }
        return TimelineBar.seconds(timeline.position)
    }

    private func drawLegend(into buffer: inout Buffer, _ area: Rect, cursor: String) {
        let marks = marks
        var x = area.x
        for (mark, name, style) in [(marks.waiting, "waiting", theme.style(state: .ready, cancelled: false)),
                                    (marks.running, "running", theme.style(state: .executing, cancelled: false)),
                                    (marks.ran, "ran", theme.style(state: .finished, cancelled: false)),
                                    (marks.cancelled, "cancelled", theme.style(state: .executing, cancelled: true))] {
            x = buffer.write(String(mark), x: x, y: area.y, style: style, clip: area)
            x = buffer.write(" \(name)   ", x: x, y: area.y, style: theme.dim, clip: area)
        }
        // Cut with `…` where it does not fit, as the legend says of every cut.
        let note = (theme.unicode ? "│" : "|") + " the moment shown (" + cursor + "); stacked bars ran at the same time"
        buffer.write(TerminalText.truncate(note, to: area.maxX - x), x: x, y: area.y, style: theme.dim, clip: area)
    }

    private func draw(_ bar: TimelineLayout.Bar, _ layout: TimelineLayout, y: Int, chartX: Int, columns: Int, selected: Bool,
                      into buffer: inout Buffer, map: inout ScreenMap) {
        func column(_ time: UInt64) -> Int { TimelineLayout.column(time, start: layout.start, end: layout.end, columns: columns) }
        let first = column(bar.added)
        let last = max(first, column(bar.finished ?? layout.end))
        let runFrom = bar.started.map(column) ?? last + 1
        let marks = marks
        for position in first...last {
            let running = position >= runFrom
            let mark: Character
            let style: Style
            if bar.cancelled {
                (mark, style) = (marks.cancelled, theme.style(state: bar.finished == nil ? .executing : .finished, cancelled: true))
            } else if !running {
                (mark, style) = (marks.waiting, theme.style(state: .ready, cancelled: false))
            } else if bar.executing {
                (mark, style) = (marks.running, theme.style(state: .executing, cancelled: false))
            } else {
                (mark, style) = (marks.ran, theme.style(state: .finished, cancelled: false))
            }
            buffer[chartX + position, y] = Cell(mark, style: style)
        }
        let rect = Rect(x: chartX + first, y: y, width: last - first + 1, height: 1)
        // The id over a bar wide enough to hold it with a mark on each side.
        let label = bar.id.description
        if rect.width >= label.count + 2 {
            buffer.write(label, x: rect.x + 1, y: y, style: theme.header, clip: rect)
        }
        if selected { buffer.restyle(rect) { $0.attributes.insert(.reverse) } }
        map.graphNodes.append(GraphNodeArea(rect: rect, operation: bar.id))
    }

    /// Offsets back from the cursor under the chart, and the cursor's time at its column.
    private func drawAxis(into buffer: inout Buffer, _ area: Rect, chartX: Int, columns: Int, start: UInt64, end: UInt64, cursor: String) {
        let y = area.maxY - 1
        let span = end - start
        let cursorX = chartX + columns
        let cursorLabel = (theme.unicode ? "▲ " : "^ ") + cursor
        let cursorStart = max(chartX, cursorX - cursorLabel.count + 1)
        var freeUntil = cursorStart - 1
        // Ticks at quarters of the window, right to left, each where its label fits.
        for quarter in stride(from: 3, through: 0, by: -1) {
            let back = span - span / 4 * UInt64(quarter)
            let x = chartX + TimelineLayout.column(end - min(back, end - start), start: start, end: end, columns: columns)
            let text = (theme.unicode ? "┴" : "+") + "-" + DurationText.format(back)
            guard x + text.count < freeUntil else { continue }
            buffer.write(theme.text(text), x: x, y: y, style: theme.dim, clip: area)
            freeUntil = x - 1
        }
        buffer.write(cursorLabel, x: cursorStart, y: y, style: theme.title, clip: area)
    }
}
