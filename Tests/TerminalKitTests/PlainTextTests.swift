@testable import TerminalKit
import Testing

/// The fast path of `Buffer.write` and `TerminalText.visible`: text whose every scalar is
/// "plain" is drawn one cell per scalar without grapheme breaking or width lookups. That is only
/// right if every plain scalar is a character of its own next to anything plain, one column
/// wide, and harmless; these tests check it for every plain scalar.
@Suite("Terminal text: the plain fast path")
struct PlainTextTests {
    static let plainScalars: [Unicode.Scalar] = (0x20...0x25FF).compactMap { Unicode.Scalar(UInt32($0)) }.filter(TerminalText.isPlain)

    @Test("every plain scalar is its own character, one column, needs no escape, and is no mark or emoji")
    func plainScalarsAreSimple() {
        var problems: [String] = []
        for scalar in Self.plainScalars {
            let text = String(scalar)
            let category = scalar.properties.generalCategory
            let simple = text.count == 1 && ("a" + text).count == 2 && (text + "a").count == 2 && (text + text).count == 2
                && TerminalText.columns(Character(scalar)) == 1 && !TerminalText.needsEscape(scalar)
                && ![.nonspacingMark, .enclosingMark, .spacingMark, .format, .control, .lineSeparator, .paragraphSeparator].contains(category)
                && !scalar.properties.isEmojiPresentation
            if !simple { problems.append(String(scalar.value, radix: 16)) }
        }
        #expect(problems.isEmpty, "not simple: \(problems.prefix(20))")
        #expect(Self.plainScalars.count > 1_000)
    }

    @Test("text drawn through the fast path and the general path gives the same cells")
    func samePathsSameCells() {
        let texts = ["plain ascii", "● #12 op ▲ 3.2 ms … ─│┼ ←↑→↓ ≤≥ café", "é at the start: \u{301}e", "wide: 漢字 and 🙂", "esc \u{1B}[2J"]
        for text in texts {
            var fast = Buffer(width: 60, height: 1)
            fast.write(text, x: 1, y: 0)
            // The general path: one character at a time, as visible text.
            var general = Buffer(width: 60, height: 1)
            var column = 1
            for character in TerminalText.visible(text) {
                let width = TerminalText.columns(character)
                general[column, 0] = Cell(character)
                if width == 2 { general[column + 1, 0] = Cell(Cell.continuationCharacter) }
                column += width
            }
            #expect(fast == general, "\(text)")
        }
    }
}
