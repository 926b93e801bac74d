import EventCoding
import Foundation
@testable import OpScopeAgent
import OperationEvents
import Testing
#if canImport(Glibc)
import Glibc
import OpScopeTestSupport
#endif

/// A private socket directory under /tmp (short: socket paths are limited to 107 bytes).
final class TestDirectory {
    let path: String

    init() {
        var template = Array("/tmp/opscope-agent-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "/tmp/opscope-agent-test-\(getpid())"
    }

    var directory: SocketDirectory { SocketDirectory(path: path) }

    func socket(_ name: String = "agent.sock") -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// An agent configuration for tests: a socket in `directory`, a manual clock if given.
func testConfiguration(_ directory: TestDirectory, clock: ManualClock? = nil, name: String = "agent.sock") -> AgentConfiguration {
    var configuration = AgentConfiguration()
    configuration.socketPath = directory.socket(name)
    configuration.program = "agent-test"
    configuration.removeAtExit = false
    configuration.pumpInterval = 0.005
    if let clock { configuration.clock = { clock.now } }
    return configuration
}

/// Waits until `condition` holds, looking every few milliseconds, at most `seconds` (a bound
/// for a busy machine, not a measure: the test decides by the condition).
@discardableResult
func eventually(_ seconds: Double = 90, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(2_000)
    }
    return true
}

/// A console that speaks raw bytes: for greetings of other versions, broken frames, slow and
/// silent peers.
final class RawClient {
    let descriptor: Int32
    private var decoder = FrameDecoder(source: "raw", maximumFrameSize: 64 << 20)

    init(_ path: String) throws {
        descriptor = try UnixSocket.make()
        UnixSocket.setTimeouts(descriptor, seconds: 90)
        try UnixSocket.connect(descriptor, to: path)
    }

    deinit { close(descriptor) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { UnixSocket.writeAll(descriptor, bytes) }

    static func hello(version: Int = AttachProtocol.version, mode: AttachMode = .stream, protocol name: String = AttachProtocol.name) -> [UInt8] {
        Messages.frame(HelloMessage(protocol: name, version: version, client: "raw", mode: mode))
    }

    /// The next frame's payload, or nil when the agent closed the connection (or 90 s passed).
    func frame() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let payload = try? decoder.nextFrame() { return Array(payload) }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return nil }
            decoder.append(buffer[0..<count])
        }
    }

    /// The kind of the next frame.
    func nextKind() -> String? {
        guard let payload = frame() else { return nil }
        return (try? Messages.line(payload[...]))?.kind
    }

    /// Reads and discards until the agent closes the connection; false if it did not within 90 s.
    func waitUntilClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}

/// Takes batches until `condition` holds on what was taken, within a bound.
final class Collector {
    let subscription: any EventSubscription
    private(set) var starts = 0
    private(set) var events: [MonitorEvent] = []
    private(set) var lastStart: StreamStart?
    private(set) var droppedTotal = 0

    init(_ subscription: any EventSubscription) {
        self.subscription = subscription
    }

    @discardableResult
    func collect(until condition: (Collector) -> Bool) -> Bool {
        eventually {
            let batch = subscription.next(limit: 100_000)
            if let start = batch.start {
                starts += 1
                lastStart = start
                events = []
            }
            events.append(contentsOf: batch.events)
            droppedTotal = batch.droppedTotal
            return condition(self)
        }
    }

    /// Operations in the last keyframe.
    var keyframeOperations: Int {
        if case .keyframe(let state)? = lastStart { return state.operations.count }
        return 0
    }
}

/// Moves the manual clock past the stall timeout until the agent drops its silent console (at
/// most 5 times: bytes the kernel still took after the bound was reached count as progress, at
/// the clock's new time). Each time it waits for two whole turns of the agent's loop after the
/// move (the first may have read the clock before it), so a busy machine only makes it slower.
func stallUntilDropped(_ agent: AgentServer, _ clock: ManualClock) -> Bool {
    for _ in 0..<5 {
        let turns = agent.statistics.turns
        clock.advance(seconds: 10)
        agent.wake()
        let turned = eventually { agent.statistics.turns >= turns + 2 || agent.statistics.clientsDropped == 1 }
        guard turned else { return false }
        if agent.statistics.clientsDropped == 1 { return true }
    }
    return false
}
