import TerminalKit
import Testing

/// Hostile and international text: nothing that acts on a terminal gets through, and every
/// character takes the columns a terminal gives it.
@Suite("TerminalText: visible text and true widths")
struct TerminalTextTests {
    /// Names a hostile or broken program could give its operations.
    static let hostile: [String] = [
        "\u{1B}]0;pwned\u{07}title",        // window title change (OSC 0)
        "\u{1B}[2Jclear",                   // clear screen (CSI)
        "\u{1B}]52;c;aGVsbG8=\u{07}clip",    // clipboard write (OSC 52)
        "bell\u{07}\u{08}\u{7F}\r\nnext",    // bell, backspace, delete, line breaks
        "\u{9B}31mC1 CSI",                  // the 8-bit CSI
        "abc\u{202E}fed\u{202C} \u{2066}iso\u{2069} \u{200F}rlm",  // bidi overrides and isolates
        "line\u{2028}sep",
    ]

    @Test("controls, escapes and bidirectional controls are shown as text, never passed through")
    func escaping() {
        #expect(TerminalText.visible("\u{1B}]0;pwned\u{07}") == "^[]0;pwned^G")
        #expect(TerminalText.visible("a\u{202E}b") == "a<U+202E>b")
        #expect(TerminalText.visible("\u{9B}x") == "<U+009B>x")
        #expect(TerminalText.visible("\u{7F}") == "^?")
        #expect(TerminalText.visible("\u{0}") == "^@")
        for name in Self.hostile {
            let shown = TerminalText.visible(name)
            #expect(!shown.unicodeScalars.contains(where: TerminalText.needsEscape), "\(shown.debugDescription)")
            var buffer = Buffer(width: 60, height: 1)
            buffer.write(name, x: 0, y: 0)
            for x in 0..<60 {
                let cell = buffer[x, 0]
                #expect(cell.isContinuation || !cell.character.unicodeScalars.contains(where: TerminalText.needsEscape))
            }
        }
        let clean = "plain name – ünïcödé ✓"
        #expect(TerminalText.visible(clean) == clean)
    }

    @Test("CJK and emoji take two columns, combining marks none of their own")
    func widths() {
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("漢字") == 4)
        #expect(TerminalText.width("한국어") == 6)
        #expect(TerminalText.width("🚀") == 2)
        #expect(TerminalText.width("👨‍👩‍👧") == 2)
        #expect(TerminalText.width("🇫🇷") == 2)
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("ｆｕｌｌ") == 8)
        #expect(TerminalText.width("✓") == 1)
        // A mark with nothing before it gets a dotted circle to sit on.
        #expect(TerminalText.visible("\u{301}x") == "\u{25CC}\u{301}x")
        #expect(TerminalText.width("\u{301}x") == 2)
    }

    @Test("truncating counts columns, ends with …, and never splits a wide character")
    func truncating() {
        #expect(TerminalText.truncate("download", to: 5) == "down…")
        #expect(TerminalText.truncate("漢字漢字", to: 5) == "漢字…")
        #expect(TerminalText.truncate("漢字漢字", to: 4) == "漢…")
        #expect(TerminalText.truncate("short", to: 10) == "short")
        #expect(TerminalText.padded("漢x", to: 5) == "漢x  ")
        #expect(TerminalText.width(TerminalText.padded("🚀🚀🚀🚀", to: 5)) == 5)
        let long = String(repeating: "名前", count: 5_000)
        #expect(TerminalText.width(TerminalText.truncate(long, to: 30)) <= 30)
    }

    @Test("a wide character takes its cell and the next; overwriting half of it clears the other half")
    func wideCells() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.write("漢字", x: 0, y: 0)
        #expect(buffer.text == "漢字")
        #expect(buffer[1, 0].isContinuation && buffer[3, 0].isContinuation)
        buffer.write("x", x: 1, y: 0)   // the right half of 漢
        #expect(buffer.text == " x字")
        buffer.write("y", x: 2, y: 0)   // the left half of 字
        #expect(buffer.text == " xy")
        #expect(!buffer[3, 0].isContinuation)
        // Straddling the clip's edge: a blank, not half a character.
        var clipped = Buffer(width: 6, height: 1)
        let end = clipped.write("ab漢", x: 0, y: 0, clip: Rect(x: 0, y: 0, width: 3, height: 1))
        #expect(end == 4)
        #expect(clipped.text == "ab")
        #expect((0..<6).allSatisfy { !clipped[$0, 0].isContinuation })
        // Filling over half of a wide character clears the other half.
        var filled = Buffer(width: 6, height: 1)
        filled.write("漢字漢", x: 0, y: 0)
        filled.fill(Rect(x: 1, y: 0, width: 2, height: 1), with: Cell("-"))
        #expect(filled.lines() == [" -- 漢"])
    }

    @Test("a change to the right half of a wide character redraws it from its left half")
    func diffingWide() {
        var first = Buffer(width: 4, height: 1)
        first.write("漢", x: 0, y: 0)
        var second = first
        second.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.attributes.insert(.bold) }
        let runs = second.changes(since: first)
        #expect(runs.first?.x == 0)
        #expect(runs.first?.cells.first?.character == "漢")
        var backend = TestBackend(width: 4, height: 1)
        backend.draw(second)
        #expect(backend.text == "漢")
    }
}
