/// Durations as people read them: `34 s`, `2.1 s`, `340 ms`, `12 µs`.
public enum DurationText {
    /// Formats nanoseconds.
    public static func format(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return "\(Int(value / 1e3)) µs"
        case ..<1_000_000_000: return "\(Int(value / 1e6)) ms"
        case ..<10_000_000_000: return "\(oneDecimal(value / 1e9)) s"
        case ..<120_000_000_000: return "\(Int(value / 1e9)) s"
        case ..<7_200_000_000_000: return "\(Int(value / 6e10)) min"
        default: return "\(Int(value / 3.6e12)) h"
        }
    }

    /// A count with thousands separators, `99,998`, for the messages that state a size.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
