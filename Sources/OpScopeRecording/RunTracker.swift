import OperationEvents

/// Follows operation runs through a recording for the trace export: which lane of its queue
/// each run takes (a lane is free again once its run ended, so slices on a track never
/// overlap), the runs that finished (for dependency arrows), and the events to write.
struct RunTracker {
    private struct Info {
        var name: String
        var queue: QueueID?
        var type: String
        var dependencies: [OperationID]
    }

    private struct Lane {
        var tid: Int
        var busyUntil: UInt64 = 0
        var holder: OperationID?
    }

    private struct Run {
        var queue: QueueID?
        var lane: Int
        var tid: Int
        var start: UInt64
        var end: UInt64 = 0
    }

    var writer: TraceWriter
    private let base: UInt64
    private let program: String
    private var infos: [OperationID: Info] = [:]
    private var queueNames: [QueueID: String] = [:]
    private var lanes: [QueueID?: [Lane]] = [:]
    private var open: [OperationID: Run] = [:]
    private var done: [OperationID: Run] = [:]
    /// Operations waiting to start: since when (their wait's `b` event is written).
    private var waiting: [OperationID: UInt64] = [:]
    private var nextTid = 2
    private var nextFlow = 1
    /// Tracks used, the warnings track included.
    private(set) var trackCount = 1
    static let warningsTid = 1

    init(writer: TraceWriter, base: UInt64, program: String) {
        self.writer = writer
        self.base = base
        self.program = program
    }

    private func micros(_ time: UInt64) -> Double { time >= base ? Double(time - base) / 1000 : 0 }

    /// The process's name and the warnings track.
    mutating func begin() throws {
        try writer.event(phase: "M", name: "process_name", tid: 0, ts: 0, fields: [("args", TraceWriter.object([("name", TraceWriter.quoted(program))]))])
        try nameTrack(Self.warningsTid, "warnings and lost events", sortIndex: 0)
    }

    private mutating func nameTrack(_ tid: Int, _ name: String, sortIndex: Int) throws {
        try writer.event(phase: "M", name: "thread_name", tid: tid, ts: 0, fields: [("args", TraceWriter.object([("name", TraceWriter.quoted(name))]))])
        try writer.event(phase: "M", name: "thread_sort_index", tid: tid, ts: 0,
                         fields: [("args", TraceWriter.object([("sort_index", String(sortIndex))]))])
    }

    // MARK: Events

    /// Draws what the event changes of an operation's life (its run, its cancellation, a lost
    /// finish) and keeps the names and edges the trace labels it with. The lifecycle is the one
    /// the stream's ordering rules name (`MonitorEvent.Change.OrderingRule`), so a new kind of
    /// change that fits a rule is drawn as that rule says.
    mutating func apply(_ event: MonitorEvent, at time: UInt64) throws {
        if let (queue, name) = event.change.queueName { queueNames[queue] = name }
        guard let rule = event.change.orderingRule, let id = event.change.operation else { return }
        switch rule {
        case .announcement(let info):
            infos[id] = Info(name: info.displayName, queue: info.queue, type: info.typeName, dependencies: info.dependencies)
            if info.isExecuting, open[id] == nil {
                try start(id, at: time)
            } else if open[id] == nil, done[id] == nil, waiting[id] == nil {
                try beginWait(id, at: time)
            }
        case .dependencyAdded(let dependency): infos[id]?.dependencies.append(dependency)
        case .dependencyRemoved(let dependency): infos[id]?.dependencies.removeAll { $0 == dependency }
        case .start: if open[id] == nil { try start(id, at: time) }
        case .finish(let cancelled):
            try endWait(id, at: time, cancelled: cancelled)
            try finish(id, at: time, cancelled: cancelled)
        case .release:
            try endWait(id, at: time, cancelled: false)
            try finish(id, at: time, cancelled: false)
        case .cancellation: try instant("cancelled " + label(id), of: id, at: time)
        case .readiness:
            break // not drawn: the run is
        case .asItComes:
            if case .unsignalledFinish = event.change {
                try instant("lost finish: " + label(id) + " reads finished, its queue was never told", of: id, at: time)
            }
        }
    }

    /// A keyframe replaced the stream (the first one, or one after lost events): what ran
    /// before it is written, runs it shows going on are opened, and runs it shows over are closed.
    mutating func adopt(_ state: StreamState, at time: UInt64) throws {
        state.queues.forEach { queueNames[$0.pointee.id] = $0.pointee.name }
        var history: [OperationRecord] = []
        state.operations.forEach { pointer in
            let record = pointer.pointee
            infos[record.id] = Info(name: record.displayName, queue: record.queue, type: record.typeName,
                                    dependencies: record.dependencies)
            if record.startedAt != nil, open[record.id] == nil, done[record.id] == nil { history.append(record) }
        }
        // Waits the keyframe shows: those still going on begin at their add; those of runs it
        // shows are written whole before the runs.
        for record in history.sorted(by: { $0.id < $1.id }) where waiting[record.id] == nil {
            try beginWait(record.id, at: record.addedAt)
            try endWait(record.id, at: max(record.addedAt, record.startedAt!), cancelled: false)
        }
        var stillWaiting: [OperationRecord] = []
        state.operations.forEach { pointer in
            let record = pointer.pointee
            if record.startedAt == nil, record.finishedAt == nil, waiting[record.id] == nil, open[record.id] == nil { stillWaiting.append(record) }
        }
        for record in stillWaiting.sorted(by: { $0.id < $1.id }) { try beginWait(record.id, at: min(record.addedAt, time)) }
        // Waits the keyframe shows over: ended where the state says (its start, or its finish).
        for id in waiting.keys.sorted() {
            let record = state[id]
            guard record == nil || record?.startedAt != nil || record?.finishedAt != nil else { continue }
            try endWait(id, at: record?.startedAt ?? record?.finishedAt ?? time, cancelled: record?.isCancelled ?? false)
        }
        for id in open.keys.sorted() {
            if let record = state[id] {
                if let finishedAt = record.finishedAt { try finish(id, at: max(finishedAt, open[id]!.start), cancelled: record.isCancelled) }
            } else {
                try finish(id, at: time, cancelled: false)
            }
        }
        // In start order, so that lanes are handed out as they were taken.
        for record in history.sorted(by: { ($0.startedAt!, $0.id) < ($1.startedAt!, $1.id) }) {
            try start(record.id, at: record.startedAt!)
            if let finishedAt = record.finishedAt { try finish(record.id, at: max(finishedAt, record.startedAt!), cancelled: record.isCancelled) }
        }
    }

    /// Closes the runs still open when the recording ends.
    mutating func closeAll(at time: UInt64) throws {
        for id in waiting.keys.sorted() { try endWait(id, at: time, cancelled: false, neverStarted: true) }
        for id in open.keys.sorted() { try finish(id, at: max(time, open[id]!.start), cancelled: false, unfinished: true) }
    }

    // MARK: Waits

    /// A wait is an async slice (`b` … `e`, category `wait`, one id per operation): waits of
    /// one queue overlap freely, which slices on a thread track may not, and Perfetto lays
    /// async slices out in rows of their own. It runs from the add to the start, to the finish
    /// of one cancelled before it ran, or to the recording's end for one that never started.
    private mutating func beginWait(_ id: OperationID, at time: UInt64) throws {
        waiting[id] = time
        let queue = infos[id]?.queue
        if lanes[queue] == nil { _ = try freeLane(of: queue, at: time) }
        try writer.event(phase: "b", name: "wait " + label(id), tid: lanes[queue]![0].tid, ts: micros(time),
                         fields: [("cat", "\"wait\""), ("id", TraceWriter.quoted("wait-\(id.rawValue)")),
                                  ("args", TraceWriter.object([("operation", String(id.rawValue)),
                                                               ("queue", TraceWriter.quoted(queueTitle(queue)))]))])
    }

    private mutating func endWait(_ id: OperationID, at time: UInt64, cancelled: Bool, neverStarted: Bool = false) throws {
        guard let since = waiting.removeValue(forKey: id) else { return }
        let queue = infos[id]?.queue
        var args: [(String, String)] = []
        if cancelled { args.append(("cancelled", "true")) }
        if neverStarted { args.append(("neverStarted", "true")) }
        try writer.event(phase: "e", name: "wait " + label(id), tid: lanes[queue]![0].tid, ts: micros(max(time, since)),
                         fields: [("cat", "\"wait\""), ("id", TraceWriter.quoted("wait-\(id.rawValue)")), ("args", TraceWriter.object(args))])
    }

    /// A warning (or a loss) on the warnings track.
    mutating func warning(_ text: String, at time: UInt64) throws {
        try writer.event(phase: "i", name: text, tid: Self.warningsTid, ts: micros(time), fields: [("s", "\"t\""), ("cat", "\"warning\"")])
    }

    // MARK: Runs

    private mutating func start(_ id: OperationID, at time: UInt64) throws {
        try endWait(id, at: time, cancelled: false)
        let queue = infos[id]?.queue
        let lane = try freeLane(of: queue, at: time)
        lanes[queue]![lane].holder = id
        let tid = lanes[queue]![lane].tid
        open[id] = Run(queue: queue, lane: lane, tid: tid, start: time)
        for dependency in infos[id]?.dependencies ?? [] {
            guard let before = done[dependency] else { continue }
            let flow = String(nextFlow)
            nextFlow += 1
            // The arrow leaves the dependency's slice just before its end and enters this one at its start.
            let leave = max(micros(before.start), micros(before.end) - 0.001)
            try writer.event(phase: "s", name: "dependency", tid: before.tid, ts: leave, fields: [("id", flow), ("cat", "\"dependency\"")])
            try writer.event(phase: "f", name: "dependency", tid: tid, ts: micros(time),
                             fields: [("id", flow), ("cat", "\"dependency\""), ("bp", "\"e\"")])
        }
    }

    private mutating func finish(_ id: OperationID, at time: UInt64, cancelled: Bool, unfinished: Bool = false) throws {
        guard var run = open.removeValue(forKey: id) else { return }
        run.end = max(time, run.start)
        lanes[run.queue]![run.lane].holder = nil
        lanes[run.queue]![run.lane].busyUntil = run.end
        done[id] = run
        let info = infos[id]
        var args: [(String, String)] = [("operation", String(id.rawValue)), ("queue", TraceWriter.quoted(queueTitle(run.queue))),
                                        ("type", TraceWriter.quoted(info?.type ?? "?"))]
        if cancelled { args.append(("cancelled", "true")) }
        if unfinished { args.append(("unfinished", "true")) }
        try writer.event(phase: "X", name: label(id), tid: run.tid, ts: micros(run.start),
                         fields: [("dur", TraceWriter.micros(micros(run.end) - micros(run.start))), ("cat", "\"operation\""),
                                  ("args", TraceWriter.object(args))])
    }

    private mutating func instant(_ text: String, of id: OperationID, at time: UInt64) throws {
        let tid: Int
        if let run = open[id] {
            tid = run.tid
        } else {
            let queue = infos[id]?.queue
            if lanes[queue] == nil { _ = try freeLane(of: queue, at: time) }
            tid = lanes[queue]![0].tid
        }
        try writer.event(phase: "i", name: text, tid: tid, ts: micros(time), fields: [("s", "\"t\""), ("cat", "\"operation\"")])
    }

    /// The first lane of `queue` free at `time`, a new one (a new track) if none is.
    private mutating func freeLane(of queue: QueueID?, at time: UInt64) throws -> Int {
        if let index = lanes[queue, default: []].firstIndex(where: { $0.holder == nil && $0.busyUntil <= time }) { return index }
        let index = lanes[queue, default: []].count
        let tid = nextTid
        nextTid += 1
        trackCount += 1
        lanes[queue, default: []].append(Lane(tid: tid))
        let title = queueTitle(queue) + (index == 0 ? "" : " (lane \(index + 1))")
        // Lanes of one queue sit together, queues in id order.
        try nameTrack(tid, title, sortIndex: (queue?.rawValue ?? 1_000_000) * 1_000 + index + 1)
        return index
    }

    private func queueTitle(_ queue: QueueID?) -> String {
        guard let queue else { return "no queue" }
        return "\(queue) " + (queueNames[queue] ?? "")
    }

    private func label(_ id: OperationID) -> String {
        "\(id) " + (infos[id]?.name ?? "")
    }
}
