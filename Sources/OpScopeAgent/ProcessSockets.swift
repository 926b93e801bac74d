import Foundation

/// The Unix sockets a process listens on, from `/proc` (Linux): its descriptors name socket
/// inodes, and `/proc/net/unix` gives each listening inode's path. This is how `opscope attach
/// PID` finds an agent started at a socket path of its own (`--socket PATH`,
/// `AgentConfiguration.socketPath`), which the user's directory does not hold.
enum ProcessSockets {
    /// The paths of the Unix sockets `pid` listens on, in `/proc/net/unix` order; empty where
    /// `/proc` cannot tell (another user's process, another system).
    static func listeningPaths(of pid: Int32, procRoot: String = "/proc") -> [String] {
        let descriptors = procRoot + "/\(pid)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: descriptors) else { return [] }
        var inodes = Set<Substring>()
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + entry),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { continue }
            inodes.insert(Substring(target.dropFirst(8).dropLast()))
        }
        guard !inodes.isEmpty, let table = try? String(contentsOfFile: procRoot + "/net/unix", encoding: .utf8) else { return [] }
        return listening(in: table, inodes: inodes)
    }

    /// The paths of the listening sockets among `inodes` in a `/proc/net/unix` table. Its lines:
    /// `Num RefCount Protocol Flags Type St Inode Path`; a listening socket has the accept flag
    /// (0x10000) set in Flags.
    static func listening(in table: String, inodes: Set<Substring>) -> [String] {
        var paths: [String] = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: true)
            guard fields.count == 8, inodes.contains(fields[6]),
                  let flags = UInt32(fields[3], radix: 16), flags & 0x10000 != 0 else { continue }
            paths.append(String(fields[7]))
        }
        return paths
    }
}
