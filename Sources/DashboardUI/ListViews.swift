import DashboardModel
import OperationEvents
import TerminalKit

/// The whole-screen list views (2: stuck by root cause, 3: start order, 4: narration): rows of
/// styled text, the selected operation highlighted, scrolled to keep it in view. Only the rows
/// on screen are turned into text.
struct ListViews {
    let theme: Theme

    /// A row before it is drawn: a heading, or an operation with what to say about it.
    private enum Row {
        case heading(String, Style)
        case operation(OperationID, String)
        case blank
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let state = interaction.state
        let title = "\(state.screen.rawValue) \(state.screen.title)  (1 overview, 2 stuck, 3 start order, 4 narration, 5 timeline; Enter goes to it)"
        let inner = Frame(title: TextWrap.fit(title, width: max(1, area.width - 4)), style: theme.focusedFrame,
                          titleStyle: theme.focusedFrame, ascii: !theme.unicode)
            .render(into: &buffer, area: area)
        guard !inner.isEmpty else { return }
        map.listBody = inner
        map.panes[.table] = area
        switch state.screen {
        case .stuck: draw(stuckRows(model, width: inner.width, commands: interaction.commandsRefused == nil), model, interaction, into: &buffer, area: inner, map: &map,
                          empty: "nothing waits: every unfinished operation is running")
        case .startOrder: draw(startOrderRows(model), model, interaction, into: &buffer, area: inner, map: &map,
                               empty: "no queue observed yet")
        case .narration: drawNarration(interaction.state.narration, into: &buffer, area: inner, map: &map)
        case .overview, .timeline: break
        }
    }

    /// The groups of view 2; with `commands` (a source that takes them), a suspended queue's
    /// heading says which keys resume it.
    private func stuckRows(_ model: DashboardModel, width: Int, commands: Bool) -> [Row] {
        let groups = RootCauseGroups.build(model)
        var rows: [Row] = []
        for group in groups.groups {
            if !rows.isEmpty { rows.append(.blank) }
            let style = group.severity <= 3 ? theme.error : (group.severity <= 5 ? theme.warning : theme.header)
            // The root of a group waits too (never enqueued, not ready) but not for itself: it is
            // not counted among the operations that wait for it.
            let waiters = group.waiters
            var title = group.title
            if commands, case .suspended(let queue) = group.cause { title += "; here: select \(queue), s" }
            let heading = waiters == 0 ? "stuck: " + theme.text(title)
                : "\(waiters) wait\(waiters == 1 ? "s" : "") for: " + theme.text(title)
            // Headings wrap: the cause is the point of this view, so it is never cut.
            for line in TextWrap.wrap(heading, width: max(10, width)) { rows.append(.heading(line, style)) }
            for id in group.members {
                let chain = groups.chains[id] ?? []
                if id == group.root {
                    rows.append(.operation(id, waiters == 0 ? "" : "the cause itself"))
                } else if group.cause == .running {
                    // Each waits on its own running dependency: name it.
                    rows.append(.operation(id, "waits on " + chain.dropFirst().map(\.description).joined(separator: " → ")))
                } else {
                    let via = chain.count > 2 ? "via " + chain.dropFirst().dropLast().map(\.description).joined(separator: " → ") : ""
                    rows.append(.operation(id, via))
                }
            }
        }
        return rows
    }

    private func startOrderRows(_ model: DashboardModel) -> [Row] {
        StartOrderList.build(model).map { row in
            switch row {
            case .queue(let id):
                guard let queue = model.queues[id] else { return .heading("\(id)", theme.header) }
                var text = "\(id) \(queue.name)   run \(queue.executing)/\(theme.limit(queue))  ready \(queue.ready)  pending \(queue.pending)"
                if queue.isSuspended { text += "   SUSPENDED: the ready ones are held" }
                if queue.observation == .sampled { text += "   sampled: short work is not seen" }
                return .heading(text, queue.isSuspended ? theme.warning.with(.underline) : theme.header.with(.underline))
            case .noQueue:
                return .heading("not in any queue: nothing starts these unless the app does", theme.error)
            case .operation(let id, let role):
                switch role {
                case .executing: return .operation(id, "running")
                // Foundation's order, unless the queue has long had the room and not started it:
                // it does not see it ready, and "starts next" would never come true.
                case .next where model.isReadyNotStarted(id): return .operation(id, "ready, not started: queue not told?")
                case .next(let place): return .operation(id, place == 1 ? "starts next" : "starts \(ordinal(place))")
                case .held(let place): return .operation(id, "held (\(ordinal(place)) once resumed)")
                case .waiting where model.operations[id]?.queue == nil:
                    return .operation(id, "never added to a queue")
                case .waiting:
                    let open = model.operations[id]?.dependencies.filter { (model.operations[$0]?.state ?? .finished) != .finished } ?? []
                    return .operation(id, open.isEmpty ? "waiting" : "waits on " + open.prefix(4).map(\.description).joined(separator: ", ")
                                          + (open.count > 4 ? " and \(open.count - 4) more" : ""))
                }
            }
        }
    }

    private func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : (number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th")
        return "\(number)\(suffix)"
    }

    private func draw(_ rows: [Row], _ model: DashboardModel, _ interaction: Interaction, into buffer: inout Buffer, area: Rect,
                      map: inout ScreenMap, empty: String) {
        guard !rows.isEmpty else {
            buffer.write(empty, x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let selection = interaction.state.selection
        let selectedRow = selection.flatMap { id in rows.firstIndex { if case .operation(id, _) = $0 { return true } else { return false } } }
        let offset = TableView.scrolledOffset(selected: selectedRow, offset: interaction.map.listOffset, visibleRows: area.height, count: rows.count)
        map.listOffset = offset
        for (line, row) in rows[offset..<min(rows.count, offset + area.height)].enumerated() {
            let y = area.y + line
            let rect = Rect(x: area.x, y: y, width: area.width, height: 1)
            switch row {
            case .blank:
                map.listRows.append(ListRowArea())
            case .heading(let text, let style):
                buffer.write(TextWrap.fit(theme.text(text), width: area.width), x: area.x, y: y, style: style, clip: area)
                map.listRows.append(ListRowArea())
            case .operation(let id, let note):
                map.listRows.append(ListRowArea(operation: id))
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

    /// The narration log, newest last; the cursor's entry highlighted. Entries wrap by words.
    private func drawNarration(_ narration: NarrationState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let entries = narration.entries
        guard !entries.isEmpty else {
            let text = narration.isOn ? "nothing narrated yet: sentences come with the next changes"
                : "narration is off: t turns it on; while paused, . narrates one event at a time"
            for (row, line) in TextWrap.wrap(text, width: area.width).prefix(area.height).enumerated() {
                buffer.write(line, x: area.x, y: area.y + row, style: theme.dim, clip: area)
            }
            return
        }
        let origin = narration.origin ?? entries[0].time
        let timeWidth = 10
        func lines(_ index: Int) -> [String] {
            TextWrap.wrap(theme.text(entries[index].text), width: max(10, area.width - timeWidth))
        }
        // The cursor's entry (or the newest) at the bottom, earlier ones above it; near the
        // start of the log, the page is filled with the later ones (Home shows the first page).
        let anchor = min(narration.cursor ?? entries.count - 1, entries.count - 1)
        var block: [(index: Int, text: String, first: Bool)] = []
        var index = anchor
        while index >= 0, block.count < area.height {
            block.insert(contentsOf: lines(index).enumerated().map { (index, $0.element, $0.offset == 0) }, at: 0)
            index -= 1
        }
        var after = anchor + 1
        while block.count < area.height, after < entries.count {
            block.append(contentsOf: lines(after).enumerated().map { (after, $0.element, $0.offset == 0) })
            after += 1
        }
        let visible = block.count > area.height && after > anchor + 1 ? block.prefix(area.height) : block.suffix(area.height)
        for (row, line) in visible.enumerated() {
            let y = area.y + row
            let entry = entries[line.index]
            let time = line.first ? "+" + DurationText.format(entry.time >= origin ? entry.time - origin : 0) : ""
            buffer.write(GraphTextFit.pad(time, timeWidth), x: area.x, y: y, style: theme.dim, clip: area)
            buffer.write(line.text, x: area.x + timeWidth, y: y, style: entry.operation == nil ? theme.header : .plain, clip: area)
            if narration.cursor == line.index { buffer.restyle(Rect(x: area.x, y: y, width: area.width, height: 1)) { $0.attributes.insert(.reverse) } }
            map.listRows.append(ListRowArea(operation: entry.operation, entry: line.index))
        }
    }
}
