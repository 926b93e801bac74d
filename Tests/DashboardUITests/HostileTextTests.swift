import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 17, hostile text: names a broken or hostile program gives its operations and queues
/// are shown, never obeyed, and wide text keeps the columns aligned.
@Suite("UI: hostile and international names")
struct HostileTextTests {
    static let names: [String] = [
        "\u{1B}]0;pwned\u{07}title",
        "\u{1B}[2Jwipe",
        "\u{1B}]52;c;aGVsbG8=\u{07}clip",
        "abc\u{202E}fed\u{2066}iso\u{2069}",
        "画像の読み込み",
        "🚀 launch 👨‍👩‍👧",
        "cafe\u{301} ni\u{303}o",
        "ctl\u{07}\u{08}\r\n\u{9B}2J",
        String(repeating: "long-名前-", count: 1_200),
    ]

    static func model() -> DashboardModel {
        var script = EventScript()
        script.queue(1, "\u{1B}[31mred\u{1B}]0;q\u{07}", max: 1)
        script.queue(2, "キュー", max: 2)
        script.add(1, queue: 1, "plain")
        for (index, name) in names.enumerated() { script.add(index + 2, queue: index % 2 + 1, name, after: [1]) }
        script.start(1)
        return script.model()
    }

    static func dump(_ buffer: Buffer) -> String { buffer.text }

    @Test("no control, escape or bidirectional character reaches any cell, on any view, at 80x24 and 120x40")
    func nothingEscapes() {
        let model = Self.model()
        for (width, height) in [(80, 24), (120, 40), (200, 60)] {
            for selected in [2, 5, 9, 10] {
                for view in ["1", "2", "3", "4"] {
                    var dashboard = board(model, select: OperationID(selected))
                    press([.character(Character(view))], &dashboard, model, width: width, height: height)
                    let (buffer, _) = screen(model, dashboard, width: width, height: height)
                    for y in 0..<buffer.height {
                        for x in 0..<buffer.width {
                            let cell = buffer[x, y]
                            let unsafe = !cell.isContinuation && cell.character.unicodeScalars.contains(where: TerminalText.needsEscape)
                            #expect(!unsafe, "view \(view) \(width)x\(height) cell \(x),\(y): \(cell.character.debugDescription)")
                        }
                    }
                }
            }
        }
    }

    @Test("escapes are shown as text; CJK, emoji and combining marks as they are")
    func shownAsText() {
        let model = Self.model()
        let text = screen(model, board(model, select: 2), width: 200, height: 60).0.text
        #expect(text.contains("^[]0;pwned^Gtitle"), "\(text)")
        #expect(text.contains("画像の読み込み"))
        #expect(text.contains("🚀 launch"))
        #expect(text.contains("cafe\u{301}"))
        #expect(text.contains("<U+202E>"))
    }

    @Test("wide names keep the table's columns aligned")
    func aligned() {
        let model = Self.model()
        for (width, height) in [(80, 24), (120, 40)] {
            let (buffer, _) = screen(model, board(model, select: 1), width: width, height: height)
            // The queue column: where each operation row shows its queue's name.
            var starts: Set<Int> = []
            for y in 0..<buffer.height {
                let row = (0..<buffer.width).map { buffer[$0, y] }
                let line = row.map { String($0.character) }.joined()
                // Operation rows (a queue line says "pending N" too, and "done N").
                guard line.contains("pending") || line.contains("executing"), !line.contains("  done "),
                      let x = [displayColumn(of: "キュー", in: row), displayColumn(of: "^[[31m", in: row)].compactMap({ $0 }).min()
                else { continue }
                starts.insert(x)
            }
            #expect(starts.count == 1, "\(width)x\(height): queue column starts at \(starts.sorted())\n\(buffer.text)")
        }
    }

    /// The screen column where `text` starts in a row of cells, if it is there.
    private func displayColumn(of text: String, in row: [Cell]) -> Int? {
        let wanted = Array(text)
        guard !wanted.isEmpty else { return nil }
        var x = 0
        while x < row.count {
            var match = true
            var at = x
            for character in wanted {
                while at < row.count, row[at].isContinuation { at += 1 }
                guard at < row.count, row[at].character == character else { match = false; break }
                at += 1
            }
            if match { return x }
            x += 1
        }
        return nil
    }
}
