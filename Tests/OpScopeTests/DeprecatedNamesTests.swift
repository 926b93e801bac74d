import Foundation
import OpScope
import Testing

/// The public names that were renamed keep working, deprecated, for code written against them:
/// `OperationMonitor.drainEvents(limit:)` (now a subscription per consumer) and
/// `MonitorEvent.source` (now `origin`).
@Suite("Deprecated names still work", .serialized, .timeLimit(.minutes(1)))
struct DeprecatedNamesTests {
    @available(*, deprecated)
    @Test("drainEvents(limit:) starts with a keyframe and goes on with the events, in limited batches")
    func drainEvents() {
        var configuration = OperationMonitor.Configuration()
        configuration.samplingInterval = .seconds(3_600)
        let monitor = OperationMonitor(configuration: configuration)
        let queue = ObservedOperationQueue(monitor: monitor, name: "old harness")
        queue.addOperations((0..<3).map { _ in BlockOperation {} }, waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()

        // Inside the package the package-internal method wins the overload; a function value of
        // the public form's type names the deprecated one, as code outside the package calls it.
        let drain: (Int?) -> EventBatch = monitor.drainEvents(limit:)
        let first = drain(nil)
        guard case .keyframe(let keyframe) = first.start else {
            Issue.record("the first batch does not start with a keyframe: \(String(describing: first.start))")
            return
        }
        #expect(keyframe[queue: queue.queueID]?.name == "old harness")

        queue.addOperations((0..<4).map { _ in BlockOperation {} }, waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        let limited = drain(2)
        #expect(limited.start == nil)
        #expect(limited.events.count == 2)
        // The finishes are reported from Foundation's finish path: read until all four came.
        var events = limited.events
        let deadline = ContinuousClock.now + .seconds(10)
        func finishes() -> Int { events.filter { if case .finished = $0.change { true } else { false } }.count }
        while finishes() < 4, ContinuousClock.now < deadline {
            let batch = drain(nil)
            #expect(batch.start == nil)
            events += batch.events
            if batch.events.isEmpty { Thread.sleep(forTimeInterval: 0.005) }
        }
        #expect(finishes() == 4)
        let sequences = events.map(\.sequence)
        #expect(sequences == Array(sequences[0]..<sequences[0] + UInt64(sequences.count)))
    }

    @available(*, deprecated)
    @Test("source reads and writes origin; the old initializer sets it")
    func source() {
        var event = MonitorEvent(sequence: 4, time: 10, source: .sampled, change: .started(operation: OperationID(1)))
        #expect(event.origin == .sampled)
        #expect(event.source == .sampled)
        event.source = .inferred
        #expect(event.origin == .inferred)
        #expect(event == MonitorEvent(sequence: 4, time: 10, origin: .inferred, change: .started(operation: OperationID(1))))
        #expect(MonitorEvent(time: 1, change: .started(operation: OperationID(2))).source == .exact)
    }
}
