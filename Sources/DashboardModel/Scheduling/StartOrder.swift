import DequeModule
import OperationEvents

/// What each queue starts next, in Foundation's order, and the QoS lanes built from it
/// (`DashboardModel.startOrder(of:limit:)`, `DashboardModel.qosLanes(limit:)`).
enum StartOrder {
    /// The queue's ready, unstarted operations in the order Foundation will start them: the
    /// barrier list first, then veryHigh ... veryLow, first in first out within one priority
    /// (swift-corelibs-foundation `OperationQueue._schedule`).
    static func of(_ queue: QueueID, in model: DashboardModel, limit: Int) -> [OperationID] {
        guard limit > 0 else { return [] }
        var cursor = Cursor(queue: queue, model)
        var result: [OperationID] = []
        while let id = cursor.next(model) {
            result.append(id)
            if result.count >= limit { break }
        }
        return result
    }

    /// Ready to be started by its queue. A barrier block is ready once everything before it
    /// finished (its readiness is not reported, so it is derived here).
    static func isStartable(_ id: OperationID, in operations: OperationRecords) -> Bool {
        guard let (state, isBarrier) = operations.withRecord(id, { ($0.pointee.state, $0.pointee.isBarrier) }) else { return false }
        if isBarrier {
            return state < .executing
                && operations.withRecord(id, { $0.pointee.dependencies })!.allSatisfy {
                    (operations.withRecord($0, { $0.pointee.state }) ?? .finished) == .finished
                }
        }
        return state == .ready
    }

    /// A queue's start order read one operation at a time: the lanes take from each queue only
    /// as many as they show.
    struct Cursor {
        let queue: QueueID
        let lists: [Deque<OperationID>]
        var list = 0
        var index = 0

        init(queue: QueueID, _ model: DashboardModel) {
            self.queue = queue
            lists = model.queueFacts.startLists(of: queue)
        }

        /// The next operation in the queue's start order, nil after the last.
        mutating func next(_ model: DashboardModel) -> OperationID? {
            while list < lists.count {
                let entries = lists[list]
                while index < entries.count {
                    let id = entries[index]
                    index += 1
                    if QueueFactsTable.isLive(id, in: queue, list: list, model.operations), StartOrder.isStartable(id, in: model.operations) {
                        return id
                    }
                }
                list += 1
                index = 0
            }
            return nil
        }
    }

    /// The operations of one QoS class: executing (oldest first), ready in start order (each
    /// queue's order, interleaved by rank), pending (in add order); at most `limit` of each,
    /// with the full counts. One pass over the operations without copying them, then the
    /// queues' start orders merged by rank, read only as far as the lanes fill: it runs on
    /// every frame.
    static func lanes(in model: DashboardModel, limit: Int) -> [QoSLane] {
        let order = QoSClass.laneOrder
        var lanes = order.map { QoSLane(qos: $0) }
        // The `limit` smallest keys per lane, kept sorted (most operations never qualify).
        var executing = [[(UInt64, OperationID)]](repeating: [], count: order.count)
        var pending = [[(UInt64, OperationID)]](repeating: [], count: order.count)
        func keep(_ list: inout [(UInt64, OperationID)], _ entry: (UInt64, OperationID)) {
            guard limit > 0 else { return }
            if list.count == limit, let last = list.last, !(entry < last) { return }
            let at = list.firstIndex { entry < $0 } ?? list.count
            list.insert(entry, at: at)
            if list.count > limit { list.removeLast() }
        }
        // The lane of each ready operation by its slot in the table (-1: not ready).
        var laneOfSlot = [Int8](repeating: -1, count: model.operations.count)
        var slot = 0
        var anyReady = false
        model.operations.forEach { record in
            // Fields first, before any write: then only they are loaded, not the whole record.pointee.
            let (id, state, qos, startedAt, enqueueOrder) = (record.pointee.id, record.pointee.state, record.pointee.qualityOfService,
                                                             record.pointee.startedAt, record.pointee.enqueueOrder)
            let index = qos.laneIndex
            switch state {
            case .executing:
                lanes[index].executingCount += 1
                keep(&executing[index], (startedAt ?? 0, id))
            case .ready:
                lanes[index].readyCount += 1
                laneOfSlot[slot] = Int8(index)
                anyReady = true
            case .pending:
                lanes[index].pendingCount += 1
                keep(&pending[index], (enqueueOrder, id))
            case .finished:
                break
            }
            slot += 1
        }
        // Ready: rank 0 of every queue (in queue order), then rank 1, ... until the lanes are
        // full or every queue's order has been read.
        if anyReady {
            var cursors = model.queues.ids.sorted().map { Cursor(queue: $0, model) }
            var full = 0
            var reading = true
            rankLoop: while reading {
                reading = false
                for queue in cursors.indices {
                    guard let id = cursors[queue].next(model) else { continue }
                    reading = true
                    guard let slot = model.operations.slot(of: id), laneOfSlot[slot] >= 0 else { continue }
                    let index = Int(laneOfSlot[slot])
                    guard lanes[index].ready.count < limit else { continue }
                    lanes[index].ready.append(id)
                    if lanes[index].ready.count == limit {
                        full += 1
                        if full == lanes.count { break rankLoop }
                    }
                }
            }
        }
        for index in lanes.indices {
            lanes[index].executing = executing[index].map(\.1)
            lanes[index].pending = pending[index].map(\.1)
        }
        return lanes
    }
}

/// One quality-of-service lane of the dashboard.
public struct QoSLane: Sendable, Equatable {
    /// The class.
    public var qos: QoSClass
    /// Executing, oldest first.
    public var executing: [OperationID] = []
    /// Ready, in the order their queues will start them.
    public var ready: [OperationID] = []
    /// Waiting on dependencies, in add order.
    public var pending: [OperationID] = []
    /// Totals (the lists are truncated).
    public var executingCount = 0
    /// Ready operations in all.
    public var readyCount = 0
    /// Pending operations in all.
    public var pendingCount = 0

    /// An empty lane.
    package init(qos: QoSClass) {
        self.qos = qos
    }
}
