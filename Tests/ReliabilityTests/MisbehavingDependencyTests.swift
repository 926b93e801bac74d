import DashboardModel
import DashboardUI
import Foundation
import OpScope
import OperationBridge
import OperationEvents
import TerminalKit
import Testing

/// Issue 17, misbehaving operations: dependencies changed under a running queue, operations
/// that cancel themselves, readiness that ignores dependencies, and one operation waiting on
/// 10,000 others.
@Suite("Reliability: misbehaving dependencies", .serialized, .timeLimit(.minutes(5)))
struct MisbehavingDependencyTests {
    @Test("addDependency and removeDependency on operations already in a queue, while the dependency runs")
    func dependenciesChangedWhileRunning() throws {
        let time = ManualTime()
        let monitor = OperationMonitor.forTest(time: time)
        var watcher = Watcher(monitor)
        let lives = Lives()
        let gateA = Gate()
        let gateC = Gate()
        let started = Occurrences()
        let ran = Occurrences()
        var removed: CountedBlock?
        do {
            let running = ObservedOperationQueue(monitor: monitor, name: "running")
            let waiting = ObservedOperationQueue(monitor: monitor, name: "waiting")
            let a = CountedBlock("a-runs", lives) { _ in started.note(); gateA.pass() }
            let c = CountedBlock("c-runs", lives) { _ in started.note(); gateC.pass() }
            running.addOperations([a, c], waitUntilFinished: false)
            started.wait(for: 2, "a and c to start")
            let added = CountedBlock("b-added", lives) { _ in ran.note() }
            let foreign = CountedForeign("b-foreign-added", lives) { _ in ran.note() }
            let dropped = CountedBlock("b-removed", lives) { _ in ran.note() }
            for operation in [added, foreign, dropped] as [Operation] {
                operation.addDependency(c)
                waiting.addOperation(operation)
            }
            // In a queue, waiting on c; now they also wait on a, which runs.
            added.addDependency(a)
            foreign.addDependency(a)
            dropped.addDependency(a)
            dropped.removeDependency(a)
            monitor.sampleNow()
            var report = watcher.report()
            let ids = report.byName.mapValues(\.id)
            expectComplete(report, ["a-runs": .executing, "c-runs": .executing, "b-added": Truth(state: .pending, cancelled: false),
                                    "b-foreign-added": Truth(state: .pending, cancelled: false),
                                    "b-removed": Truth(state: .pending, cancelled: false)], "the dashboard, a and c running")
            #expect(Set(report.byName["b-added"]?.dependencies ?? []) == Set([ids["a-runs"], ids["c-runs"]].compactMap { $0 }))
            #expect(report.byName["b-removed"]?.dependencies == [ids["c-runs"]].compactMap { $0 })

            // c finishes: b-added waits on a alone. b-removed is left behind by Foundation
            // (removing an unfinished dependency never releases its count on Linux): it never
            // becomes ready, and the report must say so rather than call it ready.
            gateC.open()
            c.waitUntilFinished()
            monitor.sampleNow()
            time.advance(seconds: 5)
            report = watcher.report()
            let diagnoses = Dictionary(report.diagnoses.map { ($0.operation, $0) }, uniquingKeysWith: { first, _ in first })
            let addedDiagnosis = try #require(ids["b-added"].flatMap { diagnoses[$0] })
            #expect(addedDiagnosis.kind == .waitingOnDependencies && addedDiagnosis.blockers == [ids["a-runs"]].compactMap { $0 })
            let foreignDiagnosis = try #require(ids["b-foreign-added"].flatMap { diagnoses[$0] })
            #expect(foreignDiagnosis.kind == .waitingOnDependencies && foreignDiagnosis.blockers == [ids["a-runs"]].compactMap { $0 },
                    "\(foreignDiagnosis)")
            let droppedDiagnosis = try #require(ids["b-removed"].flatMap { diagnoses[$0] })
            #expect(!dropped.isReady, "Foundation released b-removed after all: the test's premise changed")
            #expect(droppedDiagnosis.kind == .notReadyWithoutDependencies, "\(droppedDiagnosis)")
            expectFinalReport(OpScopeDashboard.report(monitor), [
                "a-runs": .executing, "c-runs": .finished, "b-added": Truth(state: .pending, cancelled: false),
                "b-foreign-added": Truth(state: .pending, cancelled: false), "b-removed": Truth(state: .pending, cancelled: false),
            ])
            removed = dropped
        }
        gateA.open()
        ran.wait(for: 2, "b-added and b-foreign-added to run once a finished")
        // The one Foundation stranded is ended the way a program would: cancelled.
        removed?.cancel()
        removed = nil
        lives.expectAllReleased()
        #expect(ran.value == 2, "b-removed ran although Foundation never made it ready")
        let truth: [String: Truth] = ["a-runs": .finished, "c-runs": .finished, "b-added": .finished,
                                      "b-foreign-added": .finished, "b-removed": .cancelled]
        expectComplete(watcher.report(), truth, "the dashboard at the end")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("operations that cancel themselves in main(): they finish cancelled, their dependents still run")
    func selfCancel() {
        let monitor = OperationMonitor.forTest()
        var watcher = Watcher(monitor)
        let lives = Lives()
        let dependentsRan = Occurrences()
        var truth: [String: Truth] = [:]
        do {
            let queue = ObservedOperationQueue(monitor: monitor, name: "quitters", maxConcurrentOperationCount: 3)
            for index in 0..<30 {
                let quitter: Operation
                switch index % 3 {
                case 0: quitter = CountedBlock("quits-\(index)", lives) { $0.cancel() }
                case 1: quitter = CountedForeign("foreign-quits-\(index)", lives) { $0.cancel() }
                default:
                    quitter = CountedAsync("async-quits-\(index)", lives) { op in
                        op.cancel()
                        DispatchQueue.global().async { op.finish() }
                    }
                }
                let dependent = CountedBlock("after-quit-\(index)", lives) { _ in dependentsRan.note() }
                dependent.addDependency(quitter)
                queue.addOperations([quitter, dependent], waitUntilFinished: false)
                truth[quitter.name!] = .cancelled
                truth[dependent.name!] = .finished
            }
        }
        dependentsRan.wait(for: 30, "the dependents")
        lives.expectAllReleased()
        expectComplete(watcher.report(), truth, "the dashboard")
        #expect(watcher.model.stream.counters.anomalies == 0, "\(watcher.model.stream.counters)")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("an isReady override that ignores dependencies: it runs while its dependency still executes, and is shown so")
    func readyOverride() {
        let time = ManualTime()
        let monitor = OperationMonitor.forTest(time: time)
        var watcher = Watcher(monitor)
        let lives = Lives()
        let gate = Gate()
        let started = Occurrences()
        let impatientDone = Occurrences()
        // Foundation keeps a dependent in its dependency's list unretained: a program whose
        // dependent finishes (and is released) before the dependency crashes, OpScope or not.
        // The test keeps them until the dependency finished, as such a program must.
        var kept: [Operation] = []
        do {
            let slow = ObservedOperationQueue(monitor: monitor, name: "slow")
            let eager = ObservedOperationQueue(monitor: monitor, name: "eager")
            let dependency = CountedBlock("dependency", lives) { _ in started.note(); gate.pass() }
            slow.addOperation(dependency)
            started.wait(for: 1, "the dependency to start")
            for index in 0..<5 {
                let impatient = CountedForeign("impatient-\(index)", lives, ready: true)
                impatient.completionBlock = { impatientDone.note() }
                impatient.addDependency(dependency)
                eager.addOperation(impatient)
                kept.append(impatient)
            }
            impatientDone.wait(for: 5, "the impatient operations to finish")
            monitor.sampleNow()
            // Longer than any hold for a missing cause: the stream has decided what to show.
            time.advance(seconds: 2)
            var truth: [String: Truth] = [:]
            for index in 0..<5 { truth["impatient-\(index)"] = .finished }
            for (consumer, report) in [("the dashboard", watcher.report()), ("report(monitor)", OpScopeDashboard.report(monitor))] {
                expectComplete(report, truth, "\(consumer) while the dependency runs")
                let shown = report.byName["dependency"]
                let described = (shown?.state.rawValue ?? "missing") + (shown?.finishInferred == true ? " (finish inferred)" : "")
                #expect(shown?.state == .executing, "\(consumer): the dependency, still executing, is shown \(described)")
            }
            truth["dependency"] = .executing
            expectFinalReport(OpScopeDashboard.report(monitor), truth)
        }
        gate.open()
        (kept.first?.dependencies.first)?.waitUntilFinished()
        kept.removeAll()
        lives.expectAllReleased()
        var truth: [String: Truth] = ["dependency": .finished]
        for index in 0..<5 { truth["impatient-\(index)"] = .finished }
        expectComplete(watcher.report(), truth, "the dashboard at the end")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    @Test("one operation with 10,000 dependencies: diagnosed while they wait, run after them, its details drawn bounded")
    func tenThousandDependencies() throws {
        let time = ManualTime()
        let monitor = OperationMonitor.forTest(time: time)
        var watcher = Watcher(monitor)
        let lives = Lives()
        let joined = Occurrences()
        let count = 10_000
        do {
            let many = ObservedOperationQueue(monitor: monitor, name: "many")
            let join = ObservedOperationQueue(monitor: monitor, name: "join")
            many.isSuspended = true
            let last = CountedBlock("join", lives) { _ in joined.note() }
            let dependencies = (0..<count).map { CountedBlock("part-\($0)", lives) }
            for dependency in dependencies { last.addDependency(dependency) }
            many.addOperations(dependencies, waitUntilFinished: false)
            join.addOperation(last)
            time.advance(seconds: 1)
            let report = watcher.report()
            let joinReport = try #require(report.byName["join"])
            #expect(joinReport.dependencies.count == count && joinReport.state == .pending)
            let diagnosis = try #require(report.diagnoses.first { $0.operation == joinReport.id })
            // Its blockers are its unfinished dependencies, all of them (the report is linear in
            // the edges); its message stays one bounded sentence.
            #expect(diagnosis.kind == .waitingOnDependencies && diagnosis.blockers.count == count && diagnosis.message.utf8.count < 300,
                    "\(diagnosis.kind) \(diagnosis.blockers.count) blockers, \(diagnosis.message.utf8.count) bytes")
            expectDetailsBounded(of: joinReport.id, in: watcher.model)
            many.isSuspended = false
        }
        joined.wait(for: 1, "the join")
        lives.expectAllReleased()
        var truth: [String: Truth] = ["join": .finished]
        for index in 0..<count { truth["part-\(index)"] = .finished }
        let report = watcher.report()
        expectComplete(report, truth, "the dashboard")
        let lastPart = report.operations.filter { $0.name.hasPrefix("part-") }.compactMap(\.finishedAt).max() ?? .max
        #expect((report.byName["join"]?.startedAt ?? 0) >= lastPart, "the join started before its last dependency finished")
        expectFinalReport(OpScopeDashboard.report(monitor), truth)
    }

    /// The details pane of `id`: it composes, and its "depends on" field lists a bounded number
    /// of dependencies (an operation may have 10,000): on a tall screen the whole pane fits.
    private func expectDetailsBounded(of id: OperationID, in model: DashboardModel, sourceLocation: SourceLocation = #_sourceLocation) {
        var dashboard = Interaction()
        dashboard.state.selection = id
        dashboard.state.details = ViewState.ScrollState()
        var backend = TestBackend(width: 200, height: 300)
        backend.draw(FrameComposer().compose(model, dashboard, width: 200, height: 300).0)
        let text = backend.text
        #expect(text.contains("depends on") && text.contains("#\(id.rawValue) join"), "\(text.prefix(2_000))", sourceLocation: sourceLocation)
        #expect(text.contains("Key changes"), "the details of one operation run past a 300-row screen", sourceLocation: sourceLocation)
    }
}
