/// Where a key is written in the file's text, and how an error writes a key's name. TOMLKit
/// gives a line for syntax errors only, not for the keys of a parsed table, so the line of a
/// key whose value is wrong is found here: its `key =` line before the first table header, or
/// its `[key]` header.
enum KeyLocation {
    /// The line (from 1) where the top-level key `name` is set; nil when it is not found.
    static func line(of name: String, in text: String) -> Int? {
        let spellings = [name, "\"\(name)\"", "'\(name)'"]
        var inTable = false
        var inMultilineString = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let opensOrCloses = line.ranges(of: "\"\"\"").count + line.ranges(of: "'''").count
            defer { if opensOrCloses % 2 == 1 { inMultilineString.toggle() } }
            if inMultilineString { continue }
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("[") {
                inTable = true
                rest = rest.drop { $0 == "[" }.drop { $0 == " " || $0 == "\t" }
                if spellings.contains(where: { follows(rest, $0, by: "].") }) { return index + 1 }
            } else if !inTable, spellings.contains(where: { follows(rest, $0, by: "=.") }) {
                return index + 1
            }
        }
        return nil
    }

    /// True when `text` starts with `word`, then blanks, then one of `marks`.
    private static func follows(_ text: Substring, _ word: String, by marks: String) -> Bool {
        guard text.hasPrefix(word) else { return false }
        let after = text.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
        return after.first.map { marks.contains($0) } ?? false
    }

    /// A key as the file would write it: bare when it can be, else quoted.
    static func written(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? name : TOMLText.quoted(name)
    }

    /// The edit distance between two names (insertions, deletions, substitutions), for "did you
    /// mean": `colour` is 1 from `color`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
