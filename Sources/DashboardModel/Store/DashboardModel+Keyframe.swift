import OperationEvents

extension DashboardModel {
    /// Starts over from a keyframe (a late start, a seek, an attach, a resynchronisation): the
    /// stream state is adopted (with this model's retention) and everything derived is rebuilt
    /// from it. Events from `keyframe.nextSequence` on follow.
    public mutating func load(_ keyframe: StreamState) {
        stream.adopt(keyframe)
        if stream.time > now { now = stream.time }
        rebuildDerivedFacts()
        stateVersion &+= 1
        structureVersion &+= 1
    }

    /// Reconciles the state with a live snapshot after events were lost: the stream state takes
    /// the corrections that make it agree (finished history is kept; unfinished operations the
    /// snapshot no longer lists finished while events were lost), and the derived facts follow
    /// them. Events with a sequence below the snapshot's are ignored from now on.
    public mutating func resync(from snapshot: MonitorSnapshot) {
        if snapshot.time > now { now = snapshot.time }
        // Each correction is followed at once: the derived facts see the state it left.
        for event in stream.prepareCatchUp(to: snapshot) {
            react(to: stream.apply(event.change, time: event.time, origin: event.origin), time: event.time)
        }
        stream.finishCatchUp(at: snapshot)
        stateVersion &+= 1
        structureVersion &+= 1
        finishBatch()
    }

    /// Levels, start lists, cycles and statistics computed afresh from the stream state. The
    /// latency histograms and throughput can only use what is retained: the times of the
    /// operations the keyframe holds.
    mutating func rebuildDerivedFacts() {
        queueFacts = RecordTable()
        latencyByQoSSlots = [LatencyStatistics](repeating: LatencyStatistics(), count: QoSClass.allCases.count)
        latencyByQoSPresent = 0
        for id in stream.queues.ids {
            queueFacts[id] = QueueFacts(id: id, throughputSeconds: configuration.throughputWindowSeconds)
        }
        var finishes: [(UInt64, QueueID)] = []
        var samples: [(queue: QueueID?, qos: QoSClass, wait: UInt64?, run: UInt64?)] = []
        operations.forEach { record in
            let (addedAt, startedAt, finishedAt) = (record.pointee.addedAt, record.pointee.startedAt, record.pointee.finishedAt)
            // Only what was seen: the wait of an operation seen late, or the run of one seen
            // already executing, is not known.
            let wait = record.pointee.firstSeenLate ? nil : startedAt.map { $0 >= addedAt ? $0 - addedAt : 0 }
            var run: UInt64?
            if let startedAt = record.pointee.knownStart, let finishedAt { run = finishedAt >= startedAt ? finishedAt - startedAt : 0 }
            samples.append((record.pointee.queue, record.pointee.qualityOfService, wait, run))
            if let finishedAt, let queue = record.pointee.queue { finishes.append((finishedAt, queue)) }
        }
        for sample in samples {
            if let wait = sample.wait {
                if let queue = sample.queue, queueFacts.contains(queue) { queueFacts[queue]!.latency.recordWait(nanoseconds: wait) }
                recordLatency(sample.qos) { $0.recordWait(nanoseconds: wait) }
            }
            if let run = sample.run {
                if let queue = sample.queue, queueFacts.contains(queue) { queueFacts[queue]!.latency.recordRun(nanoseconds: run) }
                recordLatency(sample.qos) { $0.recordRun(nanoseconds: run) }
            }
        }
        for (time, queue) in finishes.sorted(by: { $0.0 < $1.0 }) where queueFacts.contains(queue) {
            queueFacts[queue]!.throughput.record(at: time)
        }
        rebuildStartLists()
        refreshBlockers()
        cycles = []
        cycleMembers = []
        cycleIndex = [:]
        loopMembers = []
        cyclesDirty = true
        loopsDirty = true
        levelsDirty = true
    }
}
