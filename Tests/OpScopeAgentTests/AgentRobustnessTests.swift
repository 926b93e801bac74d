import EventCoding
import Foundation
@testable import OpScopeAgent
import OperationEvents
import OpScopeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent never hurts the program: broken, oversized, slow and silent peers close their own
/// connection only, every buffer stays under its bound, and a well-behaved console keeps getting
/// the program's events meanwhile. Deadlines run on a manual clock.
@Suite("Agent: hostile and broken consoles", .serialized, .timeLimit(.minutes(5)))
struct AgentRobustnessTests {
    /// A well-behaved console that must see everything the program does, whatever else happens.
    private func expectLiveConsole(_ collector: Collector, _ source: HistorySource, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = source.count
        source.append(workScript(operations: 3, firstID: 10_000 + before, withQueue: false))
        let expected = UInt64(source.count)
        #expect(collector.collect { ($0.events.last?.sequence ?? 0) + 1 == expected }, "the good console stalled",
                sourceLocation: sourceLocation)
    }

    @Test("a greeting of another version is refused with one message naming both versions; so is a console that speaks one")
    func versionMismatch() throws {
        let directory = TestDirectory()
        let agent = try AgentServer.start(HistorySource(), configuration: testConfiguration(directory))
        defer { agent.stop() }
        let raw = try RawClient(agent.socketPath)
        raw.send(RawClient.hello(version: 99))
        let payload = try #require(raw.frame())
        let refused = try #require(Messages.decode(RefusedMessage.self, payload[...]))
        #expect(refused.reason == "protocol version mismatch: this program's agent speaks opscope-attach version 1, "
            + "the console version 99; attach with the same OpScope version")
        #expect(refused.version == 1)
        #expect(raw.waitUntilClosed())
        #expect(throws: AttachError(.versionMismatch, refused.reason.replacingOccurrences(of: "99", with: "2"))) {
            _ = try RemoteHandshake.connect(path: agent.socketPath, mode: .stream, client: "test", version: 2)
        }
    }

    @Test("a first frame that is not a hello, another protocol, or no greeting at all: refused and closed")
    func badGreetings() throws {
        let directory = TestDirectory()
        let clock = ManualClock()
        let agent = try AgentServer.start(HistorySource(), configuration: testConfiguration(directory, clock: clock))
        defer { agent.stop() }
        let command = try RawClient(agent.socketPath)
        command.send(Messages.frame(CommandMessage(id: 1, command: .cancel(operations: [1]))))
        #expect(command.nextKind() == "refused")
        #expect(command.waitUntilClosed())
        let other = try RawClient(agent.socketPath)
        other.send(RawClient.hello(protocol: "http"))
        #expect(other.nextKind() == "refused")
        #expect(other.waitUntilClosed())
        let silent = try RawClient(agent.socketPath)
        // Accepted (before the clock moves), and the two refused ones gone.
        #expect(eventually { agent.statistics.connectionsAccepted == 3 && agent.statistics.clientsConnected == 1 })
        clock.advance(seconds: 10)
        agent.wake()
        #expect(silent.nextKind() == "refused")
        #expect(silent.waitUntilClosed())
        #expect(agent.statistics.connectionsClosedForErrors == 3)
    }

    @Test("seeded fuzzing: 300 connections of random, mutated and oversized frames each close alone; a console streams on")
    func fuzzedFrames() throws {
        let seed = SeededRandom.seed(default: 0x5EED_A6E7, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let directory = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 2))
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory))
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let console = Collector(remote.subscribe(SubscriptionRequest(consumer: "good")))
        #expect(console.collect { $0.starts == 1 })
        let valid = [RawClient.hello(), Messages.frame(CommandMessage(id: 7, command: .setMaxConcurrency(queue: QueueID(1), count: 3))),
                     Messages.frame(ResyncMessage())]
        for round in 0..<300 {
            let raw = try RawClient(agent.socketPath)
            var bytes: [UInt8] = []
            switch random.next() % 4 {
            case 0:
                bytes = (0..<Int(random.next() % 2_000 + 1)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 1:
                bytes = valid[0] + (0..<Int(random.next() % 500 + 1)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 2:
                // Valid frames with bytes flipped, the length prefixes included.
                bytes = valid[0] + valid[1] + valid[2]
                for _ in 0..<Int(random.next() % 6 + 1) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            default:
                let length = UInt32(AttachProtocol.maximumClientFrame) + UInt32(random.next() % 1_000_000 + 1)
                bytes = [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                         UInt8(truncatingIfNeeded: length)] + Array(repeating: 0x7B, count: 100)
            }
            raw.send(bytes)
            shutdown(raw.descriptor, Int32(SHUT_WR))
            #expect(raw.waitUntilClosed(), "round \(round) was not closed; seed \(seed)")
            if round % 50 == 49 { expectLiveConsole(console, source) }
        }
        #expect(eventually { agent.statistics.clientsConnected == 1 }, "seed \(seed)")
        #expect(agent.statistics.largestReceiveBuffer <= AttachProtocol.maximumClientFrame + 4, "seed \(seed)")
        #expect(remote.connection == .connected)
        expectLiveConsole(console, source)
    }

    @Test("a console that sends a frame one byte per second is closed at the frame deadline; the rest runs on")
    func slowBytes() throws {
        let directory = TestDirectory()
        let clock = ManualClock()
        let source = HistorySource()
        let agent = try AgentServer.start(source, configuration: testConfiguration(directory, clock: clock))
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let console = Collector(remote.subscribe(SubscriptionRequest(consumer: "good")))
        let slow = try RawClient(agent.socketPath)
        slow.send(RawClient.hello())
        #expect(slow.nextKind() == "welcome")
        let frame = Messages.frame(CommandMessage(id: 1, command: .cancel(operations: [1])))
        for (index, byte) in frame.prefix(10).enumerated() {
            slow.send([byte])
            // The agent has read it (the clock is moved only after).
            #expect(eventually { agent.statistics.largestReceiveBuffer >= index + 1 })
            #expect(agent.statistics.connectionsClosedForErrors == 0)
            expectLiveConsole(console, source)
            clock.advance(seconds: 1)
            agent.wake()
        }
        #expect(slow.waitUntilClosed())
        #expect(agent.statistics.connectionsClosedForErrors == 1)
        #expect(source.commands.isEmpty)
        expectLiveConsole(console, source)
    }

    @Test("a console that never reads: its output stops at the bound, it is dropped after the stall timeout, counted; another gets every event")
    func neverReads() throws {
        let directory = TestDirectory()
        let clock = ManualClock()
        let source = HistorySource()
        var configuration = testConfiguration(directory, clock: clock)
        configuration.sendBufferLimit = 64 << 10
        configuration.batchLimit = 256
        let agent = try AgentServer.start(source, configuration: configuration)
        defer { agent.stop() }
        let remote = try RemoteSource(path: agent.socketPath, reconnects: false)
        defer { remote.close() }
        let console = Collector(remote.subscribe(SubscriptionRequest(consumer: "good")))
        let silent = try RawClient(agent.socketPath)
        silent.send(RawClient.hello())
        #expect(eventually { agent.statistics.clientsConnected == 2 })
        // About 8 MB of events: far more than the socket and the bound hold.
        source.append(workScript(operations: 8_000, nameLength: 300))
        #expect(eventually { agent.statistics.largestSendBuffer >= configuration.sendBufferLimit })
        #expect(console.collect { ($0.events.last?.sequence ?? 0) + 1 == UInt64(source.count) })
        // One batch of the largest events (about 400 bytes each) may come on top of the bound,
        // and one keyframe if the subscription fell behind and restarted.
        func withinBound() -> Bool {
            let statistics = agent.statistics
            return statistics.largestSendBuffer <= configuration.sendBufferLimit + configuration.batchLimit * 1_024 + statistics.largestKeyframe
        }
        #expect(withinBound(), "\(agent.statistics)")
        #expect(agent.statistics.clientsDropped == 0)
        #expect(stallUntilDropped(agent, clock))
        #expect(silent.waitUntilClosed())
        #expect(withinBound(), "\(agent.statistics)")
        expectLiveConsole(console, source)
    }

    @Test("100 consoles connecting at once each get the history and the live events; the 101st is refused")
    func hundredConsoles() throws {
        let directory = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 20))
        var configuration = testConfiguration(directory)
        configuration.maximumClients = 100
        let agent = try AgentServer.start(source, configuration: configuration)
        defer { agent.stop() }
        let made = Remotes()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            made.add(Result { try RemoteSource(path: agent.socketPath, reconnects: false) })
        }
        let remotes = try made.all.map { try $0.get() }
        defer { remotes.forEach { $0.close() } }
        #expect(remotes.count == 100)
        #expect(eventually { agent.statistics.clientsConnected == 100 })
        #expect {
            _ = try RemoteSource(path: agent.socketPath, reconnects: false)
        } throws: { error in
            (error as? AttachError)?.message == "the program refused: too many consoles: this program serves at most 100 at once"
        }
        let collectors = remotes.map { Collector($0.subscribe(SubscriptionRequest(consumer: "many"))) }
        source.append(workScript(operations: 10, firstID: 100, withQueue: false))
        for collector in collectors {
            #expect(collector.collect { $0.keyframeOperations == 20 && $0.events.count == 30 })
        }
        #expect(agent.statistics.largestSendBuffer <= configuration.sendBufferLimit)
        #expect(agent.statistics.clientsRefusedAsTooMany == 1)
    }
}

/// Sources made on several threads.
final class Remotes: @unchecked Sendable {
    // Safety: `made` is guarded by `lock`.
    private let lock = NSLock()
    private var made: [Result<RemoteSource, any Error>] = []

    func add(_ result: Result<RemoteSource, any Error>) {
        lock.lock()
        made.append(result)
        lock.unlock()
    }

    var all: [Result<RemoteSource, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return made
    }
}
