import DashboardModel
import OperationEvents
import TerminalKit

/// One line per queue: name, running/max, waiting, finished, throughput, and SUSPENDED loud.
struct HeaderView {
    let theme: Theme

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let queues = model.queues.values.sorted { $0.id < $1.id }
        if queues.isEmpty {
            buffer.write("no queues observed yet", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let shown = queues.count > area.height ? area.height - 1 : queues.count
        for (row, queue) in queues.prefix(shown).enumerated() {
            let y = area.y + row
            let selected = queue.id == state.queue
            var x = buffer.write(selected ? "▸" : " ", x: area.x, y: y, style: theme.header, clip: area)
            if !theme.unicode, selected { buffer.write(">", x: area.x, y: y, style: theme.header, clip: area) }
            x = buffer.write("\(queue.id) ", x: x, y: y, style: theme.dim, clip: area)
            x = buffer.write(GraphTextFit.fit(queue.name, 18), x: x, y: y, style: theme.header, clip: area)
            x = max(x, area.x + 26)
            if queue.isSuspended {
                x = buffer.write(" SUSPENDED ", x: x, y: y, style: theme.suspended, clip: area) + 1
            } else if queue.isReleased {
                x = buffer.write(" released ", x: x, y: y, style: theme.dim, clip: area) + 1
            }
            x = buffer.write("run \(queue.executing)/\(queue.limitText)", x: x, y: y,
                             style: theme.style(state: .executing, cancelled: false), clip: area)
            x = buffer.write("  wait \(queue.waiting)", x: x, y: y, style: theme.style(state: .ready, cancelled: false), clip: area)
            if let depth = queue.sampledDepth, queue.observation == .sampled {
                x = buffer.write(" (~\(depth) queued)", x: x, y: y, style: theme.dim, clip: area)
            }
            x = buffer.write("  done \(queue.finished)", x: x, y: y, style: theme.dim, clip: area)
            if queue.cancelled > 0 { x = buffer.write(" (\(queue.cancelled) cancelled)", x: x, y: y, style: theme.dim, clip: area) }
            let rate = queue.throughput.perSecond(now: model.now)
            x = buffer.write("  \(oneDecimal(rate))/s", x: x, y: y, clip: area)
            if queue.observation == .sampled { x = buffer.write("  sampled", x: x, y: y, style: theme.warning, clip: area) }
            if queue.isMainQueue { x = buffer.write("  main", x: x, y: y, style: theme.dim, clip: area) }
            // Wait and run percentiles where there is room for them whole.
            let latency = Self.latencyText(queue.latency)
            if !latency.isEmpty, area.maxX - x >= latency.count + 2 {
                buffer.write("  " + latency, x: x, y: y, style: theme.dim, clip: area)
            }
        }
        if shown < queues.count {
            buffer.write("  +\(queues.count - shown) more queues", x: area.x, y: area.y + shown, style: theme.dim, clip: area)
        }
    }
}

extension HeaderView {
    /// `wait p50/90/99 2ms/8ms/31ms  run 150ms/152ms/160ms`; empty before anything started.
    static func latencyText(_ latency: LatencyStatistics) -> String {
        let wait = latency.wait
        let run = latency.run
        guard wait.count > 0 else { return "" }
        func triple(_ value: LatencyStatistics.Percentiles) -> String {
            [value.p50, value.p90, value.p99].map(DurationText.short).joined(separator: "/")
        }
        var text = "wait p50/90/99 " + triple(wait)
        if run.count > 0 { text += "  run " + triple(run) }
        return text
    }
}

/// `12.3` (no Foundation formatting on the frame path).
func oneDecimal(_ value: Double) -> String {
    guard value.isFinite, value >= 0 else { return "0.0" }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// Shortening text to a width with an ellipsis.
enum GraphTextFit {
    static func fit(_ text: String, _ width: Int) -> String { GraphDrawing.truncate(text, to: width) }

    static func pad(_ text: String, _ width: Int) -> String {
        let fitted = fit(text, width)
        return fitted + String(repeating: " ", count: max(0, width - fitted.count))
    }
}
