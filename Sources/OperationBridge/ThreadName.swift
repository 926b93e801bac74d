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
    /// left unnamed works the same.
    static func setCurrent(_ name: String) {
        #if os(Linux)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #endif
    }
}
