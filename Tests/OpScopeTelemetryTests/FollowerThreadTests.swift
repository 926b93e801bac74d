import Foundation
import OperationEvents
import OpScopeTelemetry
import OpScopeTestSupport
import Testing

/// The metrics thread yields the CPU to the program and a scrape does not wait on it forever.
@Suite("Telemetry: the consumer's thread")
struct FollowerThreadTests {
    @Test("the metrics thread runs at the configured nice value; the program's threads keep theirs")
    func niceness() throws {
        for niceness: Int32 in [19, 0] {
            let source = GatedSource()
            var configuration = MetricsConfiguration()
            configuration.reading.niceness = niceness
            let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            let metrics = OperationMetrics(source: source, factory: PrometheusExposition().factory, configuration: configuration)
            let seen = try #require(source.firstReadNiceness.wait(timeout: 60), "the metrics thread never read its subscription")
            source.open()
            metrics.stop()
            // 0: the thread is left as it was made, with its creator's value.
            #expect(seen == (niceness == 0 ? before : niceness))
            #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before, "the caller's thread was reniced")
        }
    }

    @Test("a sync with a deadline returns by then while the thread is held up, and true once it caught up")
    func syncDeadline() throws {
        let source = GatedSource()
        let metrics = OperationMetrics(source: source, factory: PrometheusExposition().factory)
        _ = try #require(source.firstReadNiceness.wait(timeout: 60), "the metrics thread never read its subscription")
        // The thread is inside its read, held by the gate: it cannot answer, however fast the machine.
        #expect(metrics.sync(deadline: Date(timeIntervalSinceNow: 0.05)) == false)
        source.open()
        #expect(metrics.sync(deadline: Date(timeIntervalSinceNow: 60)))
        metrics.stop()
    }
}

/// A source whose subscription's first read blocks until `open()`, reporting the reading thread's
/// nice value as it enters.
private final class GatedSource: EventSource, @unchecked Sendable {
    // Safety: `gate` is an NSCondition-guarded flag; `firstReadNiceness` is a one-shot value.
    let sourceInfo = SourceInfo(kind: .live, program: "test")
    let workTemplates: [WorkTemplateInfo] = []
    let firstReadNiceness = OneShot<Int32>()
    private let gate = NSCondition()
    private var isOpen = false

    func open() {
        gate.withLock {
            isOpen = true
            gate.broadcast()
        }
    }

    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription { Subscription(self) }
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { .failure(CommandError(.unsupported, "test")) }
    func now() -> UInt64 { 0 }

    fileprivate func read() {
        firstReadNiceness.set(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        gate.withLock {
            while !isOpen { gate.wait() }
        }
    }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        let consumer = "metrics"
        let source: GatedSource

        init(_ source: GatedSource) { self.source = source }

        func next(limit: Int) -> EventBatch {
            source.read()
            return EventBatch(events: [], droppedTotal: 0)
        }

        func resynchronize() {}
        func close() {}
    }
}

/// A value set once by one thread and awaited by another.
private final class OneShot<Value: Sendable>: @unchecked Sendable {
    // Safety: `value` is guarded by `condition`.
    private let condition = NSCondition()
    private var value: Value?

    func set(_ new: Value) {
        condition.withLock {
            if value == nil { value = new }
            condition.broadcast()
        }
    }

    /// The value, or nil if none came within `timeout` seconds (a hang fails the test, not CI).
    func wait(timeout: TimeInterval) -> Value? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while value == nil, condition.wait(until: deadline) {}
            return value
        }
    }
}
