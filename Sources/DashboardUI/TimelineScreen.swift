import DashboardModel
import OperationEvents
import TerminalKit

/// View 5: the timeline (`TimelineChart` draws it). ↑ ↓ go through its bars, Enter goes to one.
struct TimelineScreen: ScreenView {
    let text = ScreenText(.timeline, title: "timeline",
                          keyHelp: "view: the timeline: each queue's operations as bars over time (waiting, running, ran, cancelled)",
                          summary:
                              "timeline: each queue's operations as bars over time, waiting `░`, running `█`, ran `▓`, cancelled `╳`; a lane per "
                              + "operation running at once, so a queue's concurrency is its height, and under them one row for the waiting parts (its "
                              + "label says the most that waited at once); each bar starts with its `#id` where it fits; the window ends at the "
                              + "moment shown (now, or a replay's position)")

    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID] {
        TimelineLayout.listed(model)
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        TimelineChart(theme: theme).render(model, interaction, into: &buffer, area: area, map: &map)
    }
}

/// View 5: each queue as lanes of operation bars over time (a Gantt chart): running, ran and
/// cancelled drawn with different marks, so that they read without colour too. A lane is one
/// slot: the operations that ran at the same time sit on separate lanes, so a queue's
/// concurrency is its height; the waiting parts share one row under them. The window ends at the
/// moment shown (the time cursor: now, or the replay's position).
package struct TimelineChart {
    let theme: Theme

    /// The marks: waiting, running, ran (finished), cancelled.
    private var marks: (waiting: Character, running: Character, ran: Character, cancelled: Character) {
        theme.unicode ? ("░", "█", "▓", "╳") : (".", "#", "=", "x")
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let state = interaction.state
        let (start, end) = TimelineLayout.window(model)
        let title = "\(ViewState.Screen.timeline): the last \(DurationText.format(end - start)) of each queue  (↑ ↓ select, Enter goes to it)"
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
                var previousLast = -1
                for bar in lane {
                    previousLast = draw(bar, layout, y: y, chartX: chartX, columns: columns, after: previousLast,
                                        selected: bar.id == state.selection, into: &buffer, map: &map)
                }
                buffer.write(theme.unicode ? "│" : "|", x: cursorX, y: y, style: theme.title, clip: inner)
                y += 1
            }
            if queue.showsWaiting {
                drawWaiting(queue, layout, y: y, labelWidth: labelWidth, chartX: chartX, columns: columns, selection: state.selection,
                            into: &buffer, area: inner, map: &map)
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
        let items = [(marks.waiting, "waiting", theme.style(state: .ready, cancelled: false)),
                     (marks.running, "running", theme.style(state: .executing, cancelled: false)),
                     (marks.ran, "ran", theme.style(state: .finished, cancelled: false)),
                     (marks.cancelled, "cancelled", theme.style(state: .executing, cancelled: true))]
        let note = Self.legendNote(cursor: cursor, waiting: marks.waiting, unicode: theme.unicode,
                                   room: { gap in area.width - items.reduce(0) { $0 + 2 + $1.1.count + gap } })
        var x = area.x
        for (mark, name, style) in items {
            x = buffer.write(String(mark), x: x, y: area.y, style: style, clip: area)
            x = buffer.write(" \(name)" + String(repeating: " ", count: note.gap), x: x, y: area.y, style: theme.dim, clip: area)
        }
        // Cut with `…` only where even the shortest form does not fit, as the legend says of every cut.
        buffer.write(TerminalText.truncate(note.text, to: area.maxX - x), x: x, y: area.y, style: theme.dim, clip: area)
    }

    /// The legend's note after the marks and the gap between the marks: the longest form that
    /// fits whole in `room(gap)` columns, with the widest gap it allows (at 80 columns the full
    /// sentence was cut after "lanes"); the shortest form when none fits.
    package static func legendNote(cursor: String, waiting: Character, unicode: Bool, room: (Int) -> Int) -> (text: String, gap: Int) {
        let bar = unicode ? "│" : "|"
        let forms = ["\(bar) the moment shown (\(cursor)); lanes: what ran at once; \(waiting) row: what waited",
                     "\(bar) shown: \(cursor); lanes: ran at once; \(waiting) row: waited",
                     "\(bar) shown: \(cursor); lanes: ran at once",
                     "\(bar) shown: \(cursor)"]
        for text in forms {
            if let gap = [3, 2].first(where: { TerminalText.width(text) <= room($0) }) { return (text, gap) }
        }
        return (forms[forms.count - 1], 2)
    }

    /// Draws the running part of `bar` on its lane, from the column after `after` (the end of
    /// the lane's bar before it) at the earliest; returns its last column.
    private func draw(_ bar: TimelineLayout.Bar, _ layout: TimelineLayout, y: Int, chartX: Int, columns: Int, after: Int, selected: Bool,
                      into buffer: inout Buffer, map: inout ScreenMap) -> Int {
        func column(_ time: UInt64) -> Int { TimelineLayout.column(time, start: layout.start, end: layout.end, columns: columns) }
        guard let started = bar.started else { return after }
        let last = max(column(started), column(bar.finished ?? layout.end))
        // One after the other on a lane may share a column: the later one starts after it.
        let first = min(max(column(started), after + 1), last)
        let marks = marks
        // Running (or ran) until it was cancelled, cancelled from then on: an operation cancelled
        // while it ran shows both, and one cancelled before it started is cancelled throughout.
        let (mark, style) = bar.executing ? (marks.running, theme.style(state: .executing, cancelled: false))
            : (marks.ran, theme.style(state: .finished, cancelled: false))
        let cancelledFrom = bar.cancelled ? min(max(first, column(bar.cancelledAt ?? started)), last) : last + 1
        let cancelledStyle = theme.style(state: bar.finished == nil ? .executing : .finished, cancelled: true)
        for position in first...last {
            buffer[chartX + position, y] = position >= cancelledFrom ? Cell(marks.cancelled, style: cancelledStyle) : Cell(mark, style: style)
        }
        let rect = Rect(x: chartX + first, y: y, width: last - first + 1, height: 1)
        // The id at the bar's start wherever it fits: it also marks where one bar ends and the
        // next begins on a busy lane.
        let label = bar.id.description
        if rect.width >= label.count {
            buffer.write(label, x: rect.x, y: y, style: theme.header, clip: rect)
        }
        if selected { buffer.restyle(rect) { $0.attributes.insert(.reverse) } }
        map.graphNodes.append(OperationArea(rect: rect, operation: bar.id))
        return last
    }

    /// A queue's waiting row: `░` where any of its operations waited (`╳` where all that waited
    /// were cancelled), the selected operation's wait reversed; the label says the most at once.
    private func drawWaiting(_ queue: TimelineLayout.QueueLanes, _ layout: TimelineLayout, y: Int, labelWidth: Int, chartX: Int, columns: Int,
                             selection: OperationID?, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let peak = queue.waitingPeak
        let title = queue.hidden > 0 ? "\(queue.title) +\(queue.hidden)" : queue.title
        let counted = ["waiting, max \(peak)", "wait max \(peak)", "max \(peak)"].first { $0.count <= labelWidth } ?? "\(peak)"
        var label = queue.lanes.isEmpty ? GraphTextFit.fit(title, labelWidth) : (peak > 1 ? counted : "waiting")
        // A queue where nothing ran in the window has only this row: its name, and the count
        // after it where both fit (the count is what the row cannot show by itself).
        if queue.lanes.isEmpty, peak > 1, labelWidth - " \(peak)".count >= 4 {
            label = GraphTextFit.fit(title, labelWidth - " \(peak)".count) + " \(peak)"
        }
        buffer.write(GraphTextFit.fit(label, labelWidth), x: area.x, y: y, style: queue.lanes.isEmpty ? theme.header : theme.dim, clip: area)
        let marks = marks
        for position in queue.waitingCounts.indices where queue.waitingCounts[position] > 0 {
            let allCancelled = queue.cancelledWaiting[position] == queue.waitingCounts[position]
            buffer[chartX + position, y] = allCancelled
                ? Cell(marks.cancelled, style: theme.style(state: .ready, cancelled: true))
                : Cell(marks.waiting, style: theme.style(state: .ready, cancelled: false))
        }
        func span(_ bar: TimelineLayout.Bar) -> ClosedRange<Int>? {
            TimelineLayout.waitingColumns(bar, end: layout.end) { TimelineLayout.column($0, start: layout.start, end: layout.end, columns: columns) }
        }
        // One cancelled before it ran ends its wait with the cancelled mark.
        for bar in queue.waiting where bar.cancelled && bar.started == nil {
            guard let last = span(bar)?.upperBound else { continue }
            buffer[chartX + last, y] = Cell(marks.cancelled, style: theme.style(state: bar.finished == nil ? .ready : .finished, cancelled: true))
        }
        addWaitingTargets(queue, y: y, chartX: chartX, columns: columns, span: span, map: &map)
        guard let selection, let bar = queue.waiting.first(where: { $0.id == selection }), let span = span(bar) else { return }
        buffer.restyle(Rect(x: chartX + span.lowerBound, y: y, width: span.count, height: 1)) { $0.attributes.insert(.reverse) }
    }

    /// Where a click on the waiting row picks an operation: each column goes to the first of
    /// the queue's waiting operations that waited there, in runs of one operation. The next
    /// free column is found by skipping filled ones (a union-find's path halving), so that
    /// thousands of long waits over the same columns cost their count, not count × width.
    private func addWaitingTargets(_ queue: TimelineLayout.QueueLanes, y: Int, chartX: Int, columns: Int,
                                   span: (TimelineLayout.Bar) -> ClosedRange<Int>?, map: inout ScreenMap) {
        guard columns > 0 else { return }
        var owner = [OperationID?](repeating: nil, count: columns + 1)
        var nextFree = Array(0...columns + 1)
        func free(from column: Int) -> Int {
            var column = column
            while nextFree[column] != column {
                nextFree[column] = nextFree[nextFree[column]]
                column = nextFree[column]
            }
            return column
        }
        for bar in queue.waiting {
            guard let range = span(bar) else { continue }
            let last = min(range.upperBound, columns)
            var column = free(from: max(0, range.lowerBound))
            while column <= last {
                owner[column] = bar.id
                nextFree[column] = column + 1
                column = free(from: column + 1)
            }
        }
        var start = 0
        for column in 1...owner.count where column == owner.count || owner[column] != owner[start] {
            if let id = owner[start] {
                map.graphNodes.append(OperationArea(rect: Rect(x: chartX + start, y: y, width: column - start, height: 1), operation: id))
            }
            start = column
        }
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
