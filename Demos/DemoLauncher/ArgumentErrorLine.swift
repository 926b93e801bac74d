/// An argument error as one line that ends with where the help is, shared by `opscope` and each
/// demo's own program.
public enum ArgumentErrorLine {
    /// The first line of `message` (ArgumentParser's can run to a usage block), without the full
    /// stop that would read ".;" before the pointer, then `; see 'HELP'`.
    public static func pointing(_ message: String, to help: String) -> String {
        var sentence = firstLine(message)[...]
        while sentence.last == "." { sentence = sentence.dropLast() }
        return sentence + "; see '\(help)'"
    }

    /// The first line of `message`; a list of values ArgumentParser writes as bullets below it
    /// (six or more: "one of the following:" then "  - perfetto" lines) joined into it, as it
    /// writes a shorter one ("one of 'a', 'b' or 'c'").
    public static func firstLine(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { return message }
        let bullets = lines.dropFirst().prefix { $0.hasPrefix("  - ") }.map { "'" + $0.dropFirst(4) + "'" }
        guard first.hasSuffix(" the following:"), let last = bullets.last else { return String(first) }
        return first.dropLast(" the following:".count) + " " + bullets.dropLast().joined(separator: ", ") + " or " + last
    }
}
