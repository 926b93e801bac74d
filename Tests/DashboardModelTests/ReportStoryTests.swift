import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// The report made at the end of a run, from a keyframe of the monitor's history (what
/// `OpScopeDashboard.report(monitor)` starts from): every operation with its final state and
/// times, every warning, the wait and run percentiles per queue, and how much was trimmed.
@Suite("Model: the report tells the whole story")
struct ReportStoryTests {
    /// A run with everything the lints look for: 30 short operations (with the two of the
    /// cross-queue chain, 22 finished operations beyond the history's retention of 10), an asynchronous operation that never finishes, one that
    /// forgot its finish notification, a cycle, a dependency never enqueued, a suspended queue
    /// holding work, and a chain across queues through a queue since released.
    static func run() -> EventScript {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "paused", suspended: true)
        script.queue(3, "temp")
        for id in 1...30 {
            script.add(id, queue: 1, "fetch\(id)")
            script.start(id, after: UInt64(id) * 1_000_000)
            script.finish(id, after: 2_000_000)
        }
        script.add(31, queue: 1, "stuck-async", async: true)
        script.start(31)
        script.add(32, queue: 1, "forgetful", async: true)
        script.start(32)
        script.emit(.unsignalledFinish(operation: 32), source: .sampled)
        script.add(33, queue: 1, "a", after: [34])
        script.add(34, queue: 1, "b", after: [33])
        script.add(35, queue: nil, "orphan")
        script.add(36, queue: 1, "needs-orphan", after: [35])
        script.add(37, queue: 2, "held")
        script.add(38, queue: 3, "produce")
        script.run(38)
        script.add(39, queue: 1, "consume", after: [38])
        script.ready(39)
        script.run(39)
        script.emit(.queueReleased(queue: QueueID(3)))
        return script
    }

    static func history(_ script: EventScript, keep: Int) throws -> StreamState {
        var history = StreamState(retention: StreamRetention(maximumFinished: keep))
        for event in script.events { history.apply(event) }
        // As a keyframe travels: through its coding.
        return try JSONDecoder().decode(StreamState.self, from: try JSONEncoder().encode(history))
    }

    @Test("from the history's keyframe: every retained operation with state and times, every warning, the trimmed count")
    func wholeStory() throws {
        let script = Self.run()
        var model = DashboardModel(configuration: .report)
        model.apply(EventBatch(start: .keyframe(try Self.history(script, keep: 10)), events: [], droppedTotal: 0))
        let end = script.time + 60_000_000_000
        let report = model.report(now: end)

        #expect(report.trimmed == 22, "the history kept 10 of the 32 finished operations")
        let net = try #require(report.queues.first { $0.id == QueueID(1) })
        #expect(net.finished == 31 && net.trimmed == 22 && !net.released)
        #expect(report.operations.map(\.id.rawValue) == Array(23...39))
        let consume = try #require(report.operations.first { $0.id == 39 })
        #expect(consume.state == .finished && consume.addedAt < consume.readyAt! && consume.readyAt! < consume.startedAt!
            && consume.startedAt! < consume.finishedAt! && consume.finishInferred == nil && consume.firstSeenLate == nil)
        #expect(report.operations.first { $0.id == 31 }.map { $0.state == .executing && $0.finishedAt == nil } == true)
        let temp = try #require(report.queues.first { $0.id == QueueID(3) })
        #expect(temp.released && temp.finished == 1)

        let kinds = Set(report.warnings.map(\.kind))
        for kind: Warning.Kind in [.cycle, .suspendedQueueWithWork, .longRunningAsynchronous, .unsignalledFinish, .dependencyNeverEnqueued] {
            #expect(kinds.contains(kind), "missing \(kind) in \(report.warnings.map(\.kind))")
        }
        #expect(report.warnings.first { $0.kind == .longRunningAsynchronous }?.operation == 31)
        #expect(report.warnings.first { $0.kind == .dependencyNeverEnqueued }?.operation == 35)
        #expect(report.warnings.first { $0.kind == .suspendedQueueWithWork }?.queue == QueueID(2))
        #expect(report.cycles == [[33, 34, 33]])
        #expect(report.hasProblem)
        #expect(Set(report.diagnoses.map(\.operation)) == [33, 34, 35, 36, 37])
        #expect(report.diagnoses.first { $0.operation == 36 }?.rootCause == 35)

        // The same run watched from its start, with a model that keeps everything, tells the
        // same operations' story (the statistics differ: a keyframe holds only what it kept).
        var whole = DashboardModel(configuration: .report)
        whole.apply(EventBatch(events: script.events, droppedTotal: 0))
        let full = whole.report(now: end)
        #expect(full.trimmed == 0 && full.operations.count == 39)
        #expect(Array(full.operations.suffix(17)) == report.operations)
        #expect(full.warnings == report.warnings && full.diagnoses == report.diagnoses)
    }

    @Test("wait and run p50/p90/p99 per queue, in nanoseconds, in the JSON")
    func percentiles() throws {
        let script = Self.run()
        var model = DashboardModel(configuration: .report)
        model.apply(EventBatch(events: script.events, droppedTotal: 0))
        let report = model.report()
        let net = try #require(report.queues.first { $0.id == QueueID(1) })
        // Waits: #1 ... #30 1 ms ... 30 ms, #31 and #32 1 ms, #39 2 ms (33 values: the 17th is
        // 14 ms, the 30th 27 ms, the 33rd 30 ms). Runs: #1 ... #30 2 ms, #39 1 ms.
        #expect(net.wait.count == 33 && net.run.count == 31)
        #expect(abs(Double(net.wait.p50) - 14e6) / 14e6 < 0.02, "p50 \(net.wait.p50)")
        #expect(abs(Double(net.wait.p90) - 27e6) / 27e6 < 0.02, "p90 \(net.wait.p90)")
        #expect(abs(Double(net.wait.p99) - 30e6) / 30e6 < 0.02, "p99 \(net.wait.p99)")
        #expect(abs(Double(net.run.p50) - 2e6) / 2e6 < 0.02 && abs(Double(net.run.p99) - 2e6) / 2e6 < 0.02)
        let paused = try #require(report.queues.first { $0.id == QueueID(2) })
        #expect(paused.wait.count == 0 && paused.wait.p50 == 0)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(report), encoding: .utf8))
        #expect(json.contains("\"run\":{\"count\":31,\"p50\":"), "\(json.prefix(400))")
        #expect(json.contains("\"wait\":{\"count\":33,\"p50\":"))
        #expect(try JSONDecoder().decode(OpScopeReport.self, from: Data(json.utf8)) == report)
    }
}
