/// Fitting sentences into columns without cutting words.
enum TextWrap {
    /// Greedy word wrap to `width` columns. Words are never split, unless one is longer than a
    /// whole line (then it is cut into line-sized pieces).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in words(text) {
            var word = Substring(word)
            if !current.isEmpty, current.count + 1 + word.count <= width {
                current += " " + word
                continue
            }
            if !current.isEmpty { lines.append(current) }
            while word.count > width {
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            current = String(word)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The words of `text`; a number and its unit (`48 ms`) count as one word, so that a line
    /// never ends between them.
    static func words(_ text: String) -> [String] {
        var result: [String] = []
        for word in text.split(separator: " ") {
            if let last = result.last, last.last?.isNumber == true, isUnit(word) {
                result[result.count - 1] = last + " " + word
            } else {
                result.append(String(word))
            }
        }
        return result
    }

    private static func isUnit(_ word: Substring) -> Bool {
        let letters = word.prefix { $0.isLetter }
        guard ["ns", "µs", "us", "ms", "s", "min", "h"].contains(String(letters)) else { return false }
        return word.dropFirst(letters.count).allSatisfy { !$0.isLetter }
    }

    /// `text` in at most `width` columns, cut after a whole word with `…` when it does not fit.
    static func fit(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(0, width))) }
        var result = ""
        for word in words(text) {
            let next = result.isEmpty ? String(word) : result + " " + word
            if next.count + 1 > width { break }
            result = next
        }
        // A first word longer than the room: cut it (there is no better place).
        if result.isEmpty { result = String(text.prefix(width - 1)) }
        return result + "…"
    }
}
