import TerminalKit
internal import TOMLKit

/// How an error names a TOML value: its kind ("a string") and its text as the file would write
/// it (`"graf"`), kept short so that the error stays one line.
enum TOMLText {
    /// The value's kind with its article: "a boolean", "an integer", "a table".
    static func kind(of node: any TOMLValueConvertible) -> String {
        switch node.type {
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a float"
        case .string: "a string"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        case .array: "an array"
        case .table: "a table"
        }
    }

    /// The value as TOML writes it, at most about 40 characters (a table is "{…}").
    static func text(of node: any TOMLValueConvertible) -> String {
        let text: String
        switch node.type {
        case .string: text = quoted(node.string ?? "")
        case .table: return "{…}"
        case .bool, .int, .double, .date, .time, .dateTime, .array:
            text = node.debugDescription.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return text.count > 40 ? text.prefix(39) + "…" : text
    }

    /// `text` as a TOML basic string: in double quotes, with `"`, `\` and whatever must not
    /// reach a terminal as it is escaped (a hostile key must not write escape sequences).
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                quoted += "\\" + String(scalar)
            } else if TerminalText.needsEscape(scalar) {
                quoted += escaped(scalar)
            } else {
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// A scalar as a TOML escape: `\n`, `\t`, or `\uXXXX`.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }
}
