import Foundation
@testable import OpScopeAgent
import OperationBridge
import OperationEvents
import OpScopeTestSupport
import Testing

/// After events were lost on the way to a console (its inbox, the agent's subscription, a
/// dropped connection), the console must end where an in-process consumer of the same stream
/// ends once the program has drained: every loss counted, then repaired from a keyframe.
@Suite("Agent: a console converges after losses", .serialized, .timeLimit(.minutes(4)))
struct ConsoleConvergenceTests {
    @Test("events held for an operation not yet announced travel with the keyframe")
    func heldEventsCrossTheSocket() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        // A stream out of order, as the monitor's hub passes it on when its ring dropped an
        // announcement: the operation runs and finishes, and is announced afterwards (the repair).
        var before = EventScript()
        before.queue(1, "work", max: 2)
        before.add(1, queue: 1, "first")
        before.run(1)
        before.start(7)
        before.finish(7)
        source.append(before)
        var after = EventScript()
        after.add(7, queue: 1, "announced late")
        after.add(8, queue: 1, "last")
        after.run(8)

        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        var console = ConsoleFold(remote.subscribe(SubscriptionRequest(consumer: "console")))
        // The console's keyframe is made after the finish and before the announcement.
        #expect(console.read { $0.keyframes >= 1 && $0.state.nextSequence == UInt64(source.count) })
        source.append(after)
        #expect(console.read { $0.state.nextSequence == UInt64(source.count) })

        var inProcess = StreamState()
        let local = source.subscribe(SubscriptionRequest(consumer: "in process"))
        let batch = local.next(limit: 1_000_000)
        if case .keyframe(let state)? = batch.start { inProcess.adopt(state) }
        for event in batch.events { _ = inProcess.apply(event) }
        #expect(inProcess[OperationID(7)]?.state == .finished, "the in-process fold is the reference")
        #expect(console.state[OperationID(7)]?.state == .finished)
        #expect(console.unfinished == 0, "shown unfinished: \(console.unfinishedIDs)")
    }

    @Test("a console that stops reading while 3,000 operations finish converges once it reads again")
    func unreadConsoleConverges() throws {
        let directory = TestDirectory()
        var monitorConfiguration = OperationMonitor.Configuration()
        // The agent's subscription overflows too, not only the console's inbox.
        monitorConfiguration.subscriptionBufferCapacity = 64
        let monitor = OperationMonitor(configuration: monitorConfiguration)
        var configuration = testConfiguration(directory)
        configuration.sendBufferLimit = 8 << 10
        configuration.batchLimit = 64
        let agent = try AgentServer.start(monitor, configuration: configuration)
        defer { agent.stop() }
        // A console whose inbox holds 256 events and that is not read while the work runs.
        let link = try RemoteLink(path: agent.socketPath, mode: .stream, reconnects: true, client: "slow", inboxCapacity: 256)
        defer { link.close() }
        var console = ConsoleFold(RemoteSubscription(link: link, consumer: "slow"))
        #expect(console.read { $0.keyframes >= 1 })

        let queues = (0..<3).map { ObservedOperationQueue(monitor: monitor, name: "q\($0)", maxConcurrentOperationCount: 2 + $0) }
        for index in 0..<3_000 {
            let operation = BlockOperation {}
            operation.name = "op-\(index)"
            if index % 97 == 0 { operation.cancel() }
            queues[index % 3].addOperation(operation)
        }
        for queue in queues { queue.waitUntilAllOperationsAreFinished() }
        let end = UInt64(monitor.acceptedEvents)
        // The console's inbox overflowed: the loss is counted before anything more is read.
        #expect(eventually { link.take(limit: 0).droppedTotal > 0 })

        #expect(console.read { $0.state.nextSequence >= end && $0.unfinished == 0 },
                "shown unfinished: \(console.unfinished) \(console.unfinishedIDs.prefix(10)); next \(console.state.nextSequence) of \(end)")
        #expect(console.droppedSeen > 0)
        #expect(console.state.counters.eventsLost > 0)
        #expect(console.keyframes >= 2, "the loss was repaired from a fresh keyframe")
    }

    @Test("a console whose connection drops while operations finish converges after it connects again")
    func reconnectedConsoleConverges() throws {
        let directory = TestDirectory()
        let monitor = OperationMonitor()
        let configuration = testConfiguration(directory)
        var agent = try AgentServer.start(monitor, configuration: configuration)
        let link = try RemoteLink(path: agent.socketPath, mode: .stream, reconnects: true, client: "dropped")
        defer { link.close() }
        var console = ConsoleFold(RemoteSubscription(link: link, consumer: "dropped"))
        let queue = ObservedOperationQueue(monitor: monitor, name: "app", maxConcurrentOperationCount: 3)
        queue.isSuspended = true
        for index in 0..<1_000 {
            let operation = BlockOperation {}
            operation.name = "op-\(index)"
            queue.addOperation(operation)
        }
        // The console has seen the operations waiting, then its connection goes.
        #expect(console.read { $0.unfinished == 1_000 })
        agent.stop()
        #expect(eventually { link.currentStatus != .connected })
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        agent = try AgentServer.start(monitor, configuration: configuration)
        defer { agent.stop() }
        let end = UInt64(monitor.acceptedEvents)
        #expect(console.read { $0.state.nextSequence >= end && $0.unfinished == 0 },
                "shown unfinished: \(console.unfinished); next \(console.state.nextSequence) of \(end)")
        #expect(link.connectionCount == 2)
    }
}

/// What a console session does with its subscription, on the stream state alone (the model the
/// dashboard derives from it follows the state): load a start, apply events, and ask for a fresh
/// keyframe when the dropped total grows or the sequence numbers jump.
struct ConsoleFold {
    let subscription: any EventSubscription
    var state = StreamState()
    var keyframes = 0
    var droppedSeen = 0

    init(_ subscription: any EventSubscription) {
        self.subscription = subscription
    }

    /// Reads until `condition` holds (within the harness's bound for a busy machine).
    mutating func read(until condition: (ConsoleFold) -> Bool) -> Bool {
        var fold = self
        let reached = eventually {
            fold.drain()
            return condition(fold)
        }
        self = fold
        return reached
    }

    /// Takes what the subscription holds now.
    mutating func drain() {
        while true {
            let batch = subscription.next(limit: 4_096)
            let gaps = state.counters.sequenceGaps
            if let start = batch.start {
                keyframes += 1
                switch start {
                case .keyframe(let keyframe): state.adopt(keyframe)
                case .snapshot(let snapshot): _ = state.catchUp(to: snapshot)
                }
            }
            for event in batch.events { _ = state.apply(event) }
            let lost = batch.droppedTotal > droppedSeen || state.counters.sequenceGaps > gaps
            state.noteEventsLost(total: batch.droppedTotal)
            droppedSeen = max(droppedSeen, batch.droppedTotal)
            if lost, batch.start == nil { subscription.resynchronize() }
            if batch.start == nil, batch.events.isEmpty { return }
        }
    }

    var unfinishedIDs: [OperationID] {
        state.operations.values.filter { $0.state != .finished }.map(\.id)
    }

    var unfinished: Int { unfinishedIDs.count }
}
