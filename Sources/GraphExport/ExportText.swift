/// Escaping of names for the two formats: operation and queue names are the app's text and may
/// hold anything (quotes, brackets, backslashes, line breaks, control characters).
enum ExportText {
    /// The inside of a DOT double-quoted string: `\` and `"` escaped, `&` as `&amp;`, a line break as DOT's `\n`
    /// (a centred line break in a label), other control characters as spaces.
    static func dot(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            // Graphviz reads HTML entities in every label (`&amp;` would print `&`).
            case "&": result += "&amp;"
            case "\n": result += "\\n"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// The inside of a Mermaid `"..."` label: the characters Mermaid would read as syntax or as
    /// markup written as entity codes (`#quot;`, `#35;`, ...), a line break as `<br>`, other
    /// control characters as spaces.
    static func mermaid(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "#quot;"
            case "#": result += "#35;"
            case "&": result += "#amp;"
            case "<": result += "#lt;"
            case ">": result += "#gt;"
            case "`": result += "#96;"
            case "\n": result += "<br>"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
