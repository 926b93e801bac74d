/// docs/config.md's key table and example file, made from `ConfigKey.all` (the tests check
/// the guide against them, and rewrite it with `OPSCOPE_RECORD=1`).
package enum ConfigDocumentation {
    /// Every key as a Markdown table: key, type and values, default, flags, meaning.
    package static func keyTable() -> String {
        var lines = ["| key | type: values | default | flags that win over it | meaning |", "|---|---|---|---|---|"]
        for key in ConfigKey.all {
            let standard = "`\(key.defaultValue)`" + (key.defaultNote.map { " (\($0))" } ?? "")
            let flags = key.flags.isEmpty ? "none" : key.flags.map { "`\($0)`" }.joined(separator: ", ")
            lines.append("| `\(key.name)` | \(key.type): \(key.values) | \(standard) | \(flags) | \(key.meaning) |")
        }
        return lines.joined(separator: "\n")
    }

    /// A config file with every key at its default, commented out (so that the file changes
    /// nothing, even where a command's default differs), each under what it does and takes.
    package static func exampleFile() -> String {
        var lines = ["# opscope's config file: \(ConfigFile.standardLocation).",
                     "# Every key is optional, and the command line's flags win over the file.",
                     "# Each line below is a key at its default: uncomment one to change it."]
        for key in ConfigKey.all {
            lines += ["", "# \(key.meaning.replacing("`", with: ""))"]
            let article = key.type.first.map { "aeiou".contains($0) } == true ? "An" : "A"
            lines.append("# \(article) \(key.type): \(key.values)." + (key.defaultNote.map { " Default: \(key.defaultValue); \($0.replacing("`", with: ""))." } ?? ""))
            lines.append("# \(key.name) = \(key.defaultValue)")
        }
        return lines.joined(separator: "\n")
    }
}
