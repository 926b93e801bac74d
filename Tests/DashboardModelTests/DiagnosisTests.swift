import DashboardModel
import OpScopeTestSupport
import Foundation
import OperationBridge
import OperationEvents
import Testing

@Suite("Model: why is this operation not running?", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct DiagnosisTests {
    @Test("a chain down to the asynchronous operation that never finishes")
    func chainToStuckAsync() throws {
        let live = LiveMonitor()
        let network = ObservedOperationQueue(monitor: live.monitor, name: "network")
        let ui = ObservedOperationQueue(monitor: live.monitor, name: "ui", maxConcurrentOperationCount: 1)
        let download = HeldOperation()
        download.name = "download"
        let parse = ObservableBlockOperation {}
        parse.name = "parse"
        let update = BlockOperation {}
        update.name = "update"
        parse.addDependency(download)
        update.addDependency(parse)
        network.addOperations([download, parse], waitUntilFinished: false)
        ui.addOperation(update)
        #expect(live.sync { $0.operations.values.contains { $0.name == "download" && $0.state == .executing } })
        let ids = try ids(live, ["download", "parse", "update"])
        let diagnosis = try #require(live.model.diagnosis(of: ids[2]))
        #expect(diagnosis.kind == .waitingOnDependencies)
        #expect(diagnosis.next == ids[1] && diagnosis.chainLength == 3)
        #expect(live.model.dependencyChain(of: ids[2]) == ids.reversed())
        #expect(diagnosis.rootCause == ids[0])
        #expect(diagnosis.blockers == [ids[1]])
        #expect(diagnosis.message.hasPrefix("\(ids[2]) update waits on \(ids[1]) parse waits on \(ids[0]) download: \(ids[0]) download executing "))
        #expect(diagnosis.message.hasSuffix(", asynchronous"))
        #expect(live.model.diagnosis(of: ids[0]) == nil, "executing operations have no diagnosis")
        download.finish()
        ui.waitUntilAllOperationsAreFinished()
    }

    @Test("a suspended queue, and a cancelled operation waiting for it")
    func suspendedQueue() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "paused")
        queue.isSuspended = true
        let ready = ObservableBlockOperation {}
        ready.name = "ready"
        let cancelled = BlockOperation {}
        cancelled.name = "dropped"
        queue.addOperations([ready, cancelled], waitUntilFinished: false)
        cancelled.cancel()
        live.sync()
        let ids = try ids(live, ["ready", "dropped"])
        let first = try #require(live.model.diagnosis(of: ids[0]))
        #expect(first.kind == .queueSuspended && first.queue == queue.queueID)
        #expect(first.message == "\(ids[0]) ready is ready but queue \(queue.queueID) 'paused' is suspended: resume it (isSuspended = false)")
        // The app cancelled the foreign operation directly: sampled, then reported.
        #expect(live.sync { $0[ids[1]]?.isCancelled == true })
        let second = try #require(live.model.diagnosis(of: ids[1]))
        #expect(second.kind == .cancelledWaitingForSlot)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("the concurrency limit names the operations holding the slots")
    func concurrencyLimit() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "serial", maxConcurrentOperationCount: 1)
        let holder = HeldOperation()
        holder.name = "holder"
        let next = ObservableBlockOperation {}
        next.name = "next"
        queue.addOperations([holder, next], waitUntilFinished: false)
        #expect(live.sync { $0.operations.values.contains { $0.name == "holder" && $0.state == .executing } })
        let ids = try ids(live, ["holder", "next"])
        let diagnosis = try #require(live.model.diagnosis(of: ids[1]))
        #expect(diagnosis.kind == .concurrencyLimit && diagnosis.blockers == [ids[0]])
        #expect(diagnosis.message == "\(ids[1]) next waits for a slot: queue \(queue.queueID) 'serial' runs 1 of 1 (serial): \(ids[0]) holder holds the slot")
        holder.finish()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("a dependency that was never added to any queue is the root cause")
    func neverQueued() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "work")
        let forgotten = BlockOperation {}
        forgotten.name = "forgotten"
        let waiting = BlockOperation {}
        waiting.name = "waiting"
        waiting.addDependency(forgotten)
        queue.addOperation(waiting)
        live.sync()
        let ids = try ids(live, ["forgotten", "waiting"])
        let diagnosis = try #require(live.model.diagnosis(of: ids[1]))
        #expect(diagnosis.kind == .waitingOnDependencies && diagnosis.rootCause == ids[0])
        #expect(diagnosis.message == "\(ids[1]) waiting waits on \(ids[0]) forgotten: \(ids[0]) forgotten was never added to an observed queue: nothing starts it unless the app does")
        #expect(live.model.diagnosis(of: ids[0])?.kind == .notInAnyQueue)
        #expect(live.model.report().hasProblem)
        waiting.cancel()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("a dependency cycle: found, named, and every member diagnosed")
    func cycle() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "deadlock")
        let first = ObservableBlockOperation {}
        first.name = "first"
        let second = ObservableBlockOperation {}
        second.name = "second"
        first.addDependency(second)
        second.addDependency(first)
        queue.addOperations([first, second], waitUntilFinished: false)
        live.sync()
        let ids = try ids(live, ["first", "second"])
        #expect(live.model.cycles.count == 1)
        for id in ids {
            let diagnosis = try #require(live.model.diagnosis(of: id))
            #expect(diagnosis.kind == .cycle)
            #expect(diagnosis.message.contains("is part of a dependency cycle"))
        }
        let report = live.model.report()
        #expect(report.cycles.count == 1 && report.hasProblem)
        // Cancelling two members of a cycle directly can deadlock Foundation on Linux (each
        // finish walks the other's dependents under its lock); the cancel command detaches the
        // dependencies first.
        _ = live.monitor.perform(.cancel(operations: ids))
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("not ready without an unfinished dependency: Foundation lost count after removeDependency")
    func lostCount() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "work")
        queue.isSuspended = true
        let stuck = ObservableBlockOperation {}
        stuck.name = "stuck"
        let other = ObservableBlockOperation {}
        other.name = "other"
        queue.addOperations([stuck, other], waitUntilFinished: false)
        stuck.addDependency(other)
        stuck.removeDependency(other)
        queue.isSuspended = false
        #expect(live.sync { $0.operations.values.contains { $0.name == "other" && $0.state == .finished } })
        let ids = try ids(live, ["stuck"])
        // The dependency was removed, not finished: no finish is on its way to make it ready,
        // so it is diagnosed at once; warned once the grace has passed (counted from its add).
        let diagnosis = try #require(live.model.diagnosis(of: ids[0]))
        #expect(diagnosis.kind == .notReadyWithoutDependencies)
        #expect(diagnosis.message.hasPrefix("\(ids[0]) stuck is not ready and lists no dependency: "), "\(diagnosis.message)")
        #expect(diagnosis.message.contains(" other was removed from its dependencies"), "\(diagnosis.message)")
        let later = live.model.now + live.model.configuration.notReadyGrace + 1
        #expect(live.model.warnings(now: later).contains { $0.kind == .notReadyWithoutDependencies && $0.operation == ids[0] })
        stuck.cancel()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("waiting for its turn behind higher priorities (synthetic)")
    func waitingForTurn() throws {
        var script = EventScript()
        script.queue(1, "busy", max: 1)
        script.add(1, queue: 1, "urgent", priority: .veryHigh)
        script.add(2, queue: 1, "later")
        let model = script.model()
        #expect(model.diagnosis(of: 1)?.message == "#1 urgent is next to start in queue q1 'busy'")
        let later = try #require(model.diagnosis(of: 2))
        #expect(later.kind == .waitingForTurn && later.blockers == [1])
        #expect(later.message == "#2 later waits behind 1 operation of higher priority or added earlier in queue q1 'busy'")
    }

    private func ids(_ live: LiveMonitor, _ names: [String]) throws -> [OperationID] {
        try names.map { name in
            try #require(live.model.operations.values.first { $0.name == name }?.id, "no operation named \(name)")
        }
    }

    @Test("a dependency the dashboard never saw is not taken as finished: no stuck warning, the diagnosis says so")
    func unseenDependency() throws {
        // A dashboard that attached after #5 was announced knows #11 only from a snapshot.
        var script = EventScript()
        script.queue(1, "parse", max: 2)
        script.add(11, queue: 1, "parse-2", after: [5], ready: false)
        var model = script.model()
        let later = model.now + model.configuration.notReadyGrace * 5
        model.advance(to: later)
        #expect(!model.warnings().contains { $0.kind == .notReadyWithoutDependencies })
        #expect(!model.report().hasProblem)
        let diagnosis = try #require(model.diagnosis(of: 11))
        #expect(diagnosis.kind == .waitingOnDependencies)
        #expect(diagnosis.message.contains("waits on #5 (not seen by this dashboard"), "\(diagnosis.message)")
    }
}
