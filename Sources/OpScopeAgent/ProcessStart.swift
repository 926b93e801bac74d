import EventCoding
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// When this process started, read once from /proc (field 22 of /proc/self/stat, in clock ticks
/// after boot, plus the boot time from /proc/stat); where /proc cannot be read, the moment the
/// agent first asked.
enum ProcessStart {
    static let wallClock: WallClockTime = read() ?? WallClockTime(nanosecondsSince1970: Int64(Date().timeIntervalSince1970 * 1e9))

    private static func read() -> WallClockTime? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              // The command name (field 2) may hold spaces and parentheses: count after its last ')'.
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the name start at field 3, so field 22 is at index 19.
        guard fields.count > 19, let ticks = Int64(fields[19]),
              let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Int64(bootLine.dropFirst(6).trimmingCharacters(in: .whitespaces)) else { return nil }
        let perSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard perSecond > 0 else { return nil }
        return WallClockTime(nanosecondsSince1970: boot * 1_000_000_000 + ticks * (1_000_000_000 / perSecond))
    }
}
