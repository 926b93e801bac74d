import Foundation
@testable import OpScopeAgent
import OperationEvents
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Where sockets live and who may use them: the directory and socket modes, stale sockets,
/// discovery, and another user refused by the file system and by the peer check.
@Suite("Agent: socket directory, discovery, peers", .serialized, .timeLimit(.minutes(4)))
struct SocketSafetyTests {
    private func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = lstat(path, &status)
        return status.st_mode & 0o777
    }

    @Test("the directory is made 0700 (an open one of ours is closed), the socket is 0600; another user's directory or a link is refused")
    func modes() throws {
        let test = TestDirectory()
        let directory = SocketDirectory(path: test.path + "/run")
        var configuration = AgentConfiguration()
        configuration.directory = directory
        configuration.removeAtExit = false
        let agent = try AgentServer.start(HistorySource(), configuration: configuration)
        #expect(agent.socketPath == directory.path + "/\(getpid()).sock")
        #expect(mode(directory.path) == 0o700)
        #expect(mode(agent.socketPath) == 0o600)
        agent.stop()
        #expect(!FileManager.default.fileExists(atPath: agent.socketPath))
        chmod(directory.path, 0o755)
        try directory.prepare()
        #expect(mode(directory.path) == 0o700)
        chown(directory.path, 65_534, 65_534)
        #expect(throws: AttachError(.unsafe, "\(directory.path) belongs to uid 65534, not to this user (\(geteuid())); remove it")) {
            try directory.prepare()
        }
        let link = SocketDirectory(path: test.path + "/link")
        symlink(test.path, link.path)
        #expect(throws: AttachError(.unsafe, "\(link.path) is not a directory (a link or a file is in the way); remove it")) {
            try link.prepare()
        }
    }

    @Test("XDG_RUNTIME_DIR when it names a directory, else /tmp/opscope-UID")
    func standardDirectory() {
        let test = TestDirectory()
        #expect(SocketDirectory.standard(environment: ["XDG_RUNTIME_DIR": test.path]).path == test.path + "/opscope")
        #expect(SocketDirectory.standard(environment: ["XDG_RUNTIME_DIR": test.path + "/missing"]).path == "/tmp/opscope-\(geteuid())")
        #expect(SocketDirectory.standard(environment: [:]).path == "/tmp/opscope-\(geteuid())")
    }

    @Test("a stale socket (its process died, nobody listens) is replaced; a served one or a plain file is refused")
    func staleSockets() throws {
        let test = TestDirectory()
        let path = test.socket()
        // What a killed process leaves: a bound socket file with nobody listening.
        let dead = try UnixSocket.make()
        try UnixSocket.listen(dead, at: path)
        close(dead)
        #expect(FileManager.default.fileExists(atPath: path))
        let agent = try AgentServer.start(HistorySource(), configuration: testConfiguration(test))
        defer { agent.stop() }
        _ = try RemoteSource(path: path, reconnects: false)
        #expect(throws: AttachError(.unsafe, "\(path) is already served by a running agent")) {
            _ = try AgentServer.start(HistorySource(), configuration: testConfiguration(test))
        }
        let file = test.socket("file.sock")
        FileManager.default.createFile(atPath: file, contents: Data())
        #expect(throws: AttachError(.unsafe, "\(file) exists and is not a socket; remove it")) {
            _ = try AgentServer.start(HistorySource(), configuration: testConfiguration(test, name: "file.sock"))
        }
    }

    @Test("attach's list: each program with its pid, name, start time and queues; a dead process's socket is removed")
    func discovery() throws {
        let test = TestDirectory()
        let source = HistorySource()
        source.append(workScript(operations: 1))
        var configuration = AgentConfiguration()
        configuration.directory = test.directory
        configuration.program = "lister"
        configuration.removeAtExit = false
        let agent = try AgentServer.start(source, configuration: configuration)
        defer { agent.stop() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let stale = test.directory.socketPath(for: child.processIdentifier)
        let dead = try UnixSocket.make()
        try UnixSocket.listen(dead, at: stale)
        close(dead)
        let (programs, problems) = AttachablePrograms.list(in: test.directory)
        #expect(problems.isEmpty)
        #expect(programs.count == 1)
        #expect(programs.first?.processID == getpid())
        #expect(programs.first?.program == "lister")
        #expect(programs.first?.queues == ["work"])
        #expect(programs.first?.startedAt.hasSuffix("Z") == true)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(try AttachablePrograms.path(for: "\(getpid())", in: test.directory) == agent.socketPath)
        #expect(throws: AttachError(.notFound, "no process \(child.processIdentifier)")) {
            _ = try AttachablePrograms.path(for: "\(child.processIdentifier)", in: test.directory)
        }
    }

    /// A small client run as another user: greets the agent and prints its answer.
    private static let client = """
        import json, socket, struct, sys
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        try:
            s.connect(sys.argv[1])
        except PermissionError:
            print("connect: permission denied"); sys.exit(0)
        hello = json.dumps({"kind": "hello", "protocol": "opscope-attach", "version": 1, "client": "other", "mode": "stream"}).encode()
        try:
            s.sendall(struct.pack(">I", len(hello)) + hello)
        except BrokenPipeError:
            pass  # refused at once: the refusal is still there to read
        data = b""
        while len(data) < 4 or len(data) < 4 + struct.unpack(">I", data[:4])[0]:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
        print(data[4:].decode())
        """

    /// Runs the client as `nobody`; nil when no other user can be switched to here.
    private static func runAsNobody(_ arguments: [String], script: String = client) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return process.terminationStatus == 0 ? text : (arguments.isEmpty ? nil : "exit \(process.terminationStatus): " + text)
    }

    static let otherUserAvailable = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") && runAsNobody([], script: "print('ok')") == "ok\n"

    @Test("another user (nobody) is refused: by the file system, and by the peer check when the file system lets it through",
          .enabled(if: otherUserAvailable, "needs root, setpriv and /usr/bin/python3 to run a client as nobody"))
    func otherUserRefused() throws {
        let test = TestDirectory()
        let directory = SocketDirectory(path: test.path + "/run")
        var configuration = AgentConfiguration()
        configuration.directory = directory
        configuration.removeAtExit = false
        let agent = try AgentServer.start(HistorySource(), configuration: configuration)
        defer { agent.stop() }
        chmod(test.path, 0o755)
        let blocked = Self.runAsNobody([agent.socketPath])
        #expect(blocked?.contains("connect: permission denied") == true, "\(blocked ?? "no output")")
        #expect(agent.statistics.connectionsAccepted == 0)
        // Opened up by hand: now only SO_PEERCRED stands in the way.
        chmod(directory.path, 0o755)
        chmod(agent.socketPath, 0o666)
        let refused = Self.runAsNobody([agent.socketPath]) ?? ""
        #expect(refused.contains(#""kind":"refused""#), "\(refused)")
        #expect(refused.contains("permission denied: this program runs as uid 0; uid 65534 may not attach"), "\(refused)")
        #expect(eventually { agent.statistics.peersRefused == 1 })
    }
}
