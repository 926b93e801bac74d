import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// A ready operation its queue could start and does not: Foundation starts one within a moment
/// of it becoming ready or of a slot freeing, so after `readyNotStartedGrace` the queue does not
/// see it ready (an `isReady` that turned true without its KVO notification). Scripted streams:
/// the clock is the script's.
@Suite("Model: ready, a free slot, and not started")
struct ReadyNotStartedTests {
    private let second: UInt64 = 1_000_000_000

    /// A serial queue: #1 runs ten seconds while #2 waits ready behind it, then finishes.
    private func serialAfterALongRun() -> EventScript {
        var script = EventScript()
        script.queue(1, "serial", max: 1)
        script.add(1, queue: 1, "long")
        script.start(1)
        script.add(2, queue: 1, "next")
        script.finish(1, after: 10 * second)
        return script
    }

    @Test("ready with a free slot past the grace: diagnosed and warned, with what to check; before it, next to start")
    func pastTheGrace() throws {
        var script = EventScript()
        script.queue(1, "auth")
        script.add(1, queue: 1, "refresh-token", ready: false)
        script.ready(1)
        var model = script.model()
        let grace = model.configuration.readyNotStartedGrace
        #expect(model.diagnosis(of: 1)?.kind == .waitingForTurn)
        #expect(model.warnings().isEmpty)
        model.advance(to: script.time + grace - 1)
        #expect(model.diagnosis(of: 1)?.kind == .waitingForTurn, "still within the grace")
        model.advance(to: script.time + grace + second)
        let diagnosis = try #require(model.diagnosis(of: 1))
        #expect(diagnosis.kind == .readyNotStarted)
        #expect(diagnosis.rootCause == OperationID(1) && diagnosis.chainLength == 1)
        #expect(diagnosis.message.hasPrefix("#1 refresh-token is ready and queue q1 'auth' has a free slot, yet it has not started for 3.0 s"),
                "\(diagnosis.message)")
        #expect(diagnosis.message.contains("didChangeValue(forKey: \"isReady\")"))
        let warnings = model.warnings()
        #expect(warnings.map(\.kind) == [.readyNotStarted] && warnings.first?.operation == OperationID(1))
        #expect(model.report().hasProblem)
    }

    @Test("the grace counts from the queue's last chance to start it: a finish freeing a slot, a resume, a higher limit")
    func countsFromTheQueuesLastChance() throws {
        let script = serialAfterALongRun()
        var model = script.model()
        let grace = model.configuration.readyNotStartedGrace
        // Ready for ten seconds behind #1; the slot has been free only since its finish.
        #expect(model.diagnosis(of: 2)?.kind == .waitingForTurn)
        model.advance(to: script.time + grace + 1)
        #expect(model.diagnosis(of: 2)?.kind == .readyNotStarted)

        var suspended = EventScript()
        suspended.queue(1, "paused", suspended: true)
        suspended.add(1, queue: 1, "held")
        suspended.emit(.queueSuspended(queue: QueueID(1), suspended: false), after: 10 * second)
        var resumed = suspended.model()
        #expect(resumed.diagnosis(of: 1)?.kind == .waitingForTurn, "resumed a moment ago")
        resumed.advance(to: suspended.time + grace + 1)
        #expect(resumed.diagnosis(of: 1)?.kind == .readyNotStarted)
    }

    @Test("thousands ready in a queue that starts none: each diagnosed, one warning for the queue naming the longest wait")
    func oneWarningPerQueue() throws {
        var script = EventScript()
        script.queue(1, "blocked")
        script.queue(2, "other")
        script.add(1, queue: 2, "alone")
        for id in 2...5_001 { script.add(id, queue: 1, "job-\(id)") }
        var model = script.model()
        model.advance(to: script.time + 10 * second)
        #expect(model.diagnosis(of: 5_001)?.kind == .readyNotStarted)
        let warnings = model.warnings().filter { $0.kind == .readyNotStarted }
        #expect(warnings.map(\.queue) == [QueueID(1), QueueID(2)] && warnings.map(\.operation) == [OperationID(2), OperationID(1)])
        #expect(warnings.first?.message.hasPrefix("#2 job-2 is ready and queue q1 'blocked' has a free slot, yet it has not started for ") == true,
                "the queue by its name too, as the diagnosis says it: \(warnings.first?.message ?? "")")
        #expect(warnings.first?.message.contains("(nor have 4999 more ready operations of q1)") == true, "\(warnings.first?.message ?? "")")
        #expect(warnings.last?.message.contains("nor have") == false)
    }

    @Test("not flagged: a suspended queue, a full one, the main queue, a cancelled or a pending operation")
    func notFlagged() throws {
        var script = EventScript()
        script.queue(1, "paused", suspended: true)
        script.queue(2, "full", max: 1)
        script.queue(3, "main", max: 1, main: true)
        script.queue(4, "work")
        script.add(1, queue: 1, "held")
        script.add(2, queue: 2, "runs")
        script.start(2)
        script.add(3, queue: 2, "behind")
        script.add(4, queue: 3, "on-main")
        script.add(5, queue: 4, "cancelled")
        script.cancel(5)
        script.add(6, queue: 4, "gate", ready: false)
        var model = script.model()
        model.advance(to: script.time + 60 * second)
        #expect(model.diagnosis(of: 1)?.kind == .queueSuspended)
        #expect(model.diagnosis(of: 3)?.kind == .concurrencyLimit)
        #expect(model.diagnosis(of: 4)?.kind == .waitingForTurn)
        #expect(model.diagnosis(of: 5)?.kind == .cancelledWaitingForSlot)
        #expect(model.diagnosis(of: 6)?.kind == .heldByCondition)
        #expect(!model.warnings().contains { $0.kind == .readyNotStarted })
    }

    @Test("the queue's last chance survives a keyframe: the state written and read back says the same")
    func keyframe() throws {
        var script = serialAfterALongRun()
        script.emit(.queueRenamed(queue: QueueID(1), name: "serial queue"), after: second)
        let model = script.model()
        let finishedAt = script.time - second
        #expect(model.stream.queues[QueueID(1)]?.roomSince == finishedAt, "a rename gives no room")
        let state = try JSONDecoder().decode(StreamState.self, from: JSONEncoder().encode(model.stream))
        var loaded = DashboardModel()
        loaded.load(state)
        #expect(loaded.stream.queues[QueueID(1)]?.roomSince == finishedAt)
        let grace = model.configuration.readyNotStartedGrace
        for time in [finishedAt + grace, finishedAt + grace + 1] {
            var live = model
            var read = loaded
            live.advance(to: time)
            read.advance(to: time)
            #expect(live.diagnosis(of: 2)?.kind == read.diagnosis(of: 2)?.kind)
        }
    }
}
