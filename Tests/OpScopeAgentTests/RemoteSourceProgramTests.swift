import EventCoding
import Foundation
@testable import OpScopeAgent
import OperationEvents
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a remote source says about the program behind its socket, as the connection ends and
/// comes back: the dashboard's title and status line are made from it.
@Suite("Remote source: the program it names", .serialized, .timeLimit(.minutes(2)))
struct RemoteSourceProgramTests {
    @Test("another program at the same socket: sourceInfo and the caption name it after the reconnection")
    func anotherProgramAfterReconnection() throws {
        let directory = TestDirectory()
        let first = HistorySource()
        first.append(workScript(operations: 2))
        var configuration = testConfiguration(directory)
        configuration.program = "first-program"
        var agent = try AgentServer.start(first, configuration: configuration)
        let remote = try RemoteSource(path: agent.socketPath, reconnects: true)
        defer { remote.close() }
        let pid = getpid()
        #expect(RemoteSource.caption(remote.sourceInfo) == "attached to first-program (pid \(pid))")
        let collector = Collector(remote.subscribe(SubscriptionRequest(consumer: "test")))
        #expect(collector.collect { $0.keyframeOperations == 2 })
        agent.stop()
        #expect(eventually { remote.sourceInfo.status == "program exited — last state kept, reconnecting…" })
        #expect(remote.sourceInfo.program == "first-program (pid \(pid))", "the last program is named while reconnecting")

        let second = HistorySource()
        second.append(workScript(operations: 5))
        configuration.program = "second-program"
        configuration.readOnly = true
        agent = try AgentServer.start(second, configuration: configuration)
        defer { agent.stop() }
        #expect(collector.collect { $0.starts == 2 && $0.keyframeOperations == 5 })
        let info = remote.sourceInfo
        #expect(info.status == nil)
        #expect(info.program == "second-program (pid \(pid))")
        #expect(info.commandsRefused != nil)
        #expect(RemoteSource.caption(info) == "attached to second-program (pid \(pid)), read-only")
    }

    @Test("a program whose connection closes without an end line (EOF, or a reset): the reader says it exited, nothing sent",
          arguments: [true, false])
    func closedWithoutEndLine(readsHello: Bool) throws {
        let directory = TestDirectory()
        let agent = try SilentAgent(path: directory.socket(), readsHello: readsHello)
        let remote = try RemoteSource(path: agent.path, reconnects: true)
        defer { remote.close() }
        #expect(remote.sourceInfo.status == nil)
        #expect(remote.sourceInfo.program == "silent (pid \(getpid()))")
        // The process goes: its socket file first (as at a normal exit), then the connection.
        // Unread bytes (the hello, when not read) make the close a reset for the console.
        unlink(agent.path)
        agent.closeConnection()
        #expect(eventually { remote.sourceInfo.status == "program exited — last state kept, reconnecting…" })
        #expect(remote.connection == .reconnecting("program exited"))
    }
}

/// An agent that greets one console and then, when told, closes its end without an end line,
/// as a program that exits before its agent can say goodbye.
final class SilentAgent: @unchecked Sendable {
    // Safety: `connection` is written once by the accepting thread before `accepted` is
    // signalled, and read after waiting for it.
    let path: String
    private let listener: Int32
    private var connection: Int32 = -1
    private let accepted = DispatchSemaphore(value: 0)

    init(path: String, readsHello: Bool) throws {
        self.path = path
        listener = try UnixSocket.make()
        try UnixSocket.listen(listener, at: path)
        let thread = Thread { [self] in
            let descriptor = accept(listener, nil, nil)
            if readsHello {
                var decoder = FrameDecoder(source: "silent", maximumFrameSize: 1 << 20)
                var buffer = [UInt8](repeating: 0, count: 4_096)
                while (try? decoder.nextFrame()) == nil {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count <= 0 { break }
                    decoder.append(buffer[0..<count])
                }
            }
            let welcome = WelcomeMessage(protocol: AttachProtocol.name, version: AttachProtocol.version, program: "silent",
                                         processID: getpid(), startedAt: "", now: 1, commandsRefused: nil, templates: [])
            _ = UnixSocket.writeAll(descriptor, Messages.frame(welcome))
            connection = descriptor
            accepted.signal()
        }
        thread.start()
    }

    /// Closes the console's connection (after the greeting) and stops listening.
    func closeConnection() {
        accepted.wait()
        close(connection)
        close(listener)
    }
}
