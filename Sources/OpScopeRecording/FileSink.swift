#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written with `write(2)` and nothing in between: what a call returns is in the kernel,
/// so a process killed the next moment leaves it in the file. No buffering of its own.
struct FileSink {
    let path: String
    private(set) var descriptor: Int32

    /// Creates (or truncates) the file at `path`, readable by everyone, writable by the owner.
    init(path: String) throws(RecordingError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RecordingError(path: path, reason: "cannot create it: " + Self.describe(errno))
        }
    }

    /// Writes every byte, retrying after interruptions and short writes; the system's reason on failure.
    func write(_ bytes: [UInt8]) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #else
                Darwin.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #endif
            }
            if count < 0 {
                if errno == EINTR { continue }
                return Self.describe(errno)
            }
            if count == 0 { return "the file takes no more bytes" }
            written += count
        }
        return nil
    }

    /// Closes the file; the system's reason if closing reported an error (a late write failure).
    mutating func close() -> String? {
        guard descriptor >= 0 else { return nil }
        #if canImport(Glibc)
        let result = Glibc.close(descriptor)
        #else
        let result = Darwin.close(descriptor)
        #endif
        descriptor = -1
        return result == 0 ? nil : Self.describe(errno)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A recording could not be started or written: names the file and says why, in one line.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `run.jsonl: cannot create it: Permission denied`.
    public var description: String { "\(path): \(reason)" }
}
