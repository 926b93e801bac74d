import Foundation
import OpScope
import Testing
import OpScopeTestSupport

/// Readiness of the program's own on real queues: an operation whose `isReady` also waits for a
/// gate. Told to the queue (`didChangeValue(forKey: "isReady")`), it runs; untold, Foundation
/// keeps its cached "not ready" and never starts it, although `isReady` reads true. OpScope
/// says so: ready, a free slot, not started.
@Suite("Readiness of the program's own, told to the queue or not, on real queues", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct ReadinessStoryTests {
    /// A gate on top of Foundation's readiness; `ran` is signalled when `main` runs.
    final class Gate: Operation, @unchecked Sendable {
        // Safety: `open` is only touched under `lock`.
        private let lock = NSLock()
        private var open = false
        private let notifies: Bool
        let ran = DispatchSemaphore(value: 0)

        init(_ name: String, notifies: Bool) {
            self.notifies = notifies
            super.init()
            self.name = name
        }

        override var isReady: Bool { super.isReady && lock.withLock { open } }

        func openGate() {
            if notifies { willChangeValue(forKey: "isReady") }
            lock.withLock { open = true }
            if notifies { didChangeValue(forKey: "isReady") }
        }

        override func main() { ran.signal() }
    }

    @Test("told: it runs when the gate opens; untold: it reads ready and never starts, and the report says why")
    func toldAndUntold() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let sync = ObservedOperationQueue(monitor: monitor, name: "sync")
        let auth = ObservedOperationQueue(monitor: monitor, name: "auth")
        let told = Gate("told", notifies: true)
        let untold = Gate("untold", notifies: false)
        // Not `waitUntilFinished()`: it can return as soon as Foundation marks the operation
        // finished, a moment before Foundation calls the dependents (OpScope's hook among them);
        // the completion block is dispatched after that.
        let toldReported = DispatchSemaphore(value: 0)
        told.completionBlock = { toldReported.signal() }
        sync.addOperation(told)
        auth.addOperation(untold)
        monitor.sampleNow()
        told.openGate()
        untold.openGate()
        toldReported.wait()
        #expect(untold.isReady, "isReady reads true")
        monitor.sampleNow()
        clock.advance(seconds: 5)
        monitor.sampleNow()

        let report = OpScopeDashboard.report(monitor)
        let byName = Dictionary(report.operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["told"]?.state == .finished)
        let id = try #require(byName["untold"]?.id)
        #expect(byName["untold"]?.state == .ready)
        let diagnosis = try #require(report.diagnoses.first { $0.operation == id })
        #expect(diagnosis.kind == .readyNotStarted, "\(diagnosis.message)")
        #expect(report.warnings.contains { $0.kind == .readyNotStarted && $0.operation == id })
        #expect(report.hasProblem)
        // What the warning claims is Foundation's behaviour: the queue never started it.
        #expect(untold.ran.wait(timeout: .now()) == .timedOut)

        // A cancel makes Foundation ask isReady again: it starts (to finish at once) and leaves.
        untold.cancel()
        untold.waitUntilFinished()
        auth.waitUntilAllOperationsAreFinished()
    }
}
