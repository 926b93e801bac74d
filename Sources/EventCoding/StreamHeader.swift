/// The first line of every stream: what it is, which version of the format, and where it came from.
///
/// `startedAt` and `startMonitorTime` are the same moment on two clocks, so a reader can turn any
/// event's monitor time into a wall-clock time: `startedAt + (time - startMonitorTime)`.
public struct StreamHeader: Sendable, Equatable {
    /// The format version the stream is written in (`EventCoding.currentVersion` when written here).
    public var version: Int
    /// The observed program's name.
    public var program: String
    /// The observed program's process id.
    public var processID: Int
    /// The host the program ran on, if the writer knows it.
    public var host: String?
    /// The wall-clock time when the monitor (or the recording) started.
    public var startedAt: WallClockTime
    /// The monitor clock (nanoseconds, monotonic) at `startedAt`; event times are on this clock.
    public var startMonitorTime: UInt64

    /// Creates a header in the current format version.
    public init(
        version: Int = EventCoding.currentVersion,
        program: String,
        processID: Int,
        host: String? = nil,
        startedAt: WallClockTime,
        startMonitorTime: UInt64
    ) {
        self.version = version
        self.program = program
        self.processID = processID
        self.host = host
        self.startedAt = startedAt
        self.startMonitorTime = startMonitorTime
    }

    /// The wall-clock time of a moment on the monitor clock (saturating outside `Int64`'s range).
    public func wallClock(atMonitorTime time: UInt64) -> WallClockTime {
        let start = startedAt.nanosecondsSince1970
        if time >= startMonitorTime {
            let elapsed = time - startMonitorTime
            guard elapsed <= UInt64(Int64.max - max(start, 0)) else { return WallClockTime(nanosecondsSince1970: .max) }
            return WallClockTime(nanosecondsSince1970: start + Int64(elapsed))
        }
        let before = startMonitorTime - time
        guard before <= UInt64(Int64.max), start >= Int64.min + Int64(before) else {
            return WallClockTime(nanosecondsSince1970: .min)
        }
        return WallClockTime(nanosecondsSince1970: start - Int64(before))
    }
}
