/// Text as a terminal shows it: how many columns each character takes, and what must never
/// reach the terminal as it is.
///
/// Names come from the observed program, which may be hostile or broken: an operation called
/// `"\u{1B}]0;pwned\u{7}"` would retitle the window, `"\u{1B}[2J"` would clear it, and a
/// right-to-left override (U+202E) would reverse what follows on the line. Every string drawn
/// passes through ``visible(_:)`` (``Buffer/write(_:x:y:style:clip:)`` does it), which shows such
/// characters as inert text: `^[` for ESC (caret notation for C0 and DEL), `<U+202E>` for C1
/// controls, bidirectional controls and separators. Wide characters (CJK, emoji) keep their
/// true two columns, so that what the model of the screen says and what the terminal draws agree.
public enum TerminalText {
    /// Columns `character` takes on a terminal once made visible: 0, 1 or 2.
    ///
    /// Follows what terminals (and glibc's `wcwidth`, which ncurses uses) do: East Asian Wide and
    /// Fullwidth characters and emoji shown as emoji take two; everything else one.
    public static func columns(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isWide(first) { return 2 }
        // An emoji sequence (a flag, a skin tone, a joined family, a keycap with its selector)
        // is drawn as one two-column emoji.
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value) }),
           first.properties.isEmoji {
            return 2
        }
        return 1
    }

    /// Columns `text` takes once made visible.
    public static func width(_ text: String) -> Int {
        var total = 0
        for character in visible(text) { total += columns(character) }
        return total
    }

    /// `text` with every character that could act on the terminal, or reorder the line, shown
    /// as inert text instead. Clean text is returned unchanged (and without copying).
    public static func visible(_ text: String) -> String {
        if isPlain(text) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) || startsWithMark(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var atStart = true
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += escape(scalar)
            } else {
                // A combining mark with nothing to combine with would join the cell before it on
                // screen: give it a dotted circle to sit on, as typography does.
                if atStart, scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
                    result.unicodeScalars.append("\u{25CC}")
                }
                result.unicodeScalars.append(scalar)
            }
            atStart = false
        }
        return result
    }

    /// `text` made visible and cut to at most `width` columns, ending with `…` when cut. A wide
    /// character that would straddle the edge is left out rather than split.
    public static func truncate(_ text: String, to width: Int) -> String {
        let shown = visible(text)
        guard width > 0 else { return "" }
        var total = 0
        for character in shown {
            total += columns(character)
            if total > width { break }
        }
        guard total > width else { return shown }
        var result = ""
        var used = 0
        for character in shown {
            let columns = columns(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` made visible and padded with spaces (or cut, with `…`) to exactly `width` columns.
    public static func padded(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        let room = width - Self.width(cut)
        return room > 0 ? cut + String(repeating: " ", count: room) : cut
    }

    // MARK: Classification

    /// True when every scalar of `text` is plain (see `isPlain(_:)` for scalars): such text is
    /// visible as it is, one character and one column per scalar. Most of what a frame draws is
    /// (names, numbers, the dashboard's own glyphs), and checking the scalars' values is far
    /// cheaper than the Unicode properties and the grapheme breaking the general case needs.
    static func isPlain(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where !isPlain(scalar) { return false }
        return true
    }

    /// A scalar that is a character of its own whatever surrounds it (no mark, joiner, selector,
    /// or anything else that extends a grapheme), one column wide (no wide or emoji-presentation
    /// character), and needs no escape: printable ASCII, Latin-1 and Latin Extended (before the
    /// combining marks at U+0300, without the soft hyphen), punctuation (U+2010-2027,
    /// U+2030-205E), arrows and mathematical operators, box drawing, block elements and
    /// geometric shapes up to U+25FC (U+25FD and U+25FE are emoji).
    @inline(__always)
    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x22FF, 0x2500...0x25FC: true
        default: false
        }
    }

    /// Whether `scalar` must not reach the terminal as it is (controls, escape, bidirectional
    /// controls, line separators); backends drop any that reach them despite ``visible(_:)``.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:  // bidirectional controls
            return true
        case 0x2028, 0x2029:  // line and paragraph separators: would break the row
            return true
        case 0xFFF9...0xFFFB:  // interlinear annotation controls
            return true
        default:
            return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x20 { return "^" + String(Character(Unicode.Scalar(UInt8(value + 0x40)))) }
        if value == 0x7F { return "^?" }
        let hex = String(value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    private static func startsWithMark(_ text: String) -> Bool {
        // Marks begin at U+0300 (combining grave accent): nothing before needs the lookup.
        guard let first = text.unicodeScalars.first, first.value >= 0x300 else { return false }
        return first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges and emoji with emoji presentation.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        if scalar.properties.isEmojiPresentation { return true }
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
