import DashboardModel
import OperationEvents
import TerminalKit

/// Five QoS lanes: executing, ready in start order, pending.
struct QoSLanesView {
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
