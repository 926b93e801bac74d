import Foundation
@testable import OpScopeAgent
import OperationEvents
import OpScopeTestSupport
import Testing

/// The stream and the commands, end to end over a real socket: history first, then live;
/// several consoles; replies by request id; read-only; the program going and coming back.
@Suite("Agent: stream and commands", .serialized, .timeLimit(.minutes(4)))
struct AgentStreamTests {
    @Test("a console gets the history as a keyframe, then the live events; three consoles at once each get all")
    func historyThenLive() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 5))
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let remotes = try (0..<3).map { _ in try RemoteSource(path: agent.socketPath, reconnects: false) }
        defer { remotes.forEach { $0.close() } }
        let collectors = remotes.map { Collector($0.subscribe(SubscriptionRequest(consumer: "test"))) }
        for collector in collectors {
            #expect(collector.collect { $0.starts == 1 && $0.keyframeOperations == 5 })
        }
        source.append(workScript(operations: 4, firstID: 6, withQueue: false))
        for collector in collectors {
            #expect(collector.collect { $0.events.count == 12 })
            #expect(collector.events.map(\.sequence) == Array(UInt64(16)..<28), "contiguous, after the keyframe")
            #expect(collector.starts == 1)
        }
        #expect(remotes[0].workTemplates == source.workTemplates)
        #expect(remotes[0].sourceInfo.kind == .remote)
        #expect(remotes[0].sourceInfo.program.hasPrefix("agent-test (pid \(getpid()))"))
        #expect(remotes[0].sourceInfo.status == nil)
        #expect(agent.statistics.clientsConnected == 3)
    }

    @Test("commands travel with request ids: eight at once from eight threads each get their own reply")
    func commandsAndReplies() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        source.answer { command in
            guard case .cancel(let operations) = command, let id = operations.first else {
                return .failure(CommandError(.invalidArgument, "only cancels here"))
            }
            return id.rawValue % 2 == 0 ? .success(CommandReceipt(message: "cancelled \(id)", operations: [id]))
                : .failure(CommandError(.operationGone, "\(id) finished already"))
        }
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            results.set(index, remote.perform(.cancel(operations: [OperationID(index + 1)])))
        }
        for index in 0..<8 {
            let id = OperationID(index + 1)
            if (index + 1) % 2 == 0 {
                #expect(results.get(index) == .success(CommandReceipt(message: "cancelled \(id)", operations: [id])))
            } else {
                #expect(results.get(index) == .failure(CommandError(.operationGone, "\(id) finished already")))
            }
        }
        #expect(source.commands.count == 8)
        #expect(remote.perform(.cancelAll(queue: QueueID(1))) == .failure(CommandError(.invalidArgument, "only cancels here")))
    }

    @Test("a read-only agent refuses every command with the reason, and the program sees none")
    func readOnly() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        var configuration = testConfiguration(directory)
        configuration.readOnly = true
        let agent = try AgentServer.start(source, configuration: configuration)
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        #expect(remote.sourceInfo.commandsRefused == AgentLoop.readOnlyReason)
        let result = remote.perform(.setSuspended(queue: QueueID(1), suspended: true))
        #expect(result == .failure(CommandError(.unsupported, AgentLoop.readOnlyReason)))
        #expect(source.commands.isEmpty)
        #expect(agent.statistics.commandsRefused == 1)
    }

    @Test("stop: the console is told the program exited and keeps what it had; the socket is gone")
    func stopTellsConsoles() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 3))
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let collector = Collector(remote.subscribe(SubscriptionRequest(consumer: "test")))
        #expect(collector.collect { $0.keyframeOperations == 3 })
        agent.stop()
        #expect(!FileManager.default.fileExists(atPath: agent.socketPath))
        #expect(eventually { remote.connection == .ended("program exited") })
        #expect(remote.sourceInfo.status == "program exited — last state kept")
        let refused = remote.perform(.cancel(operations: [1]))
        #expect(refused == .failure(CommandError(.unsupported, "not sent: program exited — last state kept")))
        #expect(source.openSubscriptions == 0, "the agent closed its subscriptions")
    }

    @Test("the program comes back at the same path: the console connects again and starts from the new keyframe")
    func reconnects() throws {
        let directory = TestDirectory()
        let first = HistorySource()
        first.append(workScript(operations: 3))
        var agent = try AgentServer.start(first, configuration: testConfiguration(directory))
        let remote = try RemoteSource(path: agent.socketPath, reconnects: true)
        defer { remote.close() }
        let collector = Collector(remote.subscribe(SubscriptionRequest(consumer: "test")))
        #expect(collector.collect { $0.keyframeOperations == 3 })
        agent.stop()
        #expect(eventually { remote.connection == .reconnecting("program exited") })
        #expect(remote.sourceInfo.status == "program exited — last state kept, reconnecting…")
        let second = HistorySource()
        second.append(workScript(operations: 7))
        agent = try AgentServer.start(second, configuration: testConfiguration(directory))
        defer { agent.stop() }
        #expect(collector.collect { $0.starts == 2 && $0.keyframeOperations == 7 })
        #expect(remote.connection == .connected)
        #expect(remote.connectionsMade == 2)
        #expect(remote.sourceInfo.status == nil)
    }

    @Test("a console that lost events asks again: the agent's next batch for it starts from a keyframe")
    func resynchronize() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 2))
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let collector = Collector(remote.subscribe(SubscriptionRequest(consumer: "test")))
        #expect(collector.collect { $0.starts == 1 })
        collector.subscription.resynchronize()
        #expect(collector.collect { $0.starts == 2 && $0.keyframeOperations == 2 })
        #expect(agent.statistics.keyframesSent == 2)
    }
}

/// Results written from several threads.
final class Results: @unchecked Sendable {
    // Safety: `values` is guarded by `lock`.
    private let lock = NSLock()
    private var values: [Int: Result<CommandReceipt, CommandError>] = [:]

    func set(_ index: Int, _ value: Result<CommandReceipt, CommandError>) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }

    func get(_ index: Int) -> Result<CommandReceipt, CommandError>? {
        lock.lock()
        defer { lock.unlock() }
        return values[index]
    }
}
