import DashboardModel
import OperationEvents
import TerminalKit

/// Five QoS lanes: executing, next to start (in start order), held (ready, but their queue is
/// suspended or released, they were never added to a queue, or their queue has had room for them
/// for a while and not started them: they do not start next), and waiting on dependencies. A
/// priority other than normal follows the id in the table's words (`●12(vhigh)`).
struct QoSLanesView {
    let theme: Theme

    /// Ready operations that do not start next, per lane, with the counts.
    struct Held {
        var ids: [[OperationID]] = Array(repeating: [], count: QoSClass.laneOrder.count)
        var counts: [Int] = Array(repeating: 0, count: QoSClass.laneOrder.count)
        var all: Set<OperationID> = []

        /// One pass, reading fields in place, and only when something can be held: a suspended
        /// (or released) queue, ready operations in no queue (the lanes count more ready
        /// operations than the queues hold), or a queue that has left a free slot unused for
        /// longer than the model's grace while it holds ready work (whose readiness it was
        /// likely never told: Foundation caches it). The usual frame skips it.
        init(_ model: DashboardModel, lanes: [QoSLane], limit: Int) {
            // Queues that start their ready work: everything else holds it. Read once, by id.
            var running: Set<QueueID> = []
            var unusedRoom: Set<QueueID> = []
            var queuedReady = 0
            let now = model.now
            for queue in model.queues.ids {
                guard let (starts, ready) = model.queues.read(queue, { (!$0.isSuspended && !$0.isReleased, $0.ready) }) else { continue }
                if starts { running.insert(queue) }
                if starts, ready > 0, model.leavesRoomUnused(queue, now: now) { unusedRoom.insert(queue) }
                queuedReady += ready
            }
            guard running.count < model.queues.count || !unusedRoom.isEmpty
                || queuedReady < lanes.reduce(0, { $0 + $1.readyCount }) else { return }
            var found: [[(UInt64, OperationID)]] = Array(repeating: [], count: QoSClass.laneOrder.count)
            model.operations.forEach { record in
                guard record.pointee.state == .ready else { return }
                if let queue = record.pointee.queue, running.contains(queue) {
                    // Ready in a running queue: next, unless its queue has not started it while it
                    // had room (the start order says "ready, not started" of the same operation).
                    guard unusedRoom.contains(queue), model.isReadyNotStarted(record.pointee.id, now: now) else { return }
                }
                let lane = QoSClass.laneOrder.firstIndex(of: record.pointee.qualityOfService) ?? 2
                counts[lane] += 1
                found[lane].append((record.pointee.enqueueOrder, record.pointee.id))
                all.insert(record.pointee.id)
            }
            ids = found.map { Array($0.sorted(by: <).prefix(limit).map(\.1)) }
        }
    }

    func render(_ model: DashboardModel, _ state: ViewState, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard !area.isEmpty else { return }
        let lanes = model.qosLanes(limit: 16)
        let held = Held(model, lanes: lanes, limit: 12)
        let rowsPerLane = area.height >= 10 ? 2 : 1
        for (index, lane) in lanes.enumerated() {
            let y = area.y + index * rowsPerLane
            guard y < area.maxY else { break }
            let name = ["userInteractive": "UI  ", "userInitiated": "INIT", "default": "DEF ", "utility": "UTIL", "background": "BG  "][lane.qos.rawValue] ?? "    "
            let bar = theme.unicode ? " │ " : " | "
            var x = Self.put(name + " ", x: area.x, y: y, style: theme.header, &buffer, area)
            x = spans(lane.executing, lane.executingCount, model, state, &buffer, &map, x: x, y: y, area: area)
            x = Self.put(bar + "next ", x: x, y: y, style: theme.dim, &buffer, area)
            let next = lane.ready.filter { !held.all.contains($0) }
            // Room kept for the held part, which says why ready work does not start.
            let heldRoom = held.counts[index] > 0 ? bar.count + 5 + 9 : 0
            x = spans(next, lane.readyCount - held.counts[index], model, state, &buffer, &map, x: x, y: y, area: area, reserve: heldRoom)
            if held.counts[index] > 0 {
                x = Self.put(bar + "held ", x: x, y: y, style: theme.dim, &buffer, area)
                x = spans(held.ids[index], held.counts[index], model, state, &buffer, &map, x: x, y: y, area: area)
            }
            if rowsPerLane == 1 {
                x = Self.put(bar + "\(lane.pendingCount) waiting", x: x, y: y, style: theme.style(state: .pending, cancelled: false), &buffer, area)
            } else if y + 1 < area.maxY {
                let second = Self.put("     waiting ", x: area.x, y: y + 1, style: theme.dim, &buffer, area)
                let end = spans(lane.pending, lane.pendingCount, model, state, &buffer, &map, x: second, y: y + 1, area: area)
                Self.markCut(end, y: y + 1, &buffer, area)
            }
            Self.markCut(x, y: y, &buffer, area)
        }
    }

    /// Writes `text` clipped to `area` and returns where it would end unclipped, so that a row
    /// knows when something did not fit.
    private static func put(_ text: String, x: Int, y: Int, style: Style = .plain, _ buffer: inout Buffer, _ area: Rect) -> Int {
        buffer.write(text, x: x, y: y, style: style, clip: area)
        return x + TerminalText.width(text)
    }

    /// A row that ran past the pane ends in `…`, as the legend says of every cut.
    private static func markCut(_ end: Int, y: Int, _ buffer: inout Buffer, _ area: Rect) {
        guard end > area.maxX, area.width > 0 else { return }
        buffer.write("…", x: area.maxX - 1, y: y, style: .plain, clip: area)
    }

    /// Glyph and id of each operation while they fit, then `+N more`.
    @discardableResult
    private func spans(_ ids: [OperationID], _ total: Int, _ model: DashboardModel, _ state: ViewState,
                       _ buffer: inout Buffer, _ map: inout ScreenMap, x start: Int, y: Int, area: Rect, reserve: Int = 0) -> Int {
        var x = start
        let limit = area.maxX - reserve
        if ids.isEmpty, total == 0 { return Self.put("-", x: x, y: y, style: theme.dim, &buffer, area) }
        var shown = 0
        for id in ids {
            guard let record = model.operations[id] else { continue }
            let priority = record.effectivePriority == .normal ? "" : "(\(OperationsPane.short(record.effectivePriority)))"
            let text = theme.glyph(state: record.state, cancelled: record.isCancelled) + "\(id.rawValue)\(priority)"
            // Room for this one and for the count of the rest.
            guard x + text.count + 12 <= limit || (shown == total - 1 && x + text.count <= limit) else { break }
            var style = theme.style(state: record.state, cancelled: record.isCancelled, inCycle: model.isInCycle(id))
            if id == state.selection { style.attributes.insert(.reverse) }
            let end = Self.put(text, x: x, y: y, style: style, &buffer, area)
            map.laneOperations.append(OperationArea(rect: Rect(x: x, y: y, width: min(end, area.maxX) - x, height: 1), operation: id))
            x = end
            // The space after an id that ends on the last column is not a cut.
            buffer.write(" ", x: x, y: y, clip: area)
            if x != area.maxX { x += 1 }
            shown += 1
        }
        if total > shown { x = Self.put("+\(total - shown) more", x: x, y: y, style: theme.dim, &buffer, area) }
        return x
    }
}
