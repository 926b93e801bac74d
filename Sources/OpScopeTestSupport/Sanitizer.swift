import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which sanitizer the tests run under. A test may size itself down under ThreadSanitizer where
/// the full size finds nothing more and costs minutes (each thread and each synchronisation is
/// many times dearer there); the plain run keeps the full size.
public enum Sanitizer {
    /// True in a build made with `--sanitize=thread`.
    public static let thread = dlsym(nil, "__tsan_init") != nil
    /// True in a build made with `--sanitize=address`.
    public static let address = dlsym(nil, "__asan_init") != nil
}
