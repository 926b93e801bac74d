#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock that stamps events, in nanoseconds.
///
/// Injected so that tests can use a manual clock; the default reads `CLOCK_MONOTONIC`
/// (about 24 ns per read through the vDSO on Linux).
public struct MonitorClock: Sendable {
    /// Reads the current time in nanoseconds.
    public let now: @Sendable () -> UInt64

    /// A clock backed by any function returning nanoseconds.
    public init(now: @escaping @Sendable () -> UInt64) {
        self.now = now
    }

    /// The system's monotonic clock.
    public static let monotonic = MonitorClock {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
