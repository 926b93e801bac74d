import OperationEvents

extension DashboardModel {
    /// Rebuilds the live state from a snapshot after events were lost. Finished history is kept;
    /// unfinished operations the snapshot no longer lists finished while events were lost.
    /// Events with a sequence below the snapshot's are ignored from now on.
    public mutating func resync(from snapshot: MonitorSnapshot) {
        sequenceFloor = snapshot.sequence
        droppedEvents = max(droppedEvents, snapshot.droppedEvents)
        if snapshot.time > now { now = snapshot.time }
        let time = snapshot.time

        let liveQueues = Set(snapshot.queues.map(\.id))
        for info in snapshot.queues {
            if queues[info.id] != nil {
                queues[info.id]!.apply(info)
            } else {
                queues[info.id] = QueueRecord(info: info, throughputSeconds: configuration.throughputWindowSeconds)
            }
        }
        for id in queues.ids where !liveQueues.contains(id) { queues[id]!.isReleased = true }

        let listed = Set(snapshot.operations.map(\.id))
        let vanished = operations.values.filter { $0.state != .finished && !listed.contains($0.id) }
        for record in vanished {
            markFinished(record.id, cancelled: record.isCancelled, time: time, source: .inferred)
        }
        for info in snapshot.operations {
            enqueueCounter &+= 1
            if operations[info.id] == nil {
                add(info, time: time, order: snapshot.sequence &+ enqueueCounter, source: .sampled)
            } else {
                add(info, time: time, order: 0, source: .sampled)
                let target: OperationState = info.isExecuting ? .executing : (info.isReady ? .ready : .pending)
                switch target {
                case .executing: markStarted(info.id, time: time, source: .inferred)
                case .ready, .pending: markReady(info.id, info.isReady, time: time, source: .inferred)
                case .finished: break
                }
                if info.isCancelled { markCancelled(info.id, time: time, source: .inferred) }
            }
        }
        stateVersion &+= 1
        structureVersion &+= 1
        cyclesDirty = true
        finishBatch()
    }
}
