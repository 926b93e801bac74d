import OperationEvents

/// The names people type for qualities of service and priorities: the Swift spellings in any
/// case, and the short forms the table shows (`UI`, `INIT`, `DEF`, `UTIL`, `BG`; `vlow` ... `vhigh`).
enum QualityNames {
    /// Every accepted spelling, lowercased, with its class.
    static let qos: [(String, QoSClass)] = [
        ("userinteractive", .userInteractive), ("user-interactive", .userInteractive), ("interactive", .userInteractive),
        ("ui", .userInteractive),
        ("userinitiated", .userInitiated), ("user-initiated", .userInitiated), ("initiated", .userInitiated),
        ("init", .userInitiated), ("in", .userInitiated), ("ua", .userInitiated),
        ("default", .default), ("def", .default), ("df", .default),
        ("utility", .utility), ("util", .utility), ("ut", .utility),
        ("background", .background), ("bg", .background),
    ]

    /// The class named by `text` (case-insensitive, `_` read as `-`).
    static func qos(_ text: String) -> QoSClass? {
        let key = text.lowercased().replacing("_", with: "-")
        return qos.first { $0.0 == key }?.1
    }

    /// The forms an error message suggests.
    static let qosHint = "ui, init (or ua), def, util, bg, or the full names (userInteractive ...)"

    /// The priority named by `text`: `veryLow` ... `veryHigh` in any case, or `vlow`, `low`,
    /// `norm`, `high`, `vhigh`. The barrier is not a priority one can set.
    static func priority(_ text: String) -> OperationPriority? {
        switch text.lowercased() {
        case "vlow", "verylow", "very-low": .veryLow
        case "low": .low
        case "norm", "normal": .normal
        case "high": .high
        case "vhigh", "veryhigh", "very-high": .veryHigh
        default: nil
        }
    }

    /// The forms an error message suggests.
    static let priorityHint = "vlow, low, norm, high, vhigh (or veryLow ... veryHigh)"
}
