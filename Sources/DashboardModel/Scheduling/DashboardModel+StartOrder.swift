import OperationEvents

extension DashboardModel {
    /// The queue's ready, unstarted operations in the order Foundation will start them: the
    /// barrier list first, then veryHigh ... veryLow, first in first out within one priority
    /// (swift-corelibs-foundation `OperationQueue._schedule`).
    public func startOrder(of queue: QueueID, limit: Int = .max) -> [OperationID] {
        guard limit > 0, let lists = queueFacts.read(queue, { $0.startLists }) else { return [] }
        var result: [OperationID] = []
        for (index, list) in lists.enumerated() {
            for id in list where isLive(id, in: queue, list: index) && isStartable(id) {
                result.append(id)
                if result.count >= limit { return result }
            }
        }
        return result
    }

    /// Ready to be started by its queue. A barrier block is ready once everything before it
    /// finished (its readiness is not reported, so it is derived here).
    func isStartable(_ id: OperationID) -> Bool {
        guard let (state, isBarrier) = operations.read(id, { ($0.state, $0.isBarrier) }) else { return false }
        if isBarrier {
            return state < .executing
                && operations.read(id, { $0.dependencies })!.allSatisfy { (operations.read($0, { $0.state }) ?? .finished) == .finished }
        }
        return state == .ready
    }

    /// The operations of one QoS class: executing (oldest first), ready in start order (each
    /// queue's order, interleaved by rank), pending (in add order); at most `limit` of each,
    /// with the full counts. One pass over the operations without copying them, then the
    /// queues' start orders merged by rank: it runs on every frame.
    public func qosLanes(limit: Int = 50) -> [QoSLane] {
        let order = QoSClass.laneOrder
        func lane(_ qos: QoSClass) -> Int { order.firstIndex(of: qos)! }
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
        var laneOf: [OperationID: Int] = [:]
        operations.forEach { record in
            // Fields first, before any write: then only they are loaded, not the whole record.pointee.
            let (id, state, qos, startedAt, enqueueOrder) = (record.pointee.id, record.pointee.state, record.pointee.qualityOfService,
                                                             record.pointee.startedAt, record.pointee.enqueueOrder)
            let index = lane(qos)
            switch state {
            case .executing:
                lanes[index].executingCount += 1
                keep(&executing[index], (startedAt ?? 0, id))
            case .ready:
                lanes[index].readyCount += 1
                laneOf[id] = index
            case .pending:
                lanes[index].pendingCount += 1
                keep(&pending[index], (enqueueOrder, id))
            case .finished:
                break
            }
        }
        // Ready: rank 0 of every queue (in queue order), then rank 1, ... until the lanes are full.
        if !laneOf.isEmpty {
            let orders = queues.ids.sorted().map { startOrder(of: $0) }
            let deepest = orders.map(\.count).max() ?? 0
            var full = 0
            rankLoop: for rank in 0..<deepest {
                for queueOrder in orders where rank < queueOrder.count {
                    let id = queueOrder[rank]
                    guard let index = laneOf[id], lanes[index].ready.count < limit else { continue }
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
