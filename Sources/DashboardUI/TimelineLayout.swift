import DashboardModel
import OperationEvents

/// Where the timeline view puts things: the time window, and each queue's operations in lanes
/// by their running part (an operation goes in the first lane where none of the others was
/// running by then, so a lane is one slot and a queue's lanes are how many ran at once), with
/// one row under them for the waiting parts (how many waited there, column by column).
struct TimelineLayout {
    /// One operation's bar, in time.
    struct Bar {
        var id: OperationID
        var added: UInt64
        var started: UInt64?
        var finished: UInt64?
        var cancelled: Bool
        var executing: Bool
        /// When it was cancelled, if it was: the bar is marked cancelled from there on, not from
        /// its start (nil when the change is no longer in its history: from its add).
        var cancelledAt: UInt64? = nil
    }

    /// One queue's lanes (only those that fit), its waiting row, and how many operations did not fit.
    struct QueueLanes {
        var queue: QueueID?
        var title: String
        /// The running parts, a lane per slot used at once.
        var lanes: [[Bar]]
        /// The operations with a waiting part in the window (the waiting row shows them).
        var waiting: [Bar] = []
        /// Per column: how many waited then, and how many of those were cancelled.
        var waitingCounts: [Int] = []
        var cancelledWaiting: [Int] = []
        /// The waiting row is drawn.
        var showsWaiting = false
        var hidden: Int

        /// The most that waited at once (in one column).
        var waitingPeak: Int { waitingCounts.max() ?? 0 }
        /// Rows it takes: its lanes and its waiting row.
        var rows: Int { lanes.count + (showsWaiting ? 1 : 0) }
    }

    /// The window's first moment (monitor clock).
    var start: UInt64
    /// Its last: the time shown (the model's clock, the replay's cursor).
    var end: UInt64
    var queues: [QueueLanes]
    /// Queues left out for want of rows.
    var hiddenQueues: Int

    /// The spans a window may take (seconds): the smallest that holds what is retained.
    static let spans: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1_800, 3_600]

    /// The operations shown in the window, in the order ↑ and ↓ visit them: queue by queue, in
    /// the order they were added.
    static func listed(_ model: DashboardModel) -> [OperationID] {
        let (start, end) = window(model)
        return bars(model, from: start, to: end).sorted { lhs, rhs in
            (lhs.queue?.rawValue ?? .max, lhs.bar.added, lhs.bar.id) < (rhs.queue?.rawValue ?? .max, rhs.bar.added, rhs.bar.id)
        }.map(\.bar.id)
    }

    /// The window: it ends at the model's clock and reaches back to the earliest retained
    /// operation that overlaps the last hour, rounded up to a span people read easily.
    static func window(_ model: DashboardModel) -> (start: UInt64, end: UInt64) {
        let end = model.now
        let limit = UInt64(spans.last! * 1e9)
        var earliest = end
        model.operations.forEach { record in
            let finished = record.pointee.finishedAt ?? end
            guard finished + limit >= end else { return }
            earliest = min(earliest, record.pointee.addedAt)
        }
        let needed = Double(end - earliest) / 1e9
        let span = spans.first { $0 >= needed * 1.05 } ?? spans.last!
        let nanoseconds = UInt64(span * 1e9)
        return (end > nanoseconds ? end - nanoseconds : 0, end)
    }

    /// Lays the window out in `columns` columns and at most `rows` rows in all.
    static func build(_ model: DashboardModel, columns: Int, rows: Int) -> TimelineLayout {
        let (start, end) = window(model)
        let columns = max(1, columns)
        var byQueue: [QueueID?: [Bar]] = [:]
        for (queue, bar) in bars(model, from: start, to: end) { byQueue[queue, default: []].append(bar) }
        let order = byQueue.keys.sorted { ($0?.rawValue ?? .max) < ($1?.rawValue ?? .max) }
        func column(_ time: UInt64) -> Int { Self.column(time, start: start, end: end, columns: columns) }
        var all: [QueueLanes] = []
        for queue in order {
            let name = queue.flatMap { model.queues[$0]?.name } ?? ""
            let title = queue.map { "\($0) \(name)" } ?? "no queue"
            var lanes = QueueLanes(queue: queue, title: title, lanes: [], hidden: 0)
            var counts = Array(repeating: 0, count: columns + 1)
            var cancelled = Array(repeating: 0, count: columns + 1)
            var laneEnds: [UInt64] = []
            let bars = byQueue[queue]!.sorted { ($0.started ?? $0.added, $0.id) < ($1.started ?? $1.added, $1.id) }
            for bar in bars {
                if let span = waitingColumns(bar, end: end, column: column) {
                    lanes.waiting.append(bar)
                    counts[span.lowerBound] += 1
                    counts[span.upperBound + 1] -= 1
                    let from = max(span.lowerBound, column(bar.cancelledAt ?? bar.added))
                    if bar.cancelled, from <= span.upperBound {
                        cancelled[from] += 1
                        cancelled[span.upperBound + 1] -= 1
                    }
                }
                guard let started = bar.started else { continue }
                // By time, not by columns: a serial queue's operations, one after the other,
                // share its one lane however close they are.
                if let lane = laneEnds.firstIndex(where: { $0 <= started }) {
                    lanes.lanes[lane].append(bar)
                    laneEnds[lane] = bar.finished ?? .max
                } else if lanes.lanes.count < rows {
                    lanes.lanes.append([bar])
                    laneEnds.append(bar.finished ?? .max)
                } else {
                    // No more lanes than rows can ever show: thousands at once stay cheap.
                    lanes.hidden += 1
                }
            }
            lanes.waitingCounts = running(counts).dropLast()
            lanes.cancelledWaiting = running(cancelled).dropLast()
            lanes.showsWaiting = !lanes.waiting.isEmpty
            all.append(lanes)
        }
        return fit(TimelineLayout(start: start, end: end, queues: all, hiddenQueues: 0), rows: max(1, rows))
    }

    /// The columns of `bar`'s waiting part, if it has one on screen: up to the column before it
    /// started, or, when it never ran, up to its finish (or now) with at least one column.
    static func waitingColumns(_ bar: Bar, end: UInt64, column: (UInt64) -> Int) -> ClosedRange<Int>? {
        let first = column(bar.added)
        if let started = bar.started {
            let last = column(started) - 1
            return last >= first ? first...last : nil
        }
        return first...max(first, column(bar.finished ?? end))
    }

    /// Running sums of a difference array.
    private static func running(_ differences: [Int]) -> [Int] {
        var total = 0
        return differences.map { total += $0; return total }
    }

    /// Cuts rows so that the whole fits in `rows`: every queue keeps at least one while rows
    /// last, then the rest go where most are wanted. A queue cut short keeps its waiting row
    /// once it has a lane.
    private static func fit(_ layout: TimelineLayout, rows: Int) -> TimelineLayout {
        var layout = layout
        let wanted = layout.queues.map(\.rows)
        guard wanted.reduce(0, +) > rows || layout.queues.contains(where: { $0.hidden > 0 }) else { return layout }
        var shown = layout.queues.count > rows ? rows - 1 : layout.queues.count
        shown = max(0, shown)
        layout.hiddenQueues = layout.queues.count - shown
        var given = Array(repeating: shown > 0 ? 1 : 0, count: shown)
        var left = rows - shown - (layout.hiddenQueues > 0 ? 1 : 0)
        while left > 0 {
            guard let index = given.indices.filter({ given[$0] < wanted[$0] })
                .max(by: { wanted[$0] - given[$0] < wanted[$1] - given[$1] }) else { break }
            given[index] += 1
            left -= 1
        }
        layout.queues = Array(layout.queues.prefix(shown))
        for index in layout.queues.indices where given[index] < wanted[index] {
            var queue = layout.queues[index]
            if queue.showsWaiting, given[index] < 2, !queue.lanes.isEmpty {
                queue.showsWaiting = false
                queue.hidden += queue.waiting.filter { $0.started == nil }.count
            }
            let keep = given[index] - (queue.showsWaiting ? 1 : 0)
            if keep < queue.lanes.count {
                let cut = queue.lanes[keep...]
                queue.hidden += cut.reduce(0) { $0 + $1.count }
                queue.lanes.removeLast(cut.count)
            }
            layout.queues[index] = queue
        }
        return layout
    }

    /// The column of `time` in a window of `columns`.
    static func column(_ time: UInt64, start: UInt64, end: UInt64, columns: Int) -> Int {
        guard end > start, time > start else { return 0 }
        let offset = Double(min(time, end) - start) / Double(end - start)
        return min(columns - 1, Int(offset * Double(columns)))
    }

    /// The operations that overlap the window, with their queues.
    private static func bars(_ model: DashboardModel, from start: UInt64, to end: UInt64) -> [(queue: QueueID?, bar: Bar)] {
        var result: [(queue: QueueID?, bar: Bar)] = []
        model.operations.forEach { pointer in
            let record = pointer.pointee
            guard (record.finishedAt ?? end) >= start, record.addedAt <= end else { return }
            // The history is decoded for cancelled operations only: they are few, and the rest need no time of it.
            let cancelledAt = record.isCancelled ? record.history.last { $0.key == .isCancelled }?.time : nil
            let bar = Bar(id: record.id, added: record.addedAt, started: record.startedAt, finished: record.finishedAt,
                          cancelled: record.isCancelled, executing: record.state == .executing, cancelledAt: cancelledAt)
            result.append((record.queue, bar))
        }
        return result
    }
}
