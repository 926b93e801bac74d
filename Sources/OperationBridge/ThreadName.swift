import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Names the monitor's own threads where `top -H`, `perf` and debuggers look: the kernel's name
/// of the thread, written to `/proc/thread-self/comm`.
///
/// Why not `Thread.name`: set before the thread starts, it stays Foundation's own on Linux; set
/// by the thread itself, Foundation passes it on only once the starting thread has recorded the
/// new thread's handle, which it may not have done yet (a test found the hub's thread unnamed in
/// one run of eight). `pthread_setname_np` is not visible to Swift on Linux.
enum ThreadName {
    /// Names the calling thread; Linux keeps at most 15 bytes of the name. Best effort: a thread
    /// left unnamed works the same. Returns the thread's kernel id (nil where unknown), so that
    /// a test can read back the name of this very thread.
    @discardableResult
    static func setCurrent(_ name: String) -> Int32? {
        #if os(Linux)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return nil }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // "/proc/thread-self" links to "<pid>/task/<tid>".
        var link = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &link, link.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: link.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.flatMap { Int32($0) }
        #else
        return nil
        #endif
    }
}
