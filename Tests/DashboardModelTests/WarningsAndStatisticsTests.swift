import DashboardModel
import OpScopeTestSupport
import Foundation
import OperationEvents
import Testing

@Suite("Model: warnings, statistics and the JSON report")
struct WarningsAndStatisticsTests {
    @Test("warnings: long asynchronous work, unsignalled finish, cancelled still executing, dropped events")
    func warnings() throws {
        // Executing too long is flagged whatever isAsynchronous says, in words for each case.
        var configuration = ModelConfiguration()
        configuration.longExecution = 5_000_000_000
        configuration.cancelledStillExecuting = 1_000_000_000
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "slow", async: true)
        script.start(1)
        script.add(2, queue: 1, "forgetful", async: true)
        script.start(2)
        script.emit(.unsignalledFinish(operation: 2), source: .sampled)
        script.add(3, queue: 1, "stubborn")
        script.start(3)
        script.cancel(3)
        var model = DashboardModel(configuration: configuration)
        model.apply(EventBatch(events: script.events, droppedTotal: 3))
        #expect(model.warnings().map(\.kind) == [.droppedEvents, .unsignalledFinish])
        model.advance(to: script.time + 6_000_000_000)
        let warnings = model.warnings()
        // Whole-program warnings first, then per operation in id order.
        #expect(warnings.map(\.kind) == [.droppedEvents, .longRunningAsynchronous, .unsignalledFinish,
                                         .longRunningAsynchronous, .longRunningSynchronous, .cancelledStillExecuting])
        #expect(warnings.map(\.operation) == [nil, 1, 2, 2, 3, 3])
        let blocked = try #require(warnings.first { $0.kind == .longRunningSynchronous })
        #expect(blocked.message == "#3 stubborn has been executing for 6.0 s: main() has not returned (or, if it overrides "
            + "start(), it has not finished): is it blocked on a lock, a semaphore, a synchronous wait?", "\(blocked.message)")
        let slow = try #require(warnings.first { $0.kind == .longRunningAsynchronous })
        #expect(slow.operation == 1)
        #expect(slow.message == "#1 slow (asynchronous) has been executing for 6.0 s: does its work ever call finish()?")
    }

    @Test("statistics: wait and run percentiles per queue and per QoS, throughput per second")
    func statistics() throws {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...100 {
            script.add(id, queue: 1, "op", qos: .utility)
            script.start(id, after: UInt64(id) * 1_000_000)    // waits 1 ms ... 100 ms
            script.finish(id, after: 2_000_000)                 // runs 2 ms
        }
        let model = script.model()
        let queue = try #require(model.queues[QueueID(1)])
        let wait = queue.latency.wait
        #expect(wait.count == 100)
        #expect(abs(Double(wait.p50) - 50e6) / 50e6 < 0.03, "p50 \(wait.p50)")
        #expect(abs(Double(wait.p90) - 90e6) / 90e6 < 0.03, "p90 \(wait.p90)")
        #expect(abs(Double(wait.p99) - 99e6) / 99e6 < 0.03, "p99 \(wait.p99)")
        let run = try #require(model.latencyByQoS[.utility]).run
        #expect(run.count == 100 && abs(Double(run.p50) - 2e6) / 2e6 < 0.03)
        // 100 finishes spread over about 5.3 s: about 19 per second over the window.
        let rate = queue.throughput.perSecond(now: script.time + 1_000_000_000)
        #expect(rate > 12 && rate < 25, "\(rate)")
    }

    @Test("the JSON report has the documented fields")
    func report() throws {
        var script = EventScript()
        script.queue(1, "net", max: 2, suspended: true)
        script.add(1, queue: 1, "download", qos: .utility, async: true)
        script.add(2, queue: 1, "parse", after: [1], priority: .high)
        let report = script.model().report()
        #expect(!report.hasProblem)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(report), encoding: .utf8))
        for key in ["\"queues\"", "\"operations\"", "\"cycles\"", "\"diagnoses\"", "\"warnings\"", "\"droppedEvents\"",
                    "\"suspended\":true", "\"maxConcurrent\":2", "\"executing\":0", "\"pending\":2",
                    "\"state\":\"pending\"", "\"effectivePriority\":\"high\"", "\"qos\":\"utility\"",
                    "\"dependencies\":[1]", "\"asynchronous\":true", "\"rootCause\":1", "\"kind\":\"waitingOnDependencies\"",
                    "\"next\":1", "\"chainLength\":2", "\"trimmed\":0", "\"cancelled\":0", "\"released\":false",
                    "\"wait\":{\"count\":0,", "\"run\":{\"count\":0,", "\"addedAt\":", "\"kind\":\"suspendedQueueWithWork\""] {
            #expect(json.contains(key), "missing \(key) in \(json)")
        }
        if ProcessInfo.processInfo.environment["OPSCOPE_PRINT_REPORT"] != nil { print(json) }
        let decoded = try JSONDecoder().decode(OpScopeReport.self, from: Data(json.utf8))
        #expect(decoded == report)
    }

    @Test("durations read like people write them")
    func durations() {
        #expect([999, 12_000, 340_000_000, 2_140_000_000, 34_000_000_000, 600_000_000_000, 10_800_000_000_000]
            .map { DurationText.format(UInt64($0)) } == ["999 ns", "12 µs", "340 ms", "2.1 s", "34 s", "10 min", "3 h"])
    }
}
