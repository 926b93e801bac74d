import OperationEvents

extension DashboardModel {
    /// The queue's ready, unstarted operations in the order Foundation will start them: the
    /// barrier list first, then veryHigh ... veryLow, first in first out within one priority
    /// (swift-corelibs-foundation `OperationQueue._schedule`).
    public func startOrder(of queue: QueueID, limit: Int = .max) -> [OperationID] {
        guard let record = queues[queue], limit > 0 else { return [] }
        var result: [OperationID] = []
        for (index, list) in record.startLists.enumerated() {
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
        guard let record = operations[id] else { return false }
        if record.isBarrier {
            return record.state < .executing && record.dependencies.allSatisfy { (operations[$0]?.state ?? .finished) == .finished }
        }
        return record.state == .ready
    }

    /// The operations of one QoS class: executing (oldest first), ready in start order (each
    /// queue's order, interleaved by rank), pending (in add order); at most `limit` of each,
    /// with the full counts.
    public func qosLanes(limit: Int = 50) -> [QoSLane] {
        var lanes = Dictionary(uniqueKeysWithValues: QoSClass.laneOrder.map { ($0, QoSLane(qos: $0)) })
        var rank: [OperationID: Int] = [:]
        for queue in queues.ids {
            for (position, id) in startOrder(of: queue).enumerated() { rank[id] = position }
        }
        var executing: [QoSClass: [OperationRecord]] = [:]
        var ready: [QoSClass: [(Int, QueueID?, OperationID)]] = [:]
        var pending: [QoSClass: [OperationRecord]] = [:]
        for record in operations.values {
            let qos = record.qualityOfService
            switch record.state {
            case .executing:
                lanes[qos]!.executingCount += 1
                executing[qos, default: []].append(record)
            case .ready:
                lanes[qos]!.readyCount += 1
                ready[qos, default: []].append((rank[record.id] ?? .max, record.queue, record.id))
            case .pending:
                lanes[qos]!.pendingCount += 1
                pending[qos, default: []].append(record)
            case .finished:
                break
            }
        }
        for qos in QoSClass.laneOrder {
            lanes[qos]!.executing = (executing[qos] ?? [])
                .sorted { ($0.startedAt ?? 0, $0.id) < ($1.startedAt ?? 0, $1.id) }.prefix(limit).map(\.id)
            lanes[qos]!.ready = (ready[qos] ?? [])
                .sorted { ($0.0, $0.1?.rawValue ?? 0, $0.2) < ($1.0, $1.1?.rawValue ?? 0, $1.2) }.prefix(limit).map(\.2)
            lanes[qos]!.pending = (pending[qos] ?? [])
                .sorted { ($0.enqueueOrder, $0.id) < ($1.enqueueOrder, $1.id) }.prefix(limit).map(\.id)
        }
        return QoSClass.laneOrder.map { lanes[$0]! }
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
    public var readyCount = 0
    public var pendingCount = 0

    /// An empty lane.
    public init(qos: QoSClass) {
        self.qos = qos
    }
}
