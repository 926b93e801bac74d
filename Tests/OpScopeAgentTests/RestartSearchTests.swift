import EventCoding
import Foundation
@testable import OpScopeAgent
import OperationEvents
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A console attached to a program's own socket (`PID.sock` in the user's directory) finds the
/// program once it was started again: which program it takes, and the reconnection itself over
/// real agents standing in for other processes.
@Suite("Restart search: the program started again at another socket", .serialized, .timeLimit(.minutes(2)))
struct RestartSearchTests {
    private let user: UInt32 = 1000

    private func lost(_ program: String = "worker", pid: Int32 = 100, startedAt: String = "2030-01-01T10:00:00.000000000Z") -> WelcomeMessage {
        WelcomeMessage(protocol: AttachProtocol.name, version: AttachProtocol.version, program: program, processID: pid,
                       startedAt: startedAt, now: 0, commandsRefused: nil, templates: [], queues: nil)
    }

    private func candidate(_ pid: Int32, _ program: String = "worker", started: String, owner: UInt32 = 1000) -> RestartSearch.Candidate {
        RestartSearch.Candidate(path: "/run/user/1000/opscope/\(pid).sock", processID: pid, program: program, startedAt: started, owner: owner)
    }

    @Test("of several copies started again, the newest start wins; another name, another user and an older copy are not taken")
    func choosesTheNewest() {
        let candidates = [
            candidate(201, started: "2030-01-01T10:05:00.000000000Z"),
            candidate(202, started: "2030-01-01T10:07:30.000000000Z"),
            candidate(203, started: "2030-01-01T10:06:00.000000000Z"),
            // Newer still, but not the program, or not this user's.
            candidate(301, "other", started: "2030-01-01T11:00:00.000000000Z"),
            candidate(302, started: "2030-01-01T11:00:00.000000000Z", owner: 0),
            // Another copy that was running before the lost one started: not a restart of it.
            candidate(50, started: "2030-01-01T09:00:00.000000000Z"),
        ]
        #expect(RestartSearch.choose(among: candidates, replacing: lost(), user: user)?.processID == 202)
        #expect(RestartSearch.choose(among: candidates.shuffled(), replacing: lost(), user: user)?.processID == 202, "order does not matter")
        #expect(RestartSearch.choose(among: candidates, replacing: lost("other"), user: user)?.processID == 301)
        #expect(RestartSearch.choose(among: candidates, replacing: lost(), user: 0)?.processID == 302)
    }

    @Test("nothing fits: none taken; equal starts go to the higher process id; an unreadable start is never taken")
    func edges() {
        #expect(RestartSearch.choose(among: [], replacing: lost(), user: user) == nil)
        let others = [candidate(301, "other", started: "2030-01-01T11:00:00Z"), candidate(302, started: "2030-01-01T11:00:00Z", owner: 0),
                      candidate(50, started: "2030-01-01T09:00:00Z")]
        #expect(RestartSearch.choose(among: others, replacing: lost(), user: user) == nil, "only other programs, users, and an older copy")
        let twins = [candidate(401, started: "2030-01-01T10:00:00Z"), candidate(402, started: "2030-01-01T10:00:00Z")]
        #expect(RestartSearch.choose(among: twins, replacing: lost(), user: user)?.processID == 402)
        #expect(RestartSearch.choose(among: [candidate(403, started: "yesterday")], replacing: lost(), user: user) == nil)
    }

    @Test("searched only for a PID.sock directly in the directory: a path of the program's choosing is where it comes back")
    func onlyProcessSockets() {
        let directory = SocketDirectory(path: "/run/user/1000/opscope")
        #expect(RestartSearch(path: "/run/user/1000/opscope/4242.sock", directory: directory) != nil)
        #expect(RestartSearch(path: "/run/user/1000//opscope/./4242.sock", directory: directory) != nil, "the same path spelt otherwise")
        #expect(RestartSearch(path: "/run/user/1000/opscope/agent.sock", directory: directory) == nil)
        #expect(RestartSearch(path: "/tmp/elsewhere/4242.sock", directory: directory) == nil)
        #expect(RestartSearch(path: "/run/user/1000/opscope/sub/4242.sock", directory: directory) == nil)
    }

    /// An agent named `program` at `directory/PID.sock`, saying it is process `pid` started at `startedAt`.
    private func serve(_ program: String, pid: Int32, startedAt: String, in directory: TestDirectory) throws -> AgentServer {
        var configuration = testConfiguration(directory, name: "\(pid).sock")
        configuration.program = program
        configuration.processIdentity = (pid, startedAt)
        let source = HistorySource()
        source.append(workScript(operations: 1))
        return try AgentServer.start(source, configuration: configuration)
    }

    /// The worker, pid 1111, serving at its own socket in `directory`, and a source attached to it
    /// that looks for it there once it is gone.
    private func attachedToWorker(in directory: TestDirectory) throws -> (AgentServer, RemoteSource) {
        let first = try serve("worker", pid: 1111, startedAt: "2030-01-01T10:00:00.000000000Z", in: directory)
        return (first, try RemoteSource(path: directory.socket("1111.sock"), reconnects: true, restartDirectory: directory.directory))
    }

    @Test("the socket gone: the source attaches to the newest copy of the program in the directory and says it restarted")
    func reconnectsToTheProgramStartedAgain() throws {
        let directory = TestDirectory()
        let (first, remote) = try attachedToWorker(in: directory)
        defer { remote.close() }
        #expect(remote.sourceInfo.program == "worker (pid 1111)")
        // Serving meanwhile: another program (newer), an older copy, and two copies started again.
        let other = try serve("other", pid: 3333, startedAt: "2030-01-01T12:00:00.000000000Z", in: directory)
        let older = try serve("worker", pid: 999, startedAt: "2030-01-01T09:00:00.000000000Z", in: directory)
        let again = try serve("worker", pid: 2222, startedAt: "2030-01-01T10:05:00.000000000Z", in: directory)
        let newest = try serve("worker", pid: 2223, startedAt: "2030-01-01T10:06:00.000000000Z", in: directory)
        defer { [other, older, again, newest].forEach { $0.stop() } }
        first.stop()
        #expect(eventually { remote.connection == .connected && remote.sourceInfo.program == "worker (pid 2223)" },
                "\(remote.sourceInfo)")
        #expect(remote.path == directory.socket("2223.sock"))
        #expect(remote.programChange(from: "worker (pid 1111)", to: "worker (pid 2223)") == "program worker restarted as pid 2223, attached again")
        #expect(remote.programChange(from: "other (pid 7)", to: "worker (pid 2223)") == nil, "from another program it is no restart")
    }

    @Test("while it waits, the status names the program waited for; another program is asked once and not taken")
    func statusWhileWaiting() throws {
        let directory = TestDirectory()
        let (first, remote) = try attachedToWorker(in: directory)
        defer { remote.close() }
        first.stop()
        #expect(eventually { remote.sourceInfo.status == "program exited — last state kept, reconnecting… (to worker when it starts again)" },
                "\(remote.sourceInfo)")
        // Only another program serves: it is not taken.
        let other = try serve("other", pid: 3333, startedAt: "2030-01-01T12:00:00.000000000Z", in: directory)
        defer { other.stop() }
        var ruledOut = Set<String>()
        let search = try #require(RestartSearch(path: directory.socket("1111.sock"), directory: directory.directory))
        #expect(search.find(replacing: lost("worker", pid: 1111), lostPath: directory.socket("1111.sock"), ruledOut: &ruledOut) == nil)
        #expect(ruledOut.count == 1, "the other program is asked once: \(ruledOut)")
        #expect(remote.connection == .reconnecting("program exited"))
        #expect(remote.sourceInfo.program == "worker (pid 1111)")
    }
}
