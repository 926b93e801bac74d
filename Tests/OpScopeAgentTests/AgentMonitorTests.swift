import Foundation
@testable import OpScopeAgent
import OperationBridge
import OperationEvents
import Testing
import OpScopeTestSupport

/// The agent on the real monitor: the program's queues run on whatever a console does.
@Suite("Agent: on the monitor", .serialized, .timeLimit(.minutes(4)))
struct AgentMonitorTests {
    @Test("a console that never reads while 2,000 operations run: all finish, its output stays bounded, it is dropped")
    func queuesRunOn() throws {
        let directory = TestDirectory()
        let clock = ManualClock()
        let monitor = OperationMonitor()
        var configuration = testConfiguration(directory, clock: clock)
        configuration.sendBufferLimit = 32 << 10
        configuration.batchLimit = 128
        let agent = try AgentServer.start(monitor, configuration: configuration)
        defer { agent.stop() }
        let silent = try RawClient(agent.socketPath)
        silent.send(RawClient.hello())
        #expect(eventually { agent.statistics.clientsConnected == 1 })
        let queue = ObservedOperationQueue(monitor: monitor, name: "app", maxConcurrentOperationCount: 2)
        let finished = Counter()
        for index in 0..<2_000 {
            let operation = BlockOperation { finished.increment() }
            operation.name = String(repeating: "n", count: 200) + "-\(index)"
            queue.addOperation(operation)
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(finished.value == 2_000)
        #expect(eventually { agent.statistics.largestSendBuffer >= configuration.sendBufferLimit })
        // On top of the bound: one batch of events (about 400 bytes each here) and, when the
        // subscription fell behind on a busy machine and restarted, one keyframe (it holds every
        // unfinished operation, so it can be larger than a batch).
        let statistics = agent.statistics
        #expect(statistics.largestSendBuffer <= configuration.sendBufferLimit + configuration.batchLimit * 1_024 + statistics.largestKeyframe,
                "\(statistics)")
        #expect(stallUntilDropped(agent, clock))
        #expect(silent.waitUntilClosed())
    }

    @Test("a console on the monitor sees the queue, and its cancel reaches the operation")
    func cancelThroughTheSocket() throws {
        let directory = TestDirectory()
        let monitor = OperationMonitor()
        let agent = try AgentServer.start(monitor, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let queue = ObservedOperationQueue(monitor: monitor, name: "held", maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let operation = BlockOperation {}
        operation.name = "waiting"
        queue.addOperation(operation)
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let console = Collector(remote.subscribe(SubscriptionRequest(consumer: "test")))
        #expect(console.collect { collector in
            guard case .keyframe(let state)? = collector.lastStart else { return false }
            return state.queues.values.contains { $0.name == "held" } && state.operations.count == 1
        })
        guard case .keyframe(let state)? = console.lastStart, let id = state.operations.values.first?.id else {
            Issue.record("no operation in the keyframe")
            return
        }
        let result = remote.perform(.cancel(operations: [id]))
        #expect((try? result.get()) != nil, "\(result)")
        #expect(operation.isCancelled)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }
}

final class Counter: @unchecked Sendable {
    // Safety: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
