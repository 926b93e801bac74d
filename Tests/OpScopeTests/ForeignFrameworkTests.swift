import Foundation
import OpScope
import Testing
import WorkflowFixture
import OpScopeTestSupport

/// OpScope on code it does not own: an Operation framework with its own queue class, operations
/// that refuse dependency edits once started, conditions as hidden dependencies, groups with
/// queues of their own, and a synchronous operation that never returns (`WorkflowFixture`).
/// Watched tracked and through the adapter API, OpScope must see it truly and never change what
/// it does.
@Suite("Foreign code: an Operation framework OpScope does not own", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct ForeignFrameworkTests {
    @Test("a tracked plain OperationQueue shows its dependencies: in the queue, in another queue, in none")
    func trackedQueueDependencies() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let queue = OperationQueue()
        queue.name = "plain"
        let entered = Gate()
        let release = Gate()
        let a = BlockOperation { entered.open(); release.wait() }
        a.name = "a"
        let b = BlockOperation {}
        b.name = "b"
        b.addDependency(a)
        let orphan = BlockOperation {}
        orphan.name = "orphan"
        let waiter = BlockOperation {}
        waiter.name = "waiter"
        waiter.addDependency(orphan)
        let other = OperationQueue()
        other.isSuspended = true
        let elsewhere = BlockOperation {}
        elsewhere.name = "elsewhere"
        other.addOperation(elsewhere)
        let crossing = BlockOperation {}
        crossing.name = "crossing"
        crossing.addDependency(elsewhere)
        queue.addOperations([a, b, waiter, crossing], waitUntilFinished: false)
        monitor.track(queue)
        #expect(entered.wait())
        monitor.sampleNow()
        clock.advance(seconds: 20)
        monitor.sampleNow()

        let report = OpScopeDashboard.report(monitor)
        let byName = Dictionary(report.operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = byName.mapValues(\.id)
        #expect(byName["b"]?.dependencies == [ids["a"]].compactMap { $0 })
        #expect(byName["waiter"]?.dependencies == [ids["orphan"]].compactMap { $0 })
        #expect(byName["crossing"]?.dependencies == [ids["elsewhere"]].compactMap { $0 })
        #expect(byName["orphan"]?.queue == nil && byName["elsewhere"]?.queue == nil, "known only as dependencies")
        let diagnoses = Dictionary(report.diagnoses.map { ($0.operation, $0) }, uniquingKeysWith: { first, _ in first })
        let idB = try #require(ids["b"])
        let idWaiter = try #require(ids["waiter"])
        let waitsForA = try #require(diagnoses[idB])
        #expect(waitsForA.kind == .waitingOnDependencies && waitsForA.rootCause == ids["a"], "\(waitsForA.message)")
        #expect(diagnoses[idWaiter]?.kind == .waitingOnDependencies)
        #expect(!report.warnings.contains { [.heldByCondition, .notReadyWithoutDependencies].contains($0.kind) },
                "\(report.warnings.map(\.message))")
        // Sampled, and said so per operation.
        #expect(byName["a"]?.observation == .sampled && byName["a"]?.seen?.started == .sampled)

        release.open()
        waiter.cancel()
        other.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        other.waitUntilAllOperationsAreFinished()
    }

    @Test("the report shows the framework's true graph, states and causes", arguments: [Watching.tracked, .adapter])
    func truePicture(watching: Watching) throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let world = ProcedureWorld()
        world.watch(watching, by: monitor)
        world.start()
        monitor.sampleNow()
        clock.advance(seconds: 20)
        monitor.sampleNow()

        let report = OpScopeDashboard.report(monitor)
        let byName = Dictionary(report.operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func id(_ name: String) -> OperationID? { byName[name]?.id }
        let diagnoses = Dictionary(report.diagnoses.map { ($0.operation, $0) }, uniquingKeysWith: { first, _ in first })
        func diagnosis(_ name: String) -> Diagnosis? { id(name).flatMap { diagnoses[$0] } }
        func warned(_ name: String, _ kind: Warning.Kind) -> Bool {
            report.warnings.contains { $0.operation == id(name) && $0.kind == kind }
        }

        // States, as Foundation has them.
        for name in ["fetch", "group", "blocked"] {
            #expect(byName[name]?.state == .executing, "\(name): \(String(describing: byName[name]?.state))")
        }
        for name in ["parse", "guarded", "plain"] {
            #expect(byName[name]?.state == .pending, "\(name): \(String(describing: byName[name]?.state))")
        }
        // The visible graph.
        #expect(byName["parse"]?.dependencies == [id("fetch")].compactMap { $0 })
        #expect(byName["plain"]?.dependencies == [id("parse")].compactMap { $0 })
        #expect(diagnosis("plain")?.kind == .waitingOnDependencies && diagnosis("plain")?.rootCause == id("fetch"))
        // Executing too long, though none says it is asynchronous.
        #expect(warned("blocked", .longRunningSynchronous), "\(report.warnings.map(\.message))")
        #expect(warned("fetch", .longRunningSynchronous))
        #expect(!warned("fetch", .longRunningAsynchronous))

        switch watching {
        case .tracked:
            // The condition's evaluator cannot be seen: the diagnosis says what is known, and
            // names no removal that never happened.
            let held = try #require(diagnosis("guarded"))
            #expect(held.kind == .heldByCondition, "\(held.message)")
            #expect(!held.message.contains("removeDependency") && !held.message.contains("removed"), "\(held.message)")
            #expect(warned("guarded", .heldByCondition))
            #expect(byName["fetch"]?.observation == .sampled && byName["fetch"]?.seen?.started == .sampled)
            #expect(byName["fetch"]?.seen?.added == .sampled)
        case .adapter:
            // Named by the delegate, the hidden dependency is in the graph, and it is the cause.
            let gate = try #require(world.guarded.conditionGate)
            let gateEntry = try #require(report.operations.first { $0.name == gate.name })
            #expect(byName["guarded"]?.dependencies == [gateEntry.id])
            #expect(diagnosis("guarded")?.kind == .waitingOnDependencies && diagnosis("guarded")?.rootCause == gateEntry.id,
                    "\(String(describing: diagnosis("guarded")?.message))")
            #expect(!report.warnings.contains { $0.kind == .heldByCondition })
            // Adds, readiness and finishes exact, the start sampled: and the report says which.
            #expect(byName["fetch"]?.observation == .hooked)
            #expect(byName["fetch"]?.seen?.added == .exact && byName["fetch"]?.seen?.started == .sampled)
            // The group's own queue, found through the delegate the group forwards to.
            let childQueue = try #require(report.queues.first { $0.id == byName["slow child"]?.queue })
            #expect(childQueue.observation == .reported)
            #expect(byName["slow child"]?.state == .executing && byName["quick child"]?.state == .finished)
            #expect(report.queues.first { $0.name == "workflow" }?.observation == .reported)
        case .unobserved:
            Issue.record("not a watched mode")
        }

        world.finishEverything()
        monitor.sampleNow()
        clock.advance(seconds: 1)
        monitor.sampleNow()
        let end = OpScopeDashboard.report(monitor)
        for name in ["fetch", "parse", "guarded", "group", "blocked", "plain"] {
            #expect(end.operations.first { $0.name == name }?.state == .finished, "\(name) at the end")
        }
    }

    @Test("every command on every kind of operation: no crash, the outcome the program gets by itself",
          arguments: [Watching.tracked, .adapter])
    func commandsChangeNothingElse(watching: Watching) throws {
        let expected = try Self.runCommands(.unobserved)
        let observed = try Self.runCommands(watching)
        for (name, outcome) in expected {
            #expect(observed[name] == outcome, "\(name): \(observed[name].map(String.init(describing:)) ?? "missing"), expected \(outcome)")
        }
        #expect(observed.count == expected.count)
        // The commands reached what they name.
        #expect(expected["fetch"]?.cancelled == true && expected["fetch"]?.executed == true)
        #expect(expected["parse"]?.cancelled == true && expected["parse"]?.executed == false)
        #expect(expected["extra"]?.cancelled == true && expected["plain"]?.dependencies == ["parse"])
    }

    /// Suspends the queue, adds work to it, lowers its maximum, cancels one executing and one
    /// pending operation, a tagged pair (a condition-held procedure and an executing group),
    /// then everything left, and resumes: through OpScope's commands when watched, directly when
    /// not. Returns what the program can read of each operation at the end.
    private static func runCommands(_ watching: Watching) throws -> [String: ProcedureWorld.Outcome] {
        let clock = ManualClock(step: 1_000)
        let monitor = watching == .unobserved ? nil : OperationMonitor.onTestClock(clock)
        let world = ProcedureWorld()
        world.watch(watching, by: monitor)
        let made = Made()
        let make: @Sendable (Int) -> Operation = { _ in
            let extra = BlockProcedure(name: "extra") { finish in finish() }
            made.keep(extra)
            return extra
        }
        world.start()
        guard let monitor else {
            world.queue.isSuspended = true
            world.queue.addOperation(make(0))
            world.queue.maxConcurrentOperationCount = 2
            world.plain.cancel()
            world.fetch.cancel()
            for operation in [world.guarded, world.group] { operation.cancel() }
            world.queue.cancelAllOperations()
            world.queue.isSuspended = false
            world.finishEverything()
            return world.outcomes(extra: made.all)
        }
        try monitor.catalog.register("extra", summary: "one more procedure", queue: world.queue, make: make)
        monitor.sampleNow()
        let queueID = monitor.register(world.queue)
        let ids = Dictionary(OpScopeDashboard.report(monitor).operations.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        func id(_ name: String) throws -> OperationID { try #require(ids[name], "\(name) is known") }
        let commands: [MonitorCommand] = [
            .setSuspended(queue: queueID, suspended: true),
            .addWork(WorkRequest(template: "extra", queue: queueID)),
            .setMaxConcurrency(queue: queueID, count: 2),
            .cancel(operations: [try id("plain")]),
            .cancel(operations: [try id("fetch")]),
            .cancel(operations: [try id("guarded"), try id("group")]),
            .cancelAll(queue: queueID),
            .setSuspended(queue: queueID, suspended: false),
        ]
        for command in commands {
            if case .failure(let error) = monitor.perform(command) { Issue.record("\(command): \(error)") }
        }
        #expect(world.queue.maxConcurrentOperationCount == 2 && !world.queue.isSuspended)
        world.finishEverything()
        monitor.sampleNow()
        clock.advance(seconds: 1)
        monitor.sampleNow()
        // The report agrees with Foundation about every operation it knows.
        let report = OpScopeDashboard.report(monitor)
        let outcomes = world.outcomes(extra: made.all)
        for entry in report.operations {
            guard let outcome = outcomes[entry.name] else { continue }
            #expect(entry.state == .finished && entry.cancelled == outcome.cancelled, "\(watching) \(entry.name): \(entry.state)")
        }
        return outcomes
    }

    @Test("the dashboard on the framework: the condition filter and the warnings say what is true")
    func dashboard() async throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.onTestClock(clock)
        let world = ProcedureWorld()
        world.watch(.tracked, by: monitor)
        world.start()
        monitor.sampleNow()
        clock.advance(seconds: 20)
        monitor.sampleNow()
        let filter: [Key] = [.character("/")] + "why:condition".map { Key.character($0) } + [.enter]
        let terminal = ScriptedTerminal(script: [1: filter])
        terminal.size = (160, 45)
        // Quits once a frame shows the filter applied (a deadline guards against a hang only).
        let deadline = Date().addingTimeInterval(60)
        let watcher = QuitWhen(terminal: terminal) {
            terminal.frames.last?.text.contains("why:condition") == true || Date() > deadline
        }
        let ending = await OpScopeDashboard.run(monitor, on: watcher)
        #expect(ending == .quit)
        let last = try #require(terminal.frames.last).text
        #expect(last.contains("guarded"), "\(last)")
        #expect(!last.contains("parse"), "only the operation a condition holds: \(last)")
        #expect(last.contains("main() has not returned"), "\(last)")
        world.finishEverything()
    }
}

/// The operations a template made, kept so their outcome can be read.
private final class Made: @unchecked Sendable {
    private let lock = NSLock()
    private var operations: [Operation] = []
    func keep(_ operation: Operation) { lock.withLock { operations.append(operation) } }
    var all: [Operation] { lock.withLock { operations } }
}
