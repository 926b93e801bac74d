/// Escaping of names for the two formats: operation and queue names are the app's text and may
/// hold anything (quotes, brackets, backslashes, line breaks, control characters).
enum ExportText {
    /// The inside of a DOT double-quoted string: `\` and `"` escaped, `&` as `&amp;`, a line break as DOT's `\n`
    /// (a centred line break in a label), other control characters as spaces.
    static func dot(_ text: String) -> String {
        escaped(text) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            // Graphviz reads HTML entities in every label (`&amp;` would print `&`).
            case "&": "&amp;"
            case "\n": "\\n"
            default: nil
            }
        }
    }

    /// The inside of a Mermaid `"..."` label: the characters Mermaid would read as syntax or as
    /// markup written as entity codes (`#quot;`, `#35;`, ...), a line break as `<br>`, other
    /// control characters as spaces.
    static func mermaid(_ text: String) -> String {
        escaped(text) { scalar in
            switch scalar {
            case "\"": "#quot;"
            case "#": "#35;"
            case "&": "#amp;"
            case "<": "#lt;"
            case ">": "#gt;"
            case "`": "#96;"
            case "\n": "<br>"
            default: nil
            }
        }
    }

    /// `text` with each scalar `replacement` names written as its replacement, and every other
    /// control character (and the Unicode line and paragraph separators, which would break a
    /// line in either format) as a space: the formats differ only in what they escape.
    private static func escaped(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                result += " "
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
