import DashboardModel
import OperationEvents

/// Where the timeline view puts things: the time window, and each queue's operations in lanes
/// (an operation goes in the first lane where nothing of another is drawn at its columns, so
/// operations that overlap in time sit on separate lanes: the concurrency shows as stacked bars).
struct TimelineLayout {
    /// One operation's bar, in time.
    struct Bar {
        var id: OperationID
        var added: UInt64
        var started: UInt64?
        var finished: UInt64?
        var cancelled: Bool
        var executing: Bool
    }

    /// One queue's lanes (only those that fit), and how many operations did not.
    struct QueueLanes {
        var queue: QueueID?
        var title: String
        var lanes: [[Bar]]
        var hidden: Int
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

    /// Lays the window out in `columns` columns and at most `rows` lanes in all.
    static func build(_ model: DashboardModel, columns: Int, rows: Int) -> TimelineLayout {
        let (start, end) = window(model)
        let columns = max(1, columns)
        var byQueue: [QueueID?: [Bar]] = [:]
        for (queue, bar) in bars(model, from: start, to: end) { byQueue[queue, default: []].append(bar) }
        let order = byQueue.keys.sorted { ($0?.rawValue ?? .max) < ($1?.rawValue ?? .max) }
        var all: [QueueLanes] = []
        for queue in order {
            let bars = byQueue[queue]!.sorted { ($0.added, $0.id) < ($1.added, $1.id) }
            var lanes: [[Bar]] = []
            var laneEnds: [Int] = []
            var hidden = 0
            for bar in bars {
                let first = column(bar.added, start: start, end: end, columns: columns)
                let last = max(first, column(bar.finished ?? end, start: start, end: end, columns: columns))
                // A column apart, so that neighbours on a lane do not read as one bar.
                if let lane = laneEnds.firstIndex(where: { $0 + 1 < first }) {
                    lanes[lane].append(bar)
                    laneEnds[lane] = last
                } else if lanes.count < rows {
                    lanes.append([bar])
                    laneEnds.append(last)
                } else {
                    // No more lanes than rows can ever show: thousands waiting at once stay cheap.
                    hidden += 1
                }
            }
            let name = queue.flatMap { model.queues[$0]?.name } ?? ""
            let title = queue.map { "\($0) \(name)" } ?? "no queue"
            all.append(QueueLanes(queue: queue, title: title, lanes: lanes, hidden: hidden))
        }
        return fit(TimelineLayout(start: start, end: end, queues: all, hiddenQueues: 0), rows: max(1, rows))
    }

    /// Cuts lanes so that the whole fits in `rows`: every queue keeps at least one while rows
    /// last, then the rest go where most lanes are wanted.
    private static func fit(_ layout: TimelineLayout, rows: Int) -> TimelineLayout {
        var layout = layout
        let wanted = layout.queues.map(\.lanes.count)
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
            let cut = layout.queues[index].lanes[given[index]...]
            layout.queues[index].hidden += cut.reduce(0) { $0 + $1.count }
            layout.queues[index].lanes.removeLast(cut.count)
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
            let bar = Bar(id: record.id, added: record.addedAt, started: record.startedAt, finished: record.finishedAt,
                          cancelled: record.isCancelled, executing: record.state == .executing)
            result.append((record.queue, bar))
        }
        return result
    }
}
