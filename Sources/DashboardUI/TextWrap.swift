import TerminalKit

/// Fitting sentences into columns without cutting words. Widths are terminal columns (a CJK
/// character or an emoji takes two), and text is made visible first (see `TerminalText`).
enum TextWrap {
    /// Greedy word wrap to `width` columns. Words are never split, unless one is longer than a
    /// whole line (then it is cut into line-sized pieces).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in words(TerminalText.visible(text)) {
            var word = Substring(word)
            var wordWidth = TerminalText.width(String(word))
            if !current.isEmpty, currentWidth + 1 + wordWidth <= width {
                current += " " + word
                currentWidth += 1 + wordWidth
                continue
            }
            if !current.isEmpty { lines.append(current) }
            while wordWidth > width {
                let piece = prefix(word, columns: width)
                lines.append(String(piece))
                word = word.dropFirst(piece.count)
                wordWidth = TerminalText.width(String(word))
            }
            current = String(word)
            currentWidth = wordWidth
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
        let text = TerminalText.visible(text)
        guard TerminalText.width(text) > width else { return text }
        guard width > 1 else { return String(prefix(Substring(text), columns: max(0, width))) }
        var result = ""
        for word in words(text) {
            let next = result.isEmpty ? String(word) : result + " " + word
            if TerminalText.width(next) + 1 > width { break }
            result = next
        }
        // A first word longer than the room: cut it (there is no better place).
        if result.isEmpty { result = String(prefix(Substring(text), columns: width - 1)) }
        return result + "…"
    }

    /// The longest start of `text` that takes at most `columns` columns (at least one character
    /// when `columns` > 0, so that a wide character never stalls a wrap).
    private static func prefix(_ text: Substring, columns: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = TerminalText.columns(text[index])
            if used + width > columns, end > text.startIndex || columns < 1 { break }
            used += width
            end = text.index(after: index)
            if used >= columns { break }
        }
        return text[text.startIndex..<end]
    }
}

/// `12.3` (no Foundation formatting on the frame path).
func oneDecimal(_ value: Double) -> String {
    guard value.isFinite, value >= 0 else { return "0.0" }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// Shortening text to a width with an ellipsis. Widths are terminal columns, not characters:
/// a CJK name or an emoji takes two, so a column of names stays aligned whatever they hold.
enum GraphTextFit {
    static func fit(_ text: String, _ width: Int) -> String { TerminalText.truncate(text, to: width) }

    static func pad(_ text: String, _ width: Int) -> String { TerminalText.padded(text, to: width) }
}
