import DashboardModel
import Foundation
import OperationEvents

/// The report of a deep chain: a suspended queue holding a chain in which each operation depends
/// on the one before, announced in either order. The report must grow linearly with the depth
/// (each diagnosis names its root, the chain's length and the next link) and take at most 2 s
/// and 1.25 KB per operation of JSON at 100,000 deep.
extension ModelBenchmark {
    static let reportDepths = [1_000, 10_000, 100_000]

    /// Runs the report part; returns the number of targets not met.
    func runReport() -> Int {
        var failures = 0
        var foundation: [Double] = []
        for depth in Self.reportDepths {
            for dependentsFirst in [false, true] {
                let events = Self.chainEvents(depth: depth, dependentsFirst: dependentsFirst)
                // Fewer repetitions at the largest depth: each takes seconds.
                let runs = depth >= 100_000 ? max(3, repetitions / 3) : repetitions
                var reduce: [Double] = []
                var make: [Double] = []
                var encode: [Double] = []
                var bytes = 0
                for _ in 0..<runs {
                    var model = DashboardModel(configuration: .report)
                    reduce.append(measure {
                        var start = 0
                        while start < events.count {
                            model.apply(EventBatch(events: Array(events[start..<min(events.count, start + 4_096)]), droppedTotal: 0))
                            start += 4_096
                        }
                    })
                    var report: OpScopeReport?
                    make.append(measure { report = model.report() })
                    var data: [UInt8] = []
                    encode.append(measure { data = report?.json() ?? [] })
                    precondition(report?.diagnoses.count == depth, "every link is diagnosed")
                    bytes = data.count
                    if depth == Self.reportDepths.last, !dependentsFirst, foundation.isEmpty, let report {
                        // Once, for comparison: the same text through Foundation's encoder.
                        foundation.append(measure { _ = try? Self.sortedEncoder.encode(report) })
                    }
                }
                let (reduceTime, makeTime, encodeTime) = (Statistics.median(reduce), Statistics.median(make), Statistics.median(encode))
                let perOperation = Double(bytes) / Double(depth)
                let title = "report of a \(Self.grouped(depth))-deep chain, \(dependentsFirst ? "dependents first" : "in order")"
                let value = String(format: "%.3f s (report() %.3f s + json() %.3f s; reducing the events first: %.3f s), %.0f bytes per operation",
                                   makeTime + encodeTime, makeTime, encodeTime, reduceTime, perOperation)
                if !foundation.isEmpty, depth == Self.reportDepths.last, !dependentsFirst {
                    print(String(format: "  (the same JSON through JSONEncoder with sorted keys: %.3f s)", foundation[0]))
                }
                if depth == 100_000 {
                    failures += report(title, value, met: makeTime + encodeTime <= 2 && perOperation <= 1_250,
                                       target: "<= 2 s and <= 1,250 bytes per operation")
                } else {
                    print("  \(title): \(value)")
                }
            }
        }
        return failures
    }

    /// A suspended queue and `depth` operations, each depending on the one before it.
    static func chainEvents(depth: Int, dependentsFirst: Bool) -> [MonitorEvent] {
        var events = [MonitorEvent(sequence: 0, time: 1_000,
                                   change: .queueAppeared(QueueInfo(id: QueueID(1), name: "chain", isSuspended: true)))]
        events.reserveCapacity(depth + 1)
        for id in dependentsFirst ? Array((1...depth).reversed()) : Array(1...depth) {
            let info = OperationInfo(id: OperationID(id), queue: QueueID(1), name: "link", typeName: "BlockOperation",
                                     dependencies: id == 1 ? [] : [OperationID(id - 1)], isReady: id == 1)
            events.append(MonitorEvent(sequence: UInt64(events.count), time: UInt64(1_000 + events.count), change: .operationAdded(info)))
        }
        return events
    }

    static var sortedEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
