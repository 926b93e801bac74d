import Foundation
import OpScope
import Synchronization
import Testing

/// Several consumers on one monitor: a dashboard and reports do not take events from each other,
/// and a gap in a stream is noticed and repaired.
@Suite("Consumers sharing a monitor", .serialized, .timeLimit(.minutes(5)))
@MainActor
struct SharedMonitorTests {
    /// An ingest running on a thread of its own, as a dashboard does, until told to stop.
    final class DashboardLoop: @unchecked Sendable {
        // Safety: `ingest` is used by the loop's thread alone until `stop()` has returned.
        private var ingest: EventIngest
        private let stopping = Atomic<Bool>(false)
        private let stopped = Gate()

        init(source: any EventSource) {
            ingest = EventIngest(source: source, configuration: ModelConfiguration(), consumer: "dashboard")
        }

        func start() {
            Thread { [self] in
                while !stopping.load(ordering: .acquiring) {
                    if !ingest.ingest() { usleep(500) }
                }
                // Everything produced before the stop is taken now.
                while ingest.ingest() {}
                stopped.open()
            }.start()
        }

        /// Stops the loop and returns the model it built.
        func stop() -> DashboardModel {
            stopping.store(true, ordering: .releasing)
            stopped.wait()
            return ingest.model
        }
    }

    @Test("a dashboard and repeated reports from another thread, 8 threads × 5,000 operations (1,250 under a sanitizer): the dashboard ends as it would alone")
    func dashboardAndReports() {
        // A sanitizer sees the same interleavings and the same memory in a quarter of the work;
        // at full size the test took two minutes of the ThreadSanitizer run and half a minute of
        // the AddressSanitizer one (the plain run keeps the 8 × 5,000).
        let sanitized = dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil
        let perThread = sanitized ? 1_250 : 5_000
        let monitor = OperationMonitor()
        let dashboard = DashboardLoop(source: monitor)
        dashboard.start()
        let queues = (0..<8).map { ObservedOperationQueue(monitor: monitor, name: "q\($0)") }
        let producers = DispatchGroup()
        for (index, queue) in queues.enumerated() {
            DispatchQueue.global().async(group: producers) {
                for item in 0..<perThread {
                    // Blocks (instrumented) and plain operations (hooked), some with a dependency.
                    if item % 2 == 0 {
                        queue.addOperation {}
                    } else {
                        let operation = BlockOperation {}
                        if item % 10 == 1, let last = queue.operations.last { operation.addDependency(last) }
                        queue.addOperation(operation)
                    }
                }
                _ = index
            }
        }
        let reports = Atomic<Int>(0)
        let reporter = Gate()
        DispatchQueue.global().async {
            for _ in 0..<5 {
                _ = OpScopeDashboard.report(monitor)
                reports.wrappingAdd(1, ordering: .relaxed)
            }
            reporter.open()
        }
        #expect(producers.wait(timeout: .now() + 240) == .success)
        for queue in queues { queue.waitUntilAllOperationsAreFinished() }
        #expect(reporter.wait(guard: 240))
        let model = dashboard.stop()

        #expect(reports.load(ordering: .relaxed) == 5)
        let unfinished = model.operations.values.filter { $0.state != .finished }
        #expect(unfinished.isEmpty, "\(unfinished.count) shown unfinished after every queue drained, e.g. \(unfinished.prefix(3).map(\.label))")
        for queue in model.queues.values {
            #expect(queue.finished == perThread && queue.executing == 0 && queue.waiting == 0,
                    "\(queue.name): finished \(queue.finished), executing \(queue.executing), waiting \(queue.waiting)")
        }
        // A report made now, alone, says the same.
        let alone = OpScopeDashboard.report(monitor)
        #expect(alone.queues.map(\.finished) == Array(repeating: perThread, count: 8))
        #expect(alone.operations.allSatisfy { $0.state == .finished })
        #expect(alone.queues.map(\.finished) == model.queues.values.sorted { $0.id < $1.id }.map(\.finished))
    }

    /// A source that passes a monitor's stream through but loses one event on the way, as a
    /// faulty transport would, and counts the consumer's requests for a fresh start.
    final class LossySource: EventSource, @unchecked Sendable {
        let monitor: OperationMonitor
        let lose: UInt64
        let resynchronizations = Atomic<Int>(0)

        init(_ monitor: OperationMonitor, losing sequence: UInt64) {
            self.monitor = monitor
            lose = sequence
        }

        var sourceInfo: SourceInfo { monitor.sourceInfo }
        var workTemplates: [WorkTemplateInfo] { monitor.workTemplates }
        func now() -> UInt64 { monitor.now() }
        func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { monitor.perform(command) }
        func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
            Lossy(inner: monitor.subscribe(request), source: self)
        }

        final class Lossy: EventSubscription, @unchecked Sendable {
            let inner: any EventSubscription
            let source: LossySource
            var consumer: String { inner.consumer }
            init(inner: any EventSubscription, source: LossySource) {
                self.inner = inner
                self.source = source
            }
            func next(limit: Int) -> EventBatch {
                var batch = inner.next(limit: limit)
                batch.events.removeAll { $0.sequence == source.lose }
                return batch
            }
            func resynchronize() {
                source.resynchronizations.wrappingAdd(1, ordering: .relaxed)
                inner.resynchronize()
            }
            func close() { inner.close() }
        }
    }

    @Test("a gap in the sequence numbers is detected and resynchronised, never silent")
    func gapDetected() throws {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let source = LossySource(monitor, losing: 5)
        var ingest = EventIngest(source: source, configuration: ModelConfiguration())
        _ = ingest.ingest()
        // The queue's appearance is in the keyframe; the work's events follow, one of them lost.
        let operations = (0..<10).map { index in
            let operation = BlockOperation {}
            operation.name = "op-\(index)"
            return operation
        }
        queue.addOperations(operations, waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        _ = ingest.ingest()
        #expect(source.resynchronizations.load(ordering: .relaxed) == 1, "the gap was noticed and a fresh start asked for")
        _ = ingest.ingest()
        #expect(ingest.model.stream.counters.sequenceGaps == 0, "the fresh start follows without a gap")
        #expect(ingest.model.operations.count == 10)
        #expect(ingest.model.operations.values.allSatisfy { $0.state == .finished }, "the fresh start repaired the state")
    }
}
