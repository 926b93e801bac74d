import DashboardModel
import Foundation
import OperationBridge
import OperationEvents
import Testing

/// Issue 12, defect 7: a plain `BlockOperation` whose unfinished dependency was removed stays not
/// ready for good (Foundation keeps counting it); the model must not call it next to start, and
/// names the removal it saw.
@Suite("Model: a foreign operation whose unfinished dependency was removed", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct ForeignRemovedDependencyTests {
    @Test("never 'ready, next to start': not ready without dependencies, in the diagnosis and the report")
    func notReadyForGood() throws {
        let live = LiveMonitor()
        let queue = ObservedOperationQueue(monitor: live.monitor, name: "work")
        queue.isSuspended = true
        let stuck = BlockOperation {}
        stuck.name = "stuck"
        let other = BlockOperation {}
        other.name = "other"
        queue.addOperations([stuck, other], waitUntilFinished: false)
        stuck.addDependency(other)
        // Both changes are read by sampling (Foundation reports neither): each is read before the
        // next, so the stream shows the removal, which is what the diagnosis names.
        live.monitor.sampleNow()
        live.sync()
        stuck.removeDependency(other)
        live.monitor.sampleNow()
        queue.isSuspended = false
        #expect(live.sync { $0.operations.values.contains { $0.name == "other" && $0.state == .finished } })
        live.sync()
        let id = try #require(live.model.operations.values.first { $0.name == "stuck" }?.id)
        let later = live.model.now + live.model.configuration.notReadyGrace + 1_000_000
        for now in [live.model.now, later] {
            let diagnosis = try #require(live.model.diagnosis(of: id, now: now))
            #expect(diagnosis.kind != .waitingForTurn, "\(diagnosis.message)")
            #expect(!diagnosis.message.contains("next to start"))
        }
        #expect(live.model.diagnosis(of: id, now: later)?.kind == .notReadyWithoutDependencies)
        let report = live.model.report(now: later)
        let reported = try #require(report.diagnoses.first { $0.operation == id })
        #expect(reported.kind == .notReadyWithoutDependencies)
        #expect(!reported.message.contains("just finished") && !reported.message.contains("next to start"))
        stuck.cancel()
        queue.waitUntilAllOperationsAreFinished()
    }
}
