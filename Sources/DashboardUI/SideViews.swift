import DashboardModel
import OperationEvents
import TerminalKit

/// The selected operation in full: fields, the diagnosis in words, warnings, and the history of
/// its key changes with times (the KVO keys made visible).
struct DetailView {
    let theme: Theme

    func render(_ model: DashboardModel, _ state: ViewState, warnings: [Warning], into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        guard let id = state.selection, let record = model.operations[id] else {
            buffer.write("no operation selected", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        var lines: [[TextBlock.Span]] = []
        func field(_ name: String, _ value: String, _ style: Style = .plain) {
            lines.append([.init(GraphTextFit.pad(name, 13), theme.dim), .init(value, style)])
        }
        let inCycle = model.isInCycle(id)
        let stateStyle = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
        lines.append([.init(theme.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle) + " " + record.label, stateStyle.with(.bold))])
        field("type", record.typeName + (record.isAsynchronous ? " (asynchronous)" : " (synchronous)"))
        field("queue", record.queue.map { "\($0) '\(model.queues[$0]?.name ?? "?")'" } ?? "not in any queue")
        field("state", record.state.rawValue + (record.isCancelled ? ", cancelled" : ""), stateStyle)
        field("priority", record.priority == record.effectivePriority ? record.priority.description
              : "\(record.priority.description) (scheduled as \(record.effectivePriority.description))")
        field("qos", record.qualityOfService.rawValue)
        field("observed", record.observation.rawValue)
        field("depends on", record.dependencies.isEmpty ? "-" : record.dependencies.map { describe($0, model) }.joined(separator: ", "))
        field("needed by", record.dependents.isEmpty ? "-" : record.dependents.prefix(8).map { describe($0, model) }.joined(separator: ", ")
              + (record.dependents.count > 8 ? ", +\(record.dependents.count - 8)" : ""))
        field("waited", DurationText.format(record.waitTime(now: model.now)))
        if let run = record.runTime(now: model.now) { field("ran", DurationText.format(run)) }
        if let diagnosis = model.diagnosis(of: id) {
            lines.append([])
            lines.append([.init("Why is it not running?", theme.header)])
            for line in wrap(diagnosis.message, area.width) { lines.append([.init(line, theme.warning)]) }
        }
        for warning in warnings where warning.operation == id {
            lines.append([.init("! ", theme.error)] + [.init(warning.message, theme.error)])
        }
        lines.append([])
        lines.append([.init("Key changes", theme.header), .init("  (~ sampled, ≈ inferred)", theme.dim)])
        for change in record.history {
            let offset = change.time >= record.addedAt ? change.time - record.addedAt : 0
            let mark = change.origin == .sampled ? "~" : (change.origin == .inferred ? "≈" : " ")
            lines.append([.init(GraphTextFit.pad("+" + DurationText.format(offset), 10), theme.dim), .init(mark + change.text)])
        }
        TextBlock(lines: lines, offset: state.detailOffset).render(into: &buffer, area: area)
    }

    private func describe(_ id: OperationID, _ model: DashboardModel) -> String {
        guard let record = model.operations[id] else { return "\(id) (gone)" }
        return "\(id) \(record.state.rawValue)"
    }

    /// Greedy word wrap.
    func wrap(_ text: String, _ width: Int) -> [String] {
        guard width > 4 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty { current = String(word) }
            else if current.count + 1 + word.count <= width { current += " " + word }
            else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// The warnings list.
struct WarningsView {
    let theme: Theme

    func render(_ warnings: [Warning], offset: Int, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        if warnings.isEmpty {
            buffer.write("no warnings", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let lines = warnings.map { [TextBlock.Span("! ", theme.error), TextBlock.Span($0.message, $0.kind == .droppedEvents ? theme.error : theme.warning)] }
        TextBlock(lines: lines, offset: min(offset, max(0, warnings.count - area.height))).render(into: &buffer, area: area)
    }
}

/// Five QoS lanes: executing, ready in start order, pending.
struct LanesView {
    let theme: Theme

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let lanes = model.qosLanes(limit: 12)
        let rowsPerLane = area.height >= 10 ? 2 : 1
        for (index, lane) in lanes.enumerated() {
            let y = area.y + index * rowsPerLane
            guard y < area.maxY else { break }
            let name = ["userInteractive": "UI  ", "userInitiated": "INIT", "default": "DEF ", "utility": "UTIL", "background": "BG  "][lane.qos.rawValue] ?? "    "
            var x = buffer.write(name + " ", x: area.x, y: y, style: theme.header, clip: area)
            x = spans(lane.executing, lane.executingCount, .executing, model, state, &buffer, x: x, y: y, area: area)
            x = buffer.write(theme.unicode ? " │ next " : " | next ", x: x, y: y, style: theme.dim, clip: area)
            x = spans(lane.ready, lane.readyCount, .ready, model, state, &buffer, x: x, y: y, area: area)
            if rowsPerLane == 1 {
                buffer.write(" | \(lane.pendingCount) pending", x: x, y: y, style: theme.style(state: .pending, cancelled: false), clip: area)
            } else if y + 1 < area.maxY {
                var second = buffer.write("     waiting ", x: area.x, y: y + 1, style: theme.dim, clip: area)
                second = spans(lane.pending, lane.pendingCount, .pending, model, state, &buffer, x: second, y: y + 1, area: area)
            }
        }
    }

    private func spans(_ ids: [OperationID], _ total: Int, _ kind: OperationState, _ model: DashboardModel, _ state: ViewState,
                       _ buffer: inout Buffer, x start: Int, y: Int, area: Rect) -> Int {
        var x = start
        if ids.isEmpty { return buffer.write("-", x: x, y: y, style: theme.dim, clip: area) }
        for id in ids {
            guard let record = model.operations[id], x < area.maxX - 4 else { break }
            var style = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: model.isInCycle(id))
            if id == state.selection { style.attributes.insert(.reverse) }
            let priority = record.effectivePriority == .normal ? "" : "(\(record.effectivePriority.description))"
            x = buffer.write(theme.glyph(state: record.state, cancelled: record.isCancelled) + "\(id.rawValue)\(priority)", x: x, y: y, style: style, clip: area)
            x = buffer.write(" ", x: x, y: y, clip: area)
        }
        if total > ids.count { x = buffer.write("+\(total - ids.count)", x: x, y: y, style: theme.dim, clip: area) }
        return x
    }
}

/// The bottom key bar (htop style).
struct KeyBar {
    let theme: Theme

    func render(into buffer: inout Buffer, area: Rect) {
        var x = area.x
        for (key, name) in KeyBindings.bar {
            guard x < area.maxX else { break }
            x = buffer.write(key, x: x, y: area.y, style: theme.header, clip: area)
            x = buffer.write(name, x: x, y: area.y, style: theme.keyName, clip: area)
            x = buffer.write(" ", x: x, y: area.y, clip: area)
        }
    }
}

/// Every key, over the panes.
struct HelpOverlay {
    let theme: Theme

    func render(into buffer: inout Buffer, area: Rect) {
        let width = min(area.width - 2, 96)
        let height = min(area.height, KeyBindings.all.count + CommandLineParser.usage.count + 4)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2), width: width, height: height)
        buffer.fill(box)
        let inner = Frame(title: "Keys (any key closes)", style: theme.focusedFrame, titleStyle: theme.focusedFrame, ascii: !theme.unicode)
            .render(into: &buffer, area: box)
        var lines = KeyBindings.all.map { [TextBlock.Span(GraphTextFit.pad($0.keys, 30), theme.header), TextBlock.Span($0.action)] }
        lines.append([])
        lines += CommandLineParser.usage.map { [TextBlock.Span($0, theme.dim)] }
        TextBlock(lines: lines).render(into: &buffer, area: inner)
    }
}

/// The work template picker (`a`).
struct PickerOverlay {
    let theme: Theme

    func render(_ templates: [WorkTemplateInfo], selected: Int, into buffer: inout Buffer, area: Rect) {
        let width = min(area.width - 2, 70)
        let height = min(area.height, templates.count + 3)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width, height: height)
        buffer.fill(box)
        let inner = Frame(title: "Add work (Enter adds, Esc closes)", style: theme.focusedFrame, titleStyle: theme.focusedFrame,
                          ascii: !theme.unicode).render(into: &buffer, area: box)
        let rows = templates.map { [TextBlock.Span($0.name, theme.header), TextBlock.Span($0.summary)] }
        TableView(columns: [.init("TEMPLATE", width: 18), .init("WHAT IT DOES", width: 40)], rows: rows, selected: selected)
            .render(into: &buffer, area: inner)
    }
}
