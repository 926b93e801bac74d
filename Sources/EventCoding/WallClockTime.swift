#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment on the wall clock, in nanoseconds since 1970-01-01T00:00:00Z (UTC).
///
/// Written as an ISO 8601 UTC time with nine fractional digits (`2025-03-01T12:34:56.123456789Z`)
/// so that people can read it and it still round-trips to the nanosecond. The calendar arithmetic
/// is done here rather than with Foundation's formatters, which go through `Double` seconds and
/// lose the last digits.
public struct WallClockTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch (negative before 1970).
    public var nanosecondsSince1970: Int64

    /// Wraps a count of nanoseconds since the Unix epoch.
    public init(nanosecondsSince1970: Int64) {
        self.nanosecondsSince1970 = nanosecondsSince1970
    }

    /// The wall clock now (`CLOCK_REALTIME`).
    public static func now() -> WallClockTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallClockTime(nanosecondsSince1970: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    /// Ordered by time.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970 }

    /// The ISO 8601 form, e.g. `2025-03-01T12:34:56.123456789Z`.
    public var description: String {
        let nanosPerSecond: Int64 = 1_000_000_000
        var seconds = nanosecondsSince1970 / nanosPerSecond
        var fraction = nanosecondsSince1970 % nanosPerSecond
        if fraction < 0 {
            fraction += nanosPerSecond
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        return Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2) + "T"
            + Self.digits(secondOfDay / 3600, 2) + ":" + Self.digits(secondOfDay / 60 % 60, 2) + ":"
            + Self.digits(secondOfDay % 60, 2) + "." + Self.digits(fraction, 9) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (UTC, 1 to 9 fractional digits); nil for anything
    /// else, and for a time outside what `Int64` nanoseconds hold (years 1677 to 2262).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start ..< start + count {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, separator) in separators where bytes[index] != separator.asciiValue! {
            return nil
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1 ... 12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction: Int64 = 0
        let fractionDigits = bytes.count - 21
        if bytes.count > 20 {
            // Either "SSZ" exactly, or "SS." followed by 1-9 digits and "Z".
            guard bytes[19] == UInt8(ascii: "."), (1 ... 9).contains(fractionDigits),
                  let digits = number(20, fractionDigits)
            else { return nil }
            fraction = digits
            for _ in fractionDigits ..< 9 { fraction *= 10 }
        }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        var seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        if seconds < 0, fraction > 0 {
            // Borrow a second so that the earliest representable moment does not overflow on the way.
            seconds += 1
            fraction -= 1_000_000_000
        }
        // Int64 nanoseconds reach from 1677 to 2262: a year outside that is not representable.
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = nanoseconds.addingReportingOverflow(fraction)
        guard !overflow, !overflowAgain else { return nil }
        nanosecondsSince1970 = total
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (the "days from civil" calculation:
    /// years counted from March so that the leap day falls at the end of a year).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSince1970`.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value.magnitude)
        let padded = text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        return value < 0 ? "-" + padded : padded
    }
}
