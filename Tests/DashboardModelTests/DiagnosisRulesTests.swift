import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// The rules a diagnosis follows where it used to say something untrue: an operation not ready
/// without dependencies, the first k operations of a queue with k free slots, the members of a
/// cycle. Synthetic streams, so that each situation is exact and the clock is the script's.
@Suite("Model: diagnosis rules")
struct DiagnosisRulesTests {
    @Test("not ready and no dependencies: held by a condition the stream cannot see, diagnosed at once, not 'waiting on dependencies', not naming itself as a chain nor a cause it did not see; warned, and a problem for the exit status, after the grace")
    func notReadyWithoutDependencies() throws {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: 1, "gate", ready: false)
        let model = script.model()
        let diagnosis = try #require(model.diagnosis(of: 1))
        #expect(diagnosis.kind == .heldByCondition)
        #expect(diagnosis.chainLength == 1 && diagnosis.next == nil && diagnosis.blockers.isEmpty)
        #expect(diagnosis.message == "#1 gate is not ready and lists no dependency: isReady says false, so a condition of its own "
            + "(an isReady override) or of its framework (a dependency its dependencies override hides) holds it", "\(diagnosis.message)")
        #expect(!diagnosis.message.contains("waits on"))
        #expect(!diagnosis.message.contains("removeDependency"), "no removal was seen")
        // The warning waits for the grace: a condition of its own (a gate the program opens and
        // tells its queue about) is the pattern, and holds it for a while.
        #expect(model.warnings().isEmpty)
        var soon = model
        soon.advance(to: script.time + model.configuration.notReadyGrace + 1)
        #expect(soon.warnings().isEmpty, "a gate's while is not the removed-dependency trap")
        var later = model
        later.advance(to: script.time + model.configuration.conditionGrace + 1)
        #expect(later.warnings().map(\.kind) == [.heldByCondition])
        #expect(later.warnings().first?.message.hasPrefix("#1 gate is not ready although it lists no dependency: isReady says false") == true)
        // The report says it at once too, but fails a run only with the warning: a gate that
        // opens within the grace is not a problem.
        #expect(model.report().diagnoses.map(\.kind).contains(.heldByCondition))
        #expect(!model.report().hasProblem)
        #expect(later.report().hasProblem)
    }

    @Test("a dependency removed before it finished: the diagnosis and the warning name it (Foundation on Linux never releases the operation then); one removed after its finish is not blamed")
    func removedUnfinishedDependency() throws {
        var script = EventScript()
        script.queue(1, "updates", max: 2)
        script.add(1, queue: 1, "download")
        script.add(2, queue: 1, "apply", after: [1])
        script.start(1)
        script.emit(.dependencyRemoved(operation: OperationID(2), dependency: OperationID(1)), after: 500_000_000)
        var model = script.model()
        let diagnosis = try #require(model.diagnosis(of: 2))
        #expect(diagnosis.kind == .notReadyWithoutDependencies)
        #expect(diagnosis.message == "#2 apply is not ready and lists no dependency: #1 download was removed from its dependencies "
            + "501 ms after the add, before it finished: on Linux Foundation never takes a removed unfinished dependency off its "
            + "count, so it stays not ready; only cancel() releases it", "\(diagnosis.message)")
        // Its finish afterwards changes nothing: it was unfinished when it was removed.
        script.finish(1)
        model = script.model()
        model.advance(to: script.time + model.configuration.notReadyGrace + 1)
        let warning = try #require(model.warnings().first { $0.operation == OperationID(2) })
        #expect(warning.kind == .notReadyWithoutDependencies)
        #expect(warning.message == "#2 apply is not ready: #1 download was removed from its dependencies before it "
            + "finished; Foundation on Linux never releases it then, only cancel() does", "\(warning.message)")

        // Removed once finished: Foundation had already counted it; the removal is not blamed.
        var after = EventScript()
        after.queue(1, "updates", max: 2)
        after.add(1, queue: 1, "download")
        after.add(2, queue: 1, "apply", after: [1], ready: false)
        after.run(1)
        after.emit(.dependencyRemoved(operation: OperationID(2), dependency: OperationID(1)))
        let settled = after.model()
        let generic = try #require(settled.diagnosis(of: 2))
        #expect(generic.kind == .heldByCondition)
        #expect(generic.message.contains("a condition of its own (an isReady override) or of its framework"), "\(generic.message)")
        #expect(!generic.message.contains("#1 download was removed"))
    }

    @Test("a dependency that has just finished: the moment before the ready event, reported only after the grace")
    func graceAfterAFinish() throws {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: 1, "first")
        script.add(2, queue: 1, "second", after: [1])
        script.run(1)
        var model = script.model()
        let soon = try #require(model.diagnosis(of: 2))
        #expect(soon.kind == .waitingOnDependencies)
        #expect(soon.message == "#2 second: its last dependency has just finished; Foundation makes it ready next")
        #expect(model.warnings().isEmpty)
        model.advance(to: script.time + model.configuration.notReadyGrace + 1)
        #expect(model.diagnosis(of: 2)?.kind == .heldByCondition)
        #expect(model.warnings().map(\.kind) == [.heldByCondition])
    }

    @Test("k free slots: the first k in start order all start now; only those after them wait their turn")
    func nextToStart() throws {
        var script = EventScript()
        script.queue(1, "pool", max: 3)
        for id in 1...5 { script.add(id, queue: 1, "job\(id)") }
        let model = script.model()
        #expect(model.diagnosis(of: 1)?.message == "#1 job1 is next to start in queue q1 'pool'")
        for id in 2...3 {
            let diagnosis = try #require(model.diagnosis(of: OperationID(id)))
            #expect(diagnosis.kind == .waitingForTurn && diagnosis.blockers.isEmpty)
            #expect(!diagnosis.message.contains("waits behind"), "\(diagnosis.message)")
            #expect(diagnosis.message.hasPrefix("#\(id) job\(id) is among the next to start in queue q1 'pool': 3 slots are free"))
        }
        let fourth = try #require(model.diagnosis(of: 4))
        #expect(fourth.blockers == [1, 2, 3])
        #expect(fourth.message == "#4 job4 waits behind 3 operations of higher priority or added earlier in queue q1 'pool'")

        // One of three slots taken: two start now.
        var busy = script
        busy.start(1)
        let model2 = busy.model()
        #expect(model2.diagnosis(of: 3)?.message.contains("is among the next to start") == true)
        #expect(model2.diagnosis(of: 4)?.message.hasPrefix("#4 job4 waits behind 2 operations") == true)
        // No fixed limit: every ready operation starts now.
        var open = EventScript()
        open.queue(1, "open")
        for id in 1...40 { open.add(id, queue: 1, "job\(id)") }
        #expect(open.model().diagnosis(of: 40)?.message.contains("is among the next to start in queue q1 'open': it has no fixed limit") == true)
    }

    @Test("a cycle's members: blockers are the other members, each once, and the queue is named (also in JSON); members off the named cycle too")
    func cycleBlockers() throws {
        var script = EventScript()
        script.queue(1, "deadlock")
        script.add(3, queue: 1, "a", after: [4])
        script.add(4, queue: 1, "b", after: [3])
        script.add(5, queue: 1, "c", after: [4, 6, 7])
        script.add(6, queue: 1, "d", after: [7])
        script.add(7, queue: 1, "e", after: [5])
        let model = script.model()
        #expect(model.cycles.count == 2)
        for (id, others) in [(3, [4]), (4, [3]), (5, [7]), (7, [5])] {
            let diagnosis = try #require(model.diagnosis(of: OperationID(id)))
            #expect(diagnosis.kind == .cycle && diagnosis.blockers == others.map { OperationID($0) } && diagnosis.queue == QueueID(1))
        }
        // #6 is off the cycle that names its component (#5 → #7 → #5) but on #6 → #7 → #5 → #6.
        let member = try #require(model.diagnosis(of: 6))
        #expect(member.kind == .cycle && member.blockers == [7] && member.queue == QueueID(1))
        #expect(member.message == "#6 d is part of a dependency cycle: it waits on #7 e, which leads back to it through #5 c waits on #7 e waits on #5 c")
        #expect(model.isCycleEdge(from: 6, to: 7) && model.isCycleEdge(from: 5, to: 6) && !model.isCycleEdge(from: 5, to: 4))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(model.diagnosis(of: 4)), encoding: .utf8))
        #expect(json.contains("\"blockers\":[3]") && json.contains("\"queue\":1"), "\(json)")
    }

    @Test("a chain through an operation that waits for a slot: its root is the slot's holder")
    func otherRoots() throws {
        var script = EventScript()
        script.queue(1, "serial", max: 1)
        script.add(1, queue: 1, "holder")
        script.start(1)
        script.add(2, queue: 1, "queued")
        script.add(3, queue: nil, "waiter", after: [2])
        let model = script.model()
        let waiter = try #require(model.diagnosis(of: 3))
        #expect(waiter.rootCause == 1 && waiter.next == 2 && waiter.chainLength == 2)
        #expect(waiter.message == "#3 waiter waits on #2 queued: #2 queued waits for a slot: queue q1 'serial' runs 1 of 1 (serial): #1 holder holds the slot")
    }
}
