import DashboardModel
import OperationEvents
import TerminalKit

/// One line per queue: name, running/max, ready, pending, finished, throughput, and SUSPENDED loud.
/// When there are more queues than lines, the lines scroll only as far as the selected queue
/// needs, and the first and last lines say at their right end how many more there are above and
/// below (a line of its own for that would hide one more queue).
struct HeaderView {
    let theme: Theme

    /// Lines the header takes for `queues` queues in a terminal `height` rows tall.
    static func height(queues: Int, terminalHeight: Int) -> Int {
        min(max(1, queues), terminalHeight >= 30 ? 8 : 4)
    }

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard !area.isEmpty else { return }
        let queues = model.queues.values.sorted { $0.id < $1.id }
        if queues.isEmpty {
            buffer.write("no queues observed yet", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let visible = min(queues.count, area.height)
        let selected = state.queue.flatMap { id in queues.firstIndex { $0.id == id } } ?? 0
        let first = min(max(0, selected - visible + 1), queues.count - visible)
        let above = first
        let below = queues.count - first - visible
        // The state badges take a column of their own when a shown queue has one, so that `run`
        // starts in the same column on every line.
        let badges = queues[first..<(first + visible)].contains { $0.isSuspended || $0.isReleased }
        let names = Self.nameWidth(queues[first..<(first + visible)].map(\.name), width: area.width)
        for (row, queue) in queues[first..<(first + visible)].enumerated() {
            let y = area.y + row
            let line = Rect(x: area.x, y: y, width: area.width, height: 1)
            map.queueRows.append(QueueArea(rect: line, queue: queue.id))
            var parts: [String] = []
            if row == 0, above > 0 { parts.append("↑ \(above) more") }
            if row == visible - 1, below > 0 { parts.append("↓ \(below) more") }
            var hint = parts.isEmpty ? "" : parts.joined(separator: ", ") + " queue\(above + below == 1 ? "" : "s")"
            let focused = queue.id == state.queue && state.focus == .queues && state.screen == .overview
            if focused {
                // Reverse video alone is easy to miss: the line that has the keys says so.
                let mark = area.width >= 100 ? "◂ keys here: ↑ ↓ s C ( )" : "◂ keys"
                hint = [mark, hint].filter { !$0.isEmpty }.joined(separator: ", ")
            } else if !hint.isEmpty, area.width >= 110 {
                hint += " (Tab to the queues, then ↑ ↓)"
            }
            let room = hint.isEmpty ? line : Rect(x: line.x, y: y, width: max(0, line.width - hint.count - 2), height: 1)
            draw(queue, model, into: &buffer, line: room, selected: queue.id == state.queue, badgeColumn: badges, nameWidth: names)
            if !hint.isEmpty { buffer.write(hint, x: line.maxX - hint.count, y: y, style: theme.dim, clip: line) }
            if focused {
                buffer.restyle(line) { $0.attributes.insert(.reverse) }
            }
        }
    }

    /// The queue name's column: 18 wide, and on a wide terminal (140 columns or more) as wide as
    /// the longest name shown needs, up to 48, so that a name is not cut where there is room.
    static func nameWidth(_ names: [String], width: Int) -> Int {
        guard width >= 140 else { return 18 }
        let longest = names.map { TerminalText.width(TerminalText.visible($0)) }.max() ?? 0
        return min(max(18, longest), 48)
    }

    private func draw(_ queue: QueueRecord, _ model: DashboardModel, into buffer: inout Buffer, line area: Rect, selected: Bool,
                      badgeColumn: Bool, nameWidth: Int) {
        let y = area.y
        var x = buffer.write(selected ? "▸" : " ", x: area.x, y: y, style: theme.header, clip: area)
        x = buffer.write("\(queue.id) ", x: x, y: y, style: theme.dim, clip: area)
        x = buffer.write(GraphTextFit.fit(queue.name, nameWidth), x: x, y: y, style: theme.header, clip: area)
        // The badge's padding starts a column early: its word lines up with the `run` of
        // lines without one.
        x = max(x, area.x + (badgeColumn ? 25 : 26) + nameWidth - 18)
        // Each part whole or not at all: a narrow terminal drops the last parts, never half a word.
        func part(_ text: String, _ style: Style = .plain) {
            guard x + text.count <= area.maxX else {
                x = area.maxX
                return
            }
            x = buffer.write(text, x: x, y: y, style: style, clip: area)
        }
        if queue.isSuspended {
            part(" SUSPENDED ", theme.suspended)
            part(" ")
        } else if queue.isReleased {
            part(" released   ", theme.dim)
        } else if badgeColumn {
            part("            ")
        }
        part("run \(queue.executing)/\(theme.limit(queue))", theme.style(state: .executing, cancelled: false))
        // Foundation's two reasons not to have started, apart: ready ones wait for a slot or
        // their turn, pending ones for dependencies (a single "wait" hid which).
        part("  ready \(queue.ready)", theme.style(state: .ready, cancelled: false))
        part("  pending \(queue.pending)", theme.style(state: .pending, cancelled: false))
        if let depth = queue.sampledDepth, queue.observation == .sampled { part(" (~\(depth) queued)", theme.dim) }
        part("  done \(queue.finished)", theme.dim)
        if queue.cancelled > 0 { part(" (\(queue.cancelled) cancelled)", theme.dim) }
        part("  \(oneDecimal(queue.throughput.perSecond(now: model.now)))/s")
        // Said where it matters: work shorter than a sample never shows.
        if queue.observation == .sampled {
            let long = "  sampled: short work is not seen"
            part(x + long.count + (queue.isMainQueue ? 6 : 0) <= area.maxX ? long : "  sampled", theme.warning)
        }
        if queue.isMainQueue { part("  main", theme.dim) }
        // Wait and run percentiles: the fullest form that fits whole (at 120 columns a suspended
        // queue's badge, or two-digit counts, leave no room for all three of each).
        if let latency = Self.latencyForms(queue.latency).first(where: { x + 2 + $0.count <= area.maxX }) {
            part("  " + latency, theme.dim)
        }
    }
}

extension HeaderView {
    /// `wait p50/90/99 2 ms/8 ms/31 ms  run 150 ms/152 ms/160 ms`; empty before anything started.
    static func latencyText(_ latency: LatencyStatistics) -> String {
        latencyForms(latency).first ?? ""
    }

    /// The percentiles from the fullest form to the shortest, each label said once for both
    /// (`wait p50/99 2 ms/31 ms  run 150 ms/160 ms`): p50/90/99, p50/99, p99, then the wait's
    /// p99 alone. None before anything started.
    static func latencyForms(_ latency: LatencyStatistics) -> [String] {
        let wait = latency.wait
        let run = latency.run
        guard wait.count > 0 else { return [] }
        typealias Percentile = KeyPath<LatencyStatistics.Percentiles, UInt64>
        func values(_ value: LatencyStatistics.Percentiles, _ keys: [Percentile]) -> String {
            keys.map { DurationText.format(value[keyPath: $0]) }.joined(separator: "/")
        }
        let forms: [(label: String, keys: [Percentile])] = [
            ("p50/90/99", [\.p50, \.p90, \.p99]), ("p50/99", [\.p50, \.p99]), ("p99", [\.p99]),
        ]
        var result = forms.map { form in
            "wait \(form.label) " + values(wait, form.keys) + (run.count > 0 ? "  run " + values(run, form.keys) : "")
        }
        if run.count > 0 { result.append("wait p99 " + values(wait, [\.p99])) }
        return result
    }
}
