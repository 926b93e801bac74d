import Foundation
@testable import OpScopeAgent
import Testing

/// `opscope attach PID` finds an agent served at a socket path of its own through `/proc`.
@Suite("Agent: a process's listening socket, from /proc", .serialized)
struct ProcessSocketsTests {
    @Test("the listening sockets among a process's inodes, from a /proc/net/unix table")
    func parse() {
        let table = """
            Num       RefCount Protocol Flags    Type St Inode Path
            0000000000000000: 00000002 00000000 00010000 0001 01 4711 /tmp/agent one.sock
            0000000000000000: 00000003 00000000 00000000 0001 03 4712 /tmp/agent one.sock
            0000000000000000: 00000002 00000000 00010000 0001 01 99 /run/other.sock
            0000000000000000: 00000002 00000000 00010000 0001 01 4713
            """
        #expect(ProcessSockets.listening(in: table, inodes: ["4711", "4712"]) == ["/tmp/agent one.sock"])
        #expect(ProcessSockets.listening(in: table, inodes: ["4713"]).isEmpty)
    }

    @Test("attach by process id finds an agent served at a path of its own, not in the user's directory")
    func attachByPIDWithOwnSocket() throws {
        let test = TestDirectory()
        var configuration = AgentConfiguration()
        configuration.socketPath = test.path + "/own.sock"
        configuration.removeAtExit = false
        let agent = try AgentServer.start(HistorySource(), configuration: configuration)
        defer { agent.stop() }
        #expect(ProcessSockets.listeningPaths(of: getpid()).contains(agent.socketPath))
        let found = try AttachablePrograms.path(for: String(getpid()), in: SocketDirectory(path: test.path + "/empty"))
        #expect(found == agent.socketPath)
    }
}
