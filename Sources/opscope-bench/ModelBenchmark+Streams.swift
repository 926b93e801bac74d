import DashboardModel
import Foundation
import HeapStatistics
import OperationEvents

/// The event streams the model benchmark reduces, and its memory measurements.
extension ModelBenchmark {
    /// The events of `operations` operations on four queues: added (a third with a dependency on
    /// an earlier one), ready, started, finished; about four events per operation.
    static func eventStream(operations: Int) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        events.reserveCapacity(operations * 4 + 8)
        var sequence: UInt64 = 0
        var time: UInt64 = 1_000_000_000
        func emit(_ change: MonitorEvent.Change) {
            time += 500
            events.append(MonitorEvent(sequence: sequence, time: time, change: change))
            sequence += 1
        }
        for queue in 1...4 { emit(.queueAppeared(QueueInfo(id: QueueID(queue), name: "queue \(queue)", maxConcurrentOperationCount: 4))) }
        for index in 0..<operations {
            let id = OperationID(index + 1)
            let dependency = index % 3 == 2 ? [OperationID(index)] : []
            emit(.operationAdded(OperationInfo(id: id, queue: QueueID(index % 4 + 1), name: nil, typeName: "BlockOperation",
                                               dependencies: dependency, isReady: dependency.isEmpty)))
            if !dependency.isEmpty { emit(.ready(operation: id, isReady: true)) }
            emit(.started(operation: id))
            emit(.finished(operation: id, cancelled: false))
        }
        return events
    }

    /// The events of `count` operations announced and left unfinished (a third waiting on the
    /// one before, the rest ready) on four queues.
    static func liveStream(operations count: Int) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for queue in 1...4 {
            events.append(MonitorEvent(sequence: UInt64(events.count), time: 1_000,
                                       change: .queueAppeared(QueueInfo(id: QueueID(queue), name: "queue \(queue)", maxConcurrentOperationCount: 4))))
        }
        for index in 0..<count {
            let dependency = index % 3 == 2 ? [OperationID(index)] : []
            let info = OperationInfo(id: OperationID(index + 1), queue: QueueID(index % 4 + 1), name: nil, typeName: "BlockOperation",
                                     dependencies: dependency, isReady: dependency.isEmpty)
            events.append(MonitorEvent(sequence: UInt64(events.count), time: UInt64(2_000 + index), change: .operationAdded(info)))
        }
        return events
    }

    /// The size of a keyframe holding `count` finished operations, and the medians of the times
    /// to write and read it (JSON, as a recording or a socket carries it).
    static func keyframeCost(count: Int, repetitions: Int) -> (bytesPerOperation: Double, encode: Double, decode: Double) {
        var state = StreamState(retention: StreamRetention(maximumFinished: count))
        for event in eventStream(operations: count) { state.apply(event) }
        var data = Data()
        var encodeTimes: [Double] = []
        var decodeTimes: [Double] = []
        for _ in 0..<repetitions {
            var start = DispatchTime.now().uptimeNanoseconds
            data = (try? JSONEncoder().encode(state)) ?? Data()
            encodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            start = DispatchTime.now().uptimeNanoseconds
            let decoded = try? JSONDecoder().decode(StreamState.self, from: data)
            decodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            precondition(decoded == state, "a keyframe must read back equal")
        }
        return (Double(data.count) / Double(count), Statistics.median(encodeTimes), Statistics.median(decodeTimes))
    }

    /// Heap bytes per finished operation while `count` are retained (glibc's allocator statistics).
    static func bytesPerRetainedFinished(count: Int) -> Double {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = count
        configuration.finishedRetention = .max / 2
        let events = eventStream(operations: count)
        let (bytes, model) = heapBytes { () -> DashboardModel in
            var model = DashboardModel(configuration: configuration)
            model.apply(EventBatch(events: events, droppedTotal: 0))
            return model
        }
        precondition(model.retainedFinished == count)
        withExtendedLifetime(events) {}
        return Double(bytes) / Double(count)
    }

    /// Heap bytes per unfinished operation while `count` are held.
    static func bytesPerLiveOperation(count: Int) -> Double {
        let events = liveStream(operations: count)
        let (bytes, model) = heapBytes { () -> DashboardModel in
            var model = DashboardModel()
            model.apply(EventBatch(events: events, droppedTotal: 0))
            return model
        }
        precondition(model.operations.count == count)
        withExtendedLifetime(events) {}
        return Double(bytes) / Double(count)
    }

    /// Heap bytes a model with the default configuration holds after reducing `operations`.
    static func defaultRetentionBytes(operations: Int) -> Int {
        let events = eventStream(operations: operations)
        let batches = stride(from: 0, to: events.count, by: 4_096).map {
            EventBatch(events: Array(events[$0..<min($0 + 4_096, events.count)]), droppedTotal: 0)
        }
        let (bytes, model) = heapBytes { () -> DashboardModel in
            var model = DashboardModel()
            for batch in batches { model.apply(batch) }
            return model
        }
        precondition(model.retainedFinished == ModelConfiguration().maximumRetainedFinished)
        withExtendedLifetime(batches) {}
        return bytes
    }

    /// The heap bytes `make`'s result holds: the allocator's bytes in use after it, less before.
    static func heapBytes<T>(_ make: () -> T) -> (Int, T) {
        let before = opscope_heap_bytes_in_use()
        let value = make()
        let after = opscope_heap_bytes_in_use()
        // The value stays alive until `after` was read: Swift may free a value after its last use.
        return (Int(after) - Int(before), value)
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
