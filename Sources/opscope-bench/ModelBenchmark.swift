import HeapStatistics
import DashboardModel
import DashboardUI
import Foundation
import OperationEvents

/// The model's targets: layout time, incremental edit time, reduction rate, memory per retained
/// finished operation, the report of a deep chain. Everything runs single-threaded; medians over several repetitions.
struct ModelBenchmark {
    var repetitions = 9
    var parts = Self.allParts

    static let allParts: Set<String> = ["layout", "edit", "reduce", "memory", "report"]

    func run() -> Int {
        var failures = 0
        print("OpScope model benchmark (release), medians of \(repetitions) repetitions")

        for (title, graph, target) in !parts.contains("layout") ? [] : [
            ("full layout, 1,000-node DAG", Self.randomDAG(nodes: 1_000, seed: 1), 5.0),
            ("full layout, 10,000-node DAG", Self.randomDAG(nodes: 10_000, seed: 2), 50.0),
            ("full layout, 10,000-node chain", Self.chain(nodes: 10_000), 50.0),
        ] {
            var layout = LayeredLayout()
            let times = (0..<repetitions).map { _ in
                measure { layout = LayeredLayout.compute(graph) }
            }
            let median = Statistics.median(times) * 1e3
            failures += report(title, String(format: "%.2f ms (%d nodes, %d edges, %d dummies, %d crossings)",
                                             median, graph.nodeCount, graph.edgeCount, layout.dummyCount, layout.crossings),
                               met: median <= target, target: String(format: "<= %.0f ms", target))
            if title.contains("10,000-node DAG") {
                let drawTimes = (0..<repetitions).map { _ in
                    measure { _ = GraphDrawing.draw(layout, labels: (0..<graph.nodeCount).map { "● #\($0) op" }) }
                }
                print(String(format: "  (drawing it into a character canvas: %.2f ms)", Statistics.median(drawTimes) * 1e3))
            }
        }

        // One incremental structural edit: insert a node with 1-2 dependencies into a 10k layout.
        if parts.contains("edit") {
        let base = Self.randomDAG(nodes: 10_000, seed: 3)
        var layout = LayeredLayout.compute(base)
        var random = SplitMix64(seed: 4)
        var editTimes: [Double] = []
        for _ in 0..<2_000 {
            let count = layout.realCount
            let predecessors = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                count - 1 - Int.random(in: 0..<min(60, count), using: &random)
            }
            editTimes.append(measure { layout.insertNode(predecessors: Array(Set(predecessors))) })
        }
        let editMedian = Statistics.median(editTimes) * 1e6
        failures += report("incremental edit (insert a node into a 10k layout)",
                           String(format: "%.1f us median, p90 %.1f us", editMedian, Statistics.quantile(editTimes, 0.9) * 1e6),
                           met: editMedian <= 50, target: "<= 50 us")
        }

        // Reduction rate.
        if parts.contains("reduce") {
        // Batches of 4,096 events, as the dashboard drains the bridge's buffer: retention runs once
        // per batch, so the model holds what the default configuration retains.
        let events = Self.eventStream(operations: 250_000)
        let batches = stride(from: 0, to: events.count, by: 4_096).map {
            EventBatch(events: Array(events[$0..<min($0 + 4_096, events.count)]), droppedTotal: 0)
        }
        var rates: [Double] = []
        for _ in 0..<repetitions {
            var model = DashboardModel()
            let seconds = measure { for batch in batches { model.apply(batch) } }
            rates.append(Double(events.count) / seconds)
        }
        let rate = Statistics.median(rates)
        failures += report("reducing events", String(format: "%.2f M events/s (%d events in batches of 4,096)", rate / 1e6, events.count),
                           met: rate >= 2e6, target: ">= 2 M/s")
        // The fold alone, as the monitor's hub keeps its history: no derived facts.
        var streamRates: [Double] = []
        for _ in 0..<repetitions {
            var state = StreamState()
            let seconds = measure { for event in events { state.apply(event) } }
            streamRates.append(Double(events.count) / seconds)
        }
        print(String(format: "  (the stream state alone, as a hub folds it: %.2f M events/s)", Statistics.median(streamRates) / 1e6))
        }

        // Memory per retained finished operation.
        if parts.contains("memory") {
        let bytes = Self.bytesPerRetainedFinished(count: 100_000)
        failures += report("memory per retained finished operation", String(format: "%.0f bytes", bytes),
                           met: bytes <= 512, target: "<= 512 bytes")
        let keyframe = Self.keyframeCost(count: 100_000, repetitions: max(1, repetitions / 3))
        print(String(format: "  (a keyframe of them as JSON: %.0f bytes per operation, written in %.0f ms, read in %.0f ms)",
                     keyframe.bytesPerOperation, keyframe.encode * 1e3, keyframe.decode * 1e3))
        }
        if parts.contains("report") { failures += runReport() }
        print(failures == 0 ? "all targets met" : "\(failures) target(s) not met")
        return failures
    }

    func report(_ title: String, _ value: String, met: Bool, target: String) -> Int {
        print("  \(title): \(value)  [\(target): \(met ? "met" : "NOT MET")]")
        return met ? 0 : 1
    }

    func measure(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A random DAG shaped like real work: each node depends on one or two of the 60 nodes
    /// added just before it (pipelines, fan-in, fan-out, a few long edges).
    static func randomDAG(nodes: Int, seed: UInt64) -> LayoutGraph {
        var random = SplitMix64(seed: seed)
        var graph = LayoutGraph(nodeCount: nodes)
        for node in 1..<nodes {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                graph.addEdge(node - 1 - Int.random(in: 0..<min(60, node), using: &random), node)
            }
        }
        return graph
    }

    static func chain(nodes: Int) -> LayoutGraph {
        LayoutGraph(nodeCount: nodes, edges: (1..<nodes).map { ($0 - 1, $0) })
    }

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
        let before = opscope_heap_bytes_in_use()
        var model = DashboardModel(configuration: configuration)
        model.apply(EventBatch(events: events, droppedTotal: 0))
        let after = opscope_heap_bytes_in_use()
        precondition(model.retainedFinished == count)
        // Both stay alive until `after` was read: Swift may free a value after its last use.
        withExtendedLifetime(model) {}
        withExtendedLifetime(events) {}
        return Double(Int(after) - Int(before)) / Double(count)
    }
}
