import HeapStatistics
import DashboardModel
import DashboardUI
import Foundation
import OperationEvents

/// The model's targets (issue 18): layout time, incremental edit time, reduction rate, memory
/// per retained operation, the report of a deep chain; and the scaling curve of each at 1k, 10k
/// and 100k operations. Everything runs single-threaded; medians over several repetitions, wall
/// time with the thread's CPU time beside it.
struct ModelBenchmark {
    var repetitions = 9
    var parts = Self.allParts
    /// Operation counts of the scaling curve.
    var sizes = [1_000, 10_000, 100_000]

    static let allParts: Set<String> = ["layout", "edit", "reduce", "fold", "memory", "report"]

    func run() -> Int {
        var failures = 0
        print("OpScope model benchmark (release), medians of \(repetitions) repetitions; wall time (thread CPU time)")
        if parts.contains("layout") { failures += runLayout() }
        if parts.contains("edit") { failures += runEdit() }
        if parts.contains("reduce") || parts.contains("fold") { failures += runReduce() }
        if parts.contains("memory") { failures += runMemory() }
        if parts.contains("report") { failures += runReport() }
        print(failures == 0 ? "all targets met" : "\(failures) target(s) not met")
        return failures
    }

    /// Full layouts of random DAGs (the issue's 1k and 10k rows, then the curve) and of a chain.
    func runLayout() -> Int {
        var failures = 0
        var cases: [(String, LayoutGraph, Double?)] = [
            ("full layout, 1,000-node DAG", Self.randomDAG(nodes: 1_000, seed: 1), 2.5),
            ("full layout, 10,000-node DAG", Self.randomDAG(nodes: 10_000, seed: 2), 25),
        ]
        for size in sizes where size != 1_000 && size != 10_000 {
            cases.append(("full layout, \(Self.grouped(size))-node DAG", Self.randomDAG(nodes: size, seed: UInt64(size)), nil))
        }
        cases.append(("full layout, 10,000-node chain", Self.chain(nodes: 10_000), 50))
        for (title, graph, target) in cases {
            var layout = LayeredLayout()
            // Fewer repetitions for the largest graphs: each takes a good part of a second.
            let runs = graph.nodeCount > 20_000 ? max(3, repetitions / 3) : repetitions
            let times = (0..<runs).map { _ in Timing.measure { layout = LayeredLayout.compute(graph) } }
            let (wall, cpu) = (times.wallMedian * 1e3, times.cpuMedian * 1e3)
            let value = String(format: "%.2f ms (cpu %.2f ms) (%d nodes, %d edges, %d dummies, %d crossings, digest %016llx)",
                               wall, cpu, graph.nodeCount, graph.edgeCount, layout.dummyCount, layout.crossings, Self.digest(layout))
            if let target {
                failures += report(title, value, met: wall <= target, target: String(format: "<= %g ms", target))
            } else {
                print("  \(title): \(value)")
            }
            if title.contains("10,000-node DAG") {
                let labels = (0..<graph.nodeCount).map { "● #\($0) op" }
                let drawTimes = (0..<runs).map { _ in Timing.measure { _ = GraphDrawing.draw(layout, labels: labels) } }
                print(String(format: "  (drawing it into a character canvas: %.2f ms, cpu %.2f ms)", drawTimes.wallMedian * 1e3,
                             drawTimes.cpuMedian * 1e3))
            }
        }
        return failures
    }

    /// One incremental structural edit: insert a node with 1-2 dependencies into a 10k layout.
    func runEdit() -> Int {
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
        return report("incremental edit (insert a node into a 10k layout)",
                      String(format: "%.1f us median, p90 %.1f us", editMedian, Statistics.quantile(editTimes, 0.9) * 1e6),
                      met: editMedian <= 50, target: "<= 50 us")
    }

    /// Reduction rate: the issue's row (250,000 operations, 833,337 events), then the curve.
    /// Batches of 4,096 events, as the dashboard drains the bridge's buffer: retention runs once
    /// per batch, so the model holds what the default configuration retains.
    func runReduce() -> Int {
        var failures = 0
        for operations in [250_000] + sizes {
            let events = Self.eventStream(operations: operations)
            let batches = stride(from: 0, to: events.count, by: 4_096).map {
                EventBatch(events: Array(events[$0..<min($0 + 4_096, events.count)]), droppedTotal: 0)
            }
            // Small streams take microseconds: more repetitions, so the median is not one slice.
            let runs = operations < 10_000 ? repetitions * 10 : repetitions
            var times: [Timing] = []
            for _ in 0..<(parts.contains("reduce") ? runs : 0) {
                var model = DashboardModel()
                times.append(Timing.measure { for batch in batches { model.apply(batch) } })
                withExtendedLifetime(model) {}
            }
            let count = Double(events.count)
            let rate = times.isEmpty ? 0 : count / times.wallMedian
            // With `--only fold` the model's rate is not measured: only the stream's size is named.
            var value = times.isEmpty
                ? String(format: "%d events of %@ operations", events.count, Self.grouped(operations))
                : String(format: "%.2f M events/s (cpu %.2f M/s) (%d events of %@ operations in batches of 4,096)",
                         rate / 1e6, count / times.cpuMedian / 1e6, events.count, Self.grouped(operations))
            if parts.contains("fold") {
                // The fold alone, as the monitor's hub keeps its history: no derived facts.
                var streamTimes: [Timing] = []
                for _ in 0..<runs {
                    var state = StreamState()
                    streamTimes.append(Timing.measure { for event in events { state.apply(event) } })
                    withExtendedLifetime(state) {}
                }
                value += String(format: "; the stream state alone %.2f M/s (cpu %.2f M/s)", count / streamTimes.wallMedian / 1e6,
                                count / streamTimes.cpuMedian / 1e6)
            }
            if operations == 250_000, !times.isEmpty {
                failures += report("reducing events", value, met: rate >= 4e6, target: ">= 4 M/s")
            } else {
                print("  reducing events, \(Self.grouped(operations)) operations: \(value)")
            }
        }
        return failures
    }

    /// Memory per retained operation (finished, and live), and what the default retention holds.
    func runMemory() -> Int {
        var failures = 0
        for count in sizes {
            let bytes = Self.bytesPerRetainedFinished(count: count)
            let title = "memory per retained finished operation, \(Self.grouped(count)) retained"
            if count == 100_000 {
                failures += report(title, String(format: "%.0f bytes", bytes), met: bytes <= 300, target: "<= 300 bytes")
            } else {
                print("  \(title): \(String(format: "%.0f bytes", bytes))")
            }
        }
        for count in sizes {
            let bytes = Self.bytesPerLiveOperation(count: count)
            print(String(format: "  memory per live (unfinished) operation, %@ of them: %.0f bytes", Self.grouped(count), bytes))
        }
        let ceiling = Self.defaultRetentionBytes(operations: 250_000)
        print(String(format: "  default retention (5,000 finished kept) after 250,000 operations on 4 queues: %.2f MB in the model",
                     Double(ceiling) / 1e6))
        let keyframe = Self.keyframeCost(count: 100_000, repetitions: max(1, repetitions / 3))
        print(String(format: "  (a keyframe of 100,000 finished operations as JSON: %.0f bytes per operation, written in %.0f ms, read in %.0f ms)",
                     keyframe.bytesPerOperation, keyframe.encode * 1e3, keyframe.decode * 1e3))
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

    /// A fingerprint of a layout's layers (FNV-1a over every layer's node ids in order), so that
    /// two builds can be shown to draw the same layout.
    static func digest(_ layout: LayeredLayout) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for layer in layout.layers {
            for node in layer + [Int.min] {
                hash = (hash ^ UInt64(bitPattern: Int64(node))) &* 0x0000_0100_0000_01B3
            }
        }
        return hash
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
}

extension ModelBenchmark: PartedBenchmark {
    static let onlyHelp = "Only these parts (comma-separated: layout, edit, reduce, fold (the stream state alone), memory, report)."
}
