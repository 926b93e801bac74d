import Foundation
import OpScope
import Testing
import OpScopeTestSupport

/// What a consumer that starts late gets from the monitor's history.
@Suite("History for late consumers", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct HistoryTests {
    @Test("an operation that finished before the dashboard subscribed is in its first keyframe, with its times and what was observed")
    func finishedBeforeTheDashboard() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let queue = ObservedOperationQueue(monitor: monitor, name: "early")
        let early = ObservableBlockOperation {}
        queue.addOperation(early)
        queue.waitUntilAllOperationsAreFinished()
        let id = try #require(early.monitorID)
        clock.advance(seconds: 5)

        // The dashboard opens now: its first batch brings the past.
        var ingest = EventIngest(source: monitor, configuration: ModelConfiguration())
        _ = ingest.ingest()
        let record = try #require(ingest.model[id], "the operation that finished first is missing")
        #expect(record.state == .finished)
        let started = try #require(record.startedAt)
        let finished = try #require(record.finishedAt)
        #expect(record.addedAt <= started && started <= finished)
        #expect(!record.finishWasInferred)
        // Its key history is what was observed, exactly, in order: no change invented by a snapshot.
        let history = record.history
        #expect(history.allSatisfy { $0.origin == .exact }, "\(history)")
        #expect(history.map(\.time) == history.map(\.time).sorted())
        #expect(history.contains { $0.key == .isExecuting && $0.value } && history.contains { $0.key == .isFinished && $0.value })
        #expect(ingest.model.queues.values.first?.finished == 1)
    }

    @Test("when the history's retention trimmed operations, the report says how many finished in all")
    func trimmedHistory() {
        let monitor = OperationMonitor(configuration: {
            var configuration = OperationMonitor.Configuration()
            configuration.history = StreamRetention(maximumFinished: 10)
            return configuration
        }())
        let queue = ObservedOperationQueue(monitor: monitor, name: "many")
        queue.addOperations((0..<50).map { _ in BlockOperation {} }, waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        let report = OpScopeDashboard.report(monitor)
        #expect(report.operations.count == 10, "the retained ones")
        #expect(report.queues.first?.finished == 50, "all that finished, the trimmed ones counted")
        let text = ReportText.render(report)
        #expect(text.contains("finished 50") && text.contains("Operations: 10 retained"), "\(text)")
    }

    @Test("cancelling an operation that belongs to no queue says what is true")
    func cancelOutsideAnyQueue() throws {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let outside = ObservableBlockOperation {}
        let dependent = BlockOperation {}
        dependent.addDependency(outside)
        queue.addOperation(dependent)
        let id = try #require(outside.monitorID)
        let receipt = try monitor.perform(.cancel(operations: [id])).get()
        #expect(receipt.message == "cancelled \(id); \(id) is not in any queue: only the app can start it")
        #expect(outside.isCancelled)
        // It is cancelled, not finished: the report still shows it waiting for the app to start it.
        let report = OpScopeDashboard.report(monitor)
        let shown = try #require(report.operations.first { $0.id == id })
        #expect(shown.cancelled && shown.state != .finished)
        outside.start()
        queue.waitUntilAllOperationsAreFinished()
    }
}
