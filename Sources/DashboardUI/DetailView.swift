import DashboardModel
import OperationEvents
import TerminalKit

/// The selected operation in full: fields, the diagnosis in words, warnings, and the history of
/// its key changes with times (the KVO keys made visible).
struct DetailView {
    let theme: Theme

    func render(_ model: DashboardModel, _ state: ViewState, offset: Int, warnings: [Warning], into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        guard let id = state.selection, let record = model.operations[id] else {
            buffer.write("no operation selected", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        var lines: [[TextBlock.Span]] = []
        // Values wrap under themselves, by words.
        func field(_ name: String, _ value: String, _ style: Style = .plain) {
            // Wide enough for Foundation's own names (qualityOfService), which the fields use.
            let wrapped = TextWrap.wrap(theme.text(value), width: max(8, area.width - 17))
            for (index, line) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
                lines.append([.init(GraphTextFit.pad(index == 0 ? name : "", 17), theme.dim), .init(line, style)])
            }
        }
        let inCycle = model.isInCycle(id)
        let stateStyle = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
        lines.append([.init(theme.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle) + " " + record.label, stateStyle.with(.bold))])
        // The reason first: on a small screen it is what must be visible without scrolling.
        if let diagnosis = model.diagnosis(of: id) {
            lines.append([.init("Why is it not running?", theme.header)])
            for line in TextWrap.wrap(theme.text(diagnosis.message), width: area.width) { lines.append([.init(line, theme.warning)]) }
            // The keys that act on it (a replay takes no commands): the diagnosis says what, in
            // Foundation's terms; the dashboard says how, here.
            if state.timeline == nil, let queue = diagnosis.queue, model.queues[queue]?.isSuspended == true {
                lines.append([.init("resume it here: select \(queue), s", theme.header)])
            }
        }
        for warning in warnings where warning.operation == id {
            for (index, line) in TextWrap.wrap(theme.text(warning.message), width: area.width - 2).enumerated() {
                lines.append([.init(index == 0 ? "! " : "  ", theme.error), .init(line, theme.error)])
            }
        }
        field("type", record.typeName + (record.isAsynchronous ? " (asynchronous)" : " (synchronous)"))
        field("queue", record.queue.map { "\($0) '\(model.queues[$0]?.name ?? "?")'" } ?? "not in any queue")
        if let queue = record.queue.flatMap({ model.queues[$0] }) {
            let latency = HeaderView.latencyText(queue.latency)
            if !latency.isEmpty { field("queue times", latency, theme.dim) }
        }
        field("state", record.state.rawValue + (record.isCancelled ? ", cancelled" : ""), stateStyle)
        field("queuePriority", record.priority == record.effectivePriority ? record.priority.description
              : "\(record.priority.description) (scheduled as \(record.effectivePriority.description))")
        // On Linux an operation with no QoS of its own keeps .default and is scheduled so,
        // whatever its queue's QoS (tried: a background queue's unset operations start before
        // its utility ones): a queue line alone would suggest otherwise, so say both.
        var qos = record.qualityOfService.rawValue
        if record.qualityOfService == .default, let queue = record.queue.flatMap({ model.queues[$0] }),
           queue.qualityOfService != .default {
            qos += " (its queue's qualityOfService: \(queue.qualityOfService.rawValue))"
        }
        field("qualityOfService", qos)
        field("observed", record.observation.rawValue)
        field("depends on", record.dependencies.isEmpty ? "-" : dependencies(record.dependencies, model))
        field("needed by", record.dependents.isEmpty ? "-" : record.dependents.prefix(8).map { describe($0, model) }.joined(separator: ", ")
              + (record.dependents.count > 8 ? " and \(record.dependents.count - 8) more" : ""))
        field("waited", DurationText.format(record.waitTime(now: model.now)))
        if let run = record.runTime(now: model.now) { field("ran", DurationText.format(run)) }
        lines.append([])
        lines.append([.init("Key changes", theme.header), .init("  (~ sampled, ≈ inferred)", theme.dim)])
        for change in record.history {
            let offset = change.time >= record.addedAt ? change.time - record.addedAt : 0
            let mark = change.origin == .sampled ? "~" : (change.origin == .inferred ? "≈" : " ")
            lines.append([.init(GraphTextFit.pad("+" + DurationText.format(offset), 10), theme.dim), .init(mark + theme.text(change.text))])
        }
        TextBlock(lines: lines, offset: offset).render(into: &buffer, area: area)
    }

    /// The first eight dependencies, then how many more and how many of those are unfinished: an
    /// operation may wait on thousands, and the pane is composed every frame.
    private func dependencies(_ ids: [OperationID], _ model: DashboardModel) -> String {
        let shown = ids.prefix(8).map { describe($0, model) }.joined(separator: ", ")
        guard ids.count > 8 else { return shown }
        let unfinished = ids.dropFirst(8).reduce(0) { count, id in
            count + (model.operations.read(id) { $0.state != .finished } == true ? 1 : 0)
        }
        return shown + " and \(ids.count - 8) more" + (unfinished > 0 ? " (\(unfinished) of them unfinished)" : "")
    }

    private func describe(_ id: OperationID, _ model: DashboardModel) -> String {
        guard let record = model.operations[id] else { return "\(id) (gone)" }
        return "\(id) \(record.state.rawValue)"
    }
}
