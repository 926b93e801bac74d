import DashboardModel
import OperationEvents

/// The changes that led to the state a session started from, told again as events: a session
/// opens on a program already running (its first batch brings the operations added so far as
/// state, not as events), and the narration should begin where the program began.
///
/// Read from each operation's recent key changes (the stream keeps the last few of each), so an
/// operation with a long history is told from the changes still kept.
enum StartingHistory {
    /// The events, oldest first, numbered from 0: the queues as they appear, then each
    /// operation's add and key changes at their times.
    static func events(_ model: DashboardModel) -> [MonitorEvent] {
        var told: [(time: UInt64, order: UInt64, change: MonitorEvent.Change, origin: EventOrigin)] = []
        var earliest = UInt64.max
        model.operations.forEach { pointer in
            let record = pointer.pointee
            earliest = min(earliest, record.addedAt)
            for (change, time, origin) in changes(record) { told.append((time, record.enqueueOrder, change, origin)) }
        }
        var events: [MonitorEvent] = []
        let appeared = earliest == .max ? model.now : earliest
        for queue in model.queues.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) where !queue.isReleased {
            let info = QueueInfo(id: queue.id, name: queue.name, maxConcurrentOperationCount: queue.maxConcurrentOperationCount,
                                 isSuspended: queue.isSuspended, qualityOfService: queue.qualityOfService,
                                 isMainQueue: queue.isMainQueue, observation: queue.observation)
            events.append(MonitorEvent(sequence: UInt64(events.count), time: appeared, change: .queueAppeared(info)))
        }
        // Stable: an operation's own changes keep their order at equal times.
        let sorted = told.enumerated().sorted { ($0.element.time, $0.element.order, $0.offset) < ($1.element.time, $1.element.order, $1.offset) }
        for (_, entry) in sorted {
            events.append(MonitorEvent(sequence: UInt64(events.count), time: entry.time, origin: entry.origin, change: entry.change))
        }
        return events
    }

    /// One operation's add and its key changes, as events.
    private static func changes(_ record: OperationRecord) -> [(MonitorEvent.Change, UInt64, EventOrigin)] {
        let history = record.history
        var info = record.info
        // The keys as they were when it was added: before the changes its history holds.
        let firstReady = history.first { $0.key == .isReady }
        info.isReady = firstReady.map { !$0.value } ?? (record.readyAt != nil)
        info.isExecuting = false
        info.isCancelled = false
        let gained = Set(history.filter { $0.key == .dependencies && $0.value }.map { OperationID(Int($0.detail)) })
        let lost = history.filter { $0.key == .dependencies && !$0.value }.map { OperationID(Int($0.detail)) }
        info.dependencies = info.dependencies.filter { !gained.contains($0) } + lost.filter { !info.dependencies.contains($0) }
        var result: [(MonitorEvent.Change, UInt64, EventOrigin)] = []
        if let first = history.first, first.key == .added, !first.value {
            let keys = first.firstSeenKeys
            (info.isReady, info.isExecuting, info.isCancelled) = (keys.isReady, keys.isExecuting, keys.isCancelled)
        }
        result.append((.operationAdded(info), record.addedAt, history.first?.origin ?? .exact))
        var cancelled = info.isCancelled
        for change in history {
            let id = record.id
            let event: MonitorEvent.Change?
            switch change.key {
            case .added: event = nil
            case .isReady: event = .ready(operation: id, isReady: change.value)
            case .isExecuting: event = change.value ? .started(operation: id) : nil
            case .isFinished: event = .finished(operation: id, cancelled: cancelled)
            case .isCancelled:
                cancelled = true
                event = .cancelled(operation: id)
            case .dependencies:
                let dependency = OperationID(Int(change.detail))
                event = change.value ? .dependencyAdded(operation: id, dependency: dependency)
                    : .dependencyRemoved(operation: id, dependency: dependency)
            case .queuePriority:
                let priority = OperationPriority(rawValue: Int(change.detail)) ?? .normal
                event = .priorityChanged(operation: id, priority: priority, effective: priority == record.priority ? record.effectivePriority : priority)
            case .unsignalledFinish: event = .unsignalledFinish(operation: id)
            }
            if let event { result.append((event, change.time, change.origin)) }
        }
        // A start or finish older than the changes kept (or deduced, not seen) still happened.
        if let startedAt = record.startedAt, !history.contains(where: { $0.key == .isExecuting && $0.value }), !info.isExecuting {
            result.append((.started(operation: record.id), startedAt, .inferred))
        }
        if let finishedAt = record.finishedAt, !history.contains(where: { $0.key == .isFinished }) {
            result.append((.finished(operation: record.id, cancelled: record.isCancelled), finishedAt, .inferred))
        }
        return result
    }
}
