import DashboardModel
import OpScopeTestSupport
import OperationEvents
import Testing

/// The lints about where work sits: a suspended queue holding work, and a dependency that was
/// never added to any queue (nothing will ever start it, so everything after it waits forever).
@Suite("Model: lints for a suspended queue with work and a dependency never enqueued")
struct LintTests {
    @Test("a suspended queue with waiting work: one warning per queue, naming the first it would start")
    func suspendedQueue() throws {
        var script = EventScript()
        script.queue(1, "paused", suspended: true)
        script.queue(2, "idle", suspended: true)
        script.queue(3, "running")
        script.add(1, queue: 1, "later", priority: .low)
        script.add(2, queue: 1, "sooner", priority: .high)
        script.add(3, queue: 1, "blocked", after: [1])
        script.add(4, queue: 3, "free")
        var model = script.model()
        let warnings = model.warnings()
        #expect(warnings.map(\.kind) == [.suspendedQueueWithWork], "an empty suspended queue is no problem")
        let warning = try #require(warnings.first)
        #expect(warning.queue == QueueID(1) && warning.operation == 2)
        #expect(warning.message == "queue q1 'paused' is suspended with 3 operations waiting (2 of them ready): none of them starts until it is resumed")
        #expect(!model.report().hasProblem, "suspending a queue is something programs do on purpose")

        var resumed = script
        resumed.emit(.queueSuspended(queue: QueueID(1), suspended: false))
        model = resumed.model()
        #expect(!model.warnings().contains { $0.kind == .suspendedQueueWithWork })
    }

    @Test("a dependency never added to any queue: warned once it outlived the grace, with who waits on it")
    func neverEnqueued() throws {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: nil, "forgotten")
        for id in 2...6 { script.add(id, queue: 1, "waiter\(id)", after: [1]) }
        script.add(7, queue: nil, "helper")
        var model = script.model()
        // An app may announce a dependency a moment before it enqueues it.
        #expect(!model.warnings().contains { $0.kind == .dependencyNeverEnqueued })
        model.advance(to: script.time + model.configuration.notReadyGrace + 1)
        let warnings = model.warnings()
        #expect(warnings.map(\.kind) == [.dependencyNeverEnqueued], "#7 has no dependents: not a dependency at all")
        let warning = try #require(warnings.first)
        #expect(warning.operation == 1)
        #expect(warning.message == "#1 forgotten was never added to an observed queue, yet #2 waiter2, #3 waiter3, #4 waiter4 and 2 more wait on it: nothing starts it unless the app does")
        #expect(model.report().hasProblem)

        // Once it is enqueued, or its dependents are cancelled, there is nothing to say.
        var enqueued = script
        enqueued.add(1, queue: 1, "forgotten")
        var later = enqueued.model()
        later.advance(to: enqueued.time + later.configuration.notReadyGrace + 1)
        #expect(!later.warnings().contains { $0.kind == .dependencyNeverEnqueued })
        var cancelled = script
        for id in 2...6 { cancelled.cancel(id) }
        var quiet = cancelled.model()
        quiet.advance(to: cancelled.time + quiet.configuration.notReadyGrace + 1)
        #expect(!quiet.warnings().contains { $0.kind == .dependencyNeverEnqueued })
    }
}
