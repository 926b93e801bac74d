import DequeModule
import OperationEvents

/// Each queue's unstarted operations, one list per priority, as Foundation keeps them: entries
/// are appended when an operation is added (or moves, or changes priority) and dropped lazily
/// from the fronts once started, finished or moved.
extension DashboardModel {
    /// Appends an unstarted operation to its queue's list for its effective priority; `again`
    /// when it may be listed already (its lists are then compacted at the batch's end).
    mutating func enqueue(_ id: OperationID, again: Bool) {
        guard let (state, queue, priority) = operations.withRecord(id, { ($0.pointee.state, $0.pointee.queue, $0.pointee.effectivePriority) }),
              state < .executing, let queue, stream.queues.contains(queue) else { return }
        if !queueFacts.contains(queue) {
            queueFacts[queue] = QueueFacts(id: queue, throughputSeconds: configuration.throughputWindowSeconds)
        }
        queueFacts.update(queue) { facts in
            facts.startLists[priority.schedulingIndex].append(id)
            if again { facts.mayHoldRepeats = true }
        }
    }

    /// Changes a queue's facts in place with the operations at hand. Static, so that the facts
    /// (changed) and the operations (read) are two separate parts of the model: a closure over
    /// `self` would need a copy of the table (a retain and release of its storage per event).
    static func updateFacts(_ facts: inout RecordTable<QueueFacts>, of queue: QueueID, _ table: borrowing OperationTable,
                            _ body: (inout QueueFacts, borrowing OperationTable) -> Void) {
        facts.update(queue) { body(&$0, table) }
    }

    /// Drops started, finished and moved entries from the fronts of a queue's lists.
    static func dequeueFront(_ facts: inout QueueFacts, _ table: borrowing OperationTable) {
        let queue = facts.id
        for index in facts.startLists.indices {
            while let first = facts.startLists[index].first, !isLive(first, in: queue, list: index, table) {
                facts.startLists[index].removeFirst()
            }
        }
    }

    /// True while `id` belongs at this place of the queue's start lists.
    func isLive(_ id: OperationID, in queue: QueueID, list index: Int) -> Bool {
        Self.isLive(id, in: queue, list: index, operations)
    }

    static func isLive(_ id: OperationID, in queue: QueueID, list index: Int, _ table: borrowing OperationTable) -> Bool {
        guard let (state, owner, priority) = table.withRecord(id, { ($0.pointee.state, $0.pointee.queue, $0.pointee.effectivePriority) })
        else { return false }
        return state < .executing && owner == queue && priority.schedulingIndex == index
    }

    /// Rewrites the lists of queues that may name an operation twice: each live operation keeps
    /// its first place.
    mutating func compactStartLists() {
        for id in queueFacts.ids where queueFacts.read(id, { $0.mayHoldRepeats }) == true {
            let lists = queueFacts.read(id, { $0.startLists })!
            var seen: Set<OperationID> = []
            let compacted = lists.enumerated().map { index, list in
                Deque(list.filter { isLive($0, in: id, list: index) && seen.insert($0).inserted })
            }
            queueFacts[id]!.startLists = compacted
            queueFacts[id]!.mayHoldRepeats = false
        }
    }

    /// Start lists of every queue rebuilt from the unstarted operations, in add order.
    mutating func rebuildStartLists() {
        var unstarted: [(UInt64, OperationID)] = []
        operations.forEach { record in
            if record.pointee.state < .executing, record.pointee.queue != nil {
                unstarted.append((record.pointee.enqueueOrder, record.pointee.id))
            }
        }
        for id in queueFacts.ids {
            queueFacts[id]!.startLists = Array(repeating: [], count: OperationPriority.schedulingOrder.count)
            queueFacts[id]!.mayHoldRepeats = false
        }
        for (_, id) in unstarted.sorted(by: { $0.0 < $1.0 }) { enqueue(id, again: false) }
    }
}
