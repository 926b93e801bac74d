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

    /// The first line of `message`.
    public static func firstLine(_ message: String) -> String {
        message.split(separator: "\n").first.map(String.init) ?? message
    }
}
