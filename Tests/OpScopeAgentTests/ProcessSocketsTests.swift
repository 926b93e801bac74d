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
        let path = test.path + "/own.sock"
        // Another process, listening at a path of its own: this test process may serve other
        // tests' agents at the same moment, and a lookup by pid would see those too.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = ["python3", "-c", """
            import socket, sys
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(sys.argv[1])
            listener.listen()
            print("listening", flush=True)
            sys.stdin.read()
            """, path]
        let output = Pipe()
        let input = Pipe()
        child.standardOutput = output
        child.standardInput = input
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        // Its word that it listens, not a wait.
        let said = String(decoding: output.fileHandleForReading.availableLineOrEnd(), as: UTF8.self)
        try #require(said == "listening")
        #expect(ProcessSockets.listeningPaths(of: child.processIdentifier) == [path])
        let found = try AttachablePrograms.path(for: String(child.processIdentifier), in: SocketDirectory(path: test.path + "/empty"))
        #expect(found == path)
    }
}

extension FileHandle {
    /// The bytes up to the first newline (without it), or to the end of the output.
    fileprivate func availableLineOrEnd() -> [UInt8] {
        var line: [UInt8] = []
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first, first != UInt8(ascii: "\n") else { return line }
            line.append(first)
        }
    }
}
