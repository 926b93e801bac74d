import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 17 in the graph pane: CJK, emoji and combining marks in operation and queue names are
/// drawn at their true width (a wide character in a cell and its continuation), so that boxes and
/// edges keep their columns; escapes and bidirectional controls are shown as the table shows
/// them; labels are shortened by columns, never inside a character.
@Suite("Graph: wide, combining and hostile names")
struct GraphWideTextTests {
    static let caption = "hostile names: CJK, emoji, combining marks, a right-to-left override, an escape"

    /// Six sources of one sink, named as a hostile or international program names them (over two
    /// queues, so that the boxes carry queue tags, one of them wide), a wide name after the sink,
    /// and a cycle of wide names, which a banner names.
    static func model() -> DashboardModel {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "数据队列-图像")
        script.add(1, queue: 1, "plain")
        script.add(2, queue: 1, "数据库迁移 🚀")
        script.add(3, queue: 2, "🚀 launch 👨‍👩‍👧")
        script.add(4, queue: 1, "cafe\u{301} ni\u{303}o")
        script.add(5, queue: 2, "abc\u{202E}fed")
        script.add(6, queue: 1, "\u{1B}]0;pwned\u{07}title")
        script.add(7, queue: 2, "sink", after: [1, 2, 3, 4, 5, 6])
        script.add(8, queue: 2, "結果を保存", after: [7])
        script.add(9, queue: 1, "循环-甲", after: [10])
        script.add(10, queue: 1, "循环-乙", after: [9])
        return script.model()
    }

    /// The dashboard after `keys`, each frame shown on a test backend as a terminal shows it
    /// (only the changed runs of cells applied).
    static func screen(_ model: DashboardModel, _ keys: [Key], width: Int, height: Int) -> TestBackend {
        var backend = TestBackend(width: width, height: height)
        var dashboard = Interaction()
        dashboard.state.selection = OperationID(7)
        dashboard.keepSelectionValid(model)
        let composer = FrameComposer(theme: Theme(), caption: caption)
        var (frame, map) = composer.compose(model, dashboard, width: width, height: height)
        backend.draw(frame)
        for key in keys {
            dashboard.map = map
            _ = dashboard.handle(key, model: model)
            dashboard.keepSelectionValid(model)
            (frame, map) = composer.compose(model, dashboard, width: width, height: height)
            backend.draw(frame)
        }
        return backend
    }

    @Test("the graph focused, every group (g): snapshots at 80x24 and 120x40, edges in their columns, nothing raw",
          arguments: [(80, 24), (120, 40)])
    func snapshots(size: (Int, Int)) {
        let (width, height) = size
        let backend = Self.screen(Self.model(), [.character("g")], width: width, height: height)
        let text = backend.text
        #expect(text.contains("Graph: all operations"), "\(text)")
        expectSnapshot(text, named: "graph-wide-names-\(width)x\(height)")
        #expect(Self.problems(backend.screen).isEmpty, "\(Self.problems(backend.screen))\n\(text)")
        // Shown as they are, escapes as the table shows them.
        for shown in ["数据库迁移 🚀", "🚀 launch", "cafe\u{301}", "abc<U+202E>fed", "^[]0;pwned", "結果を保存", "循环-甲"] {
            #expect(text.contains(shown), "\(shown) not on the screen:\n\(text)")
        }
        // The six sources' edges meet the channel into the sink in one column of the screen.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var channels: [String: Int] = [:]
        for source in ["#1 plain", "#2 数据库", "#3 🚀", "#4 cafe\u{301}", "#5 abc", "#6 ^[]"] {
            guard let line = lines.first(where: { $0.contains(source) }),
                  let start = line.range(of: source),
                  let join = line[start.upperBound...].firstIndex(where: { "┬┤┘┐┼".contains($0) })
            else {
                Issue.record("no edge from \(source) into the sink's channel:\n\(text)")
                continue
            }
            channels[source] = TerminalText.width(String(line[..<join]))
        }
        #expect(Set(channels.values).count == 1, "channel columns \(channels)\n\(text)")
        // Every line as wide as the screen at most: no wide character counted as one column.
        for line in lines { #expect(TerminalText.width(line) <= width, "\(line)") }
    }

    @Test("a box named 数据库迁移 🚀 and one named plain: their edges join in one column")
    func wideAndPlainLineUp() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "plain")
        script.add(2, queue: 1, "数据库迁移 🚀")
        script.add(3, queue: 1, "sink", after: [1, 2])
        let pane = graphPane(script, select: 3)
        #expect(pane.text == """
            ◐ #1 plain─────────┬──○ #3 sink
            ◐ #2 数据库迁移 🚀─┘
            """)
        #expect(TerminalText.width(String(pane.lines[0].prefix { $0 != "┬" })) == 19)
        #expect(TerminalText.width(String(pane.lines[1].prefix { $0 != "┘" })) == 19)
        // In ASCII the wide characters become one `?` and a blank each: the columns stay.
        #expect(graphPane(script, select: 3, unicode: false).text == """
            @ #1 plain---------+--o #3 sink
            @ #2 ? ? ? ? ?  ? -+
            """)
        // A plain chain (drawn without the layered layout) measures its boxes in columns too.
        var chain = EventScript()
        chain.queue(1, "q")
        chain.add(1, queue: 1, "数据库迁移")
        chain.add(2, queue: 1, "plain", after: [1])
        #expect(graphPane(chain, select: 2).text == "◐ #1 数据库迁移───○ #2 plain")
    }

    @Test("labels are shortened by columns with …, never inside a wide character or a combining mark")
    func elisionByColumns() {
        var script = EventScript()
        script.queue(1, "数据队列数据队列")
        script.add(1, queue: 1, "数据库迁移数据库迁移数据库迁移")
        script.add(2, queue: 1, String(repeating: "cafe\u{301}", count: 6))
        script.add(3, queue: 1, "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧")
        script.add(4, queue: 1, "\u{1B}]0;pwned\u{07}title-and-more")
        let model = script.model()
        // "◐ #1 " is 5 columns, the name 30: at 20 the name keeps 14 columns and its `…`.
        #expect(GraphText.label(of: 1, model, width: 20) == "◐ #1 数据库迁移数据…")
        // At 19, 13 columns are left for the name: the seventh character would straddle the cut,
        // so it goes, and the label takes 18.
        #expect(GraphText.label(of: 1, model, width: 19) == "◐ #1 数据库迁移数…")
        // The queue's tag: at most 10 columns, cut whole characters too.
        #expect(GraphText.label(of: 1, model, width: 60, tagQueue: true) == "◐ #1 数据库迁移数据库迁移数据库迁移 ·数据队列…")
        // The name shortens first (to 8 columns), then the tag goes and the name takes its room.
        #expect(GraphText.label(of: 1, model, width: 30, tagQueue: true) == "◐ #1 数据库迁移数… ·数据队列…")
        #expect(GraphText.label(of: 1, model, width: 24, tagQueue: true) == "◐ #1 数据库迁移数据库迁…")
        // A letter and its combining accent stay together.
        let cafe = GraphText.label(of: 2, model, width: 16)
        #expect(cafe == "◐ #2 cafe\u{301}cafe\u{301}ca…")
        #expect(cafe.unicodeScalars.filter { $0 == "\u{301}" }.count == cafe.filter { $0 == "e\u{301}" }.count)
        // An emoji sequence (a family, joined) is kept whole or left out.
        #expect(GraphText.label(of: 3, model, width: 12) == "◐ #3 👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧…")
        #expect(GraphText.label(of: 3, model, width: 11) == "◐ #3 👨‍👩‍👧👨‍👩‍👧…")
        // An escape is shown as the table shows it, and measured as shown.
        #expect(GraphText.label(of: 4, model, width: 40) == "◐ #4 ^[]0;pwned^Gtitle-and-more")
        #expect(GraphText.label(of: 4, model, width: 20) == "◐ #4 ^[]0;pwned^Gti…")
        // Whatever the width, the label fits it and its characters are the label's, or `…`.
        for id in 1...4 {
            let whole = GraphText.label(of: OperationID(id), model, width: 200, tagQueue: true)
            for width in 0...60 {
                let label = GraphText.label(of: OperationID(id), model, width: width, tagQueue: true)
                #expect(TerminalText.width(label) <= width, "#\(id) at \(width): \(label)")
                #expect(label.allSatisfy { $0 == "…" || whole.contains($0) }, "#\(id) at \(width): \(label)")
            }
        }
    }

    @Test("the pane measures a label as TerminalText does, its own symbols and hostile text included")
    func measuredAsTerminalText() {
        let samples = ["● #12 parse ⇄ ·net ◆ in no queue", "○ ◐ ✓ ✗ ⟳ × … ▸ ·", "✓ 12 finished, 3 cancelled ▸",
                       "×40 ○ thumbnail-* ▸", "… 12 more ▸", "plain", "", "数据库迁移 🚀", "🚀 launch 👨‍👩‍👧",
                       "cafe\u{301} ni\u{303}o", "\u{301}accent first", "abc\u{202E}fed", "\u{1B}]0;pwned\u{07}title",
                       "☕ ✅ ⌚ ❤\u{FE0F} 🇯🇵 👍🏽", "ｆｕｌｌ", "한국어", "a\u{AD}b\u{200B}c", "●\u{FE0F} ◆\u{301}"]
        for sample in samples {
            #expect(GraphText.columns(sample) == TerminalText.width(sample), "\(sample.debugDescription)")
        }
    }

    @Test("the canvas: a wide character takes its cell and a continuation; one cut by the edge is a blank")
    func canvasCells() {
        var canvas = GraphCanvas(width: 12, height: 2)
        canvas.horizontal(from: 0, to: 11, y: 0, group: 1)
        let end = canvas.write("数据 ok", x: 1, y: 0, node: 0)
        #expect(end == 8 && canvas.placed.first?.width == 7)
        #expect(canvas.lines() == ["─数据 ok────", ""])
        #expect(canvas.rows()[0][1] == "数" && canvas.rows()[0][2] == Cell.continuationCharacter)
        #expect(canvas.lines(unicode: false) == ["-? ?  ok----", ""])
        // Cut by the right edge: the half that would be drawn is a blank; escapes are inert.
        canvas.write("abcdefghij数", x: 1, y: 1)
        #expect(canvas.lines()[1] == " abcdefghij")
        canvas.write("\u{1B}[2J", x: 0, y: 1)
        #expect(canvas.lines()[1] == "^[[2Jefghij")
        // Writing over half of a wide character blanks its other half.
        canvas.write("x", x: 2, y: 0)
        #expect(canvas.lines()[0] == "─ x据 ok────")
    }

    @Test("panned across wide labels: a wide character cut by either edge of the pane is a blank, the pane's border stays")
    func panning() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "数据库迁移数据库")
        script.add(2, queue: 1, "結果を保存する", after: [1])
        script.add(3, queue: 1, "🚀🚀🚀🚀🚀", after: [2])
        script.add(4, queue: 1, "🚀 终点", after: [3])
        script.add(5, queue: 1, "画像の読み込み", after: [4])
        script.add(6, queue: 1, "キュー待ち", after: [5])
        let model = script.model()
        let (width, height) = (120, 30)
        var dashboard = Interaction()
        dashboard.state.selection = OperationID(1)
        dashboard.keepSelectionValid(model)
        _ = dashboard.handle(.character("g"), model: model)
        let composer = FrameComposer(theme: Theme(), caption: Self.caption)
        let (first, map) = composer.compose(model, dashboard, width: width, height: height)
        dashboard.map = map
        guard let pane = map.panes[.graph], pane.x > 0 else {
            Issue.record("no graph pane with a border on its left:\n\(first.text)")
            return
        }
        let content = dashboard.map.graph.contentWidth
        #expect(content > pane.width, "the drawing must be wider than the pane:\n\(first.text)")
        for pan in 0...content {
            dashboard.map.graph.panX = pan
            let (frame, next) = composer.compose(model, dashboard, width: width, height: height)
            dashboard.map = next
            #expect(Self.problems(frame).isEmpty, "pan \(pan): \(Self.problems(frame))\n\(frame.text)")
            for y in pane.y..<pane.maxY {
                #expect(frame[pane.x, y] == first[pane.x, y], "pan \(pan): the pane's left border at row \(y)\n\(frame.text)")
                #expect(frame[pane.maxX - 1, y] == first[pane.maxX - 1, y], "pan \(pan): its right border at row \(y)\n\(frame.text)")
            }
        }
    }

    /// What is wrong with a screen's cells: a wide character without its continuation, a
    /// continuation without its wide character, a character that could act on the terminal.
    static func problems(_ buffer: Buffer) -> [String] {
        var problems: [String] = []
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if cell.isContinuation {
                    if x == 0 || TerminalText.columns(buffer[x - 1, y].character) != 2 || buffer[x - 1, y].isContinuation {
                        problems.append("\(x),\(y): a continuation without its wide character")
                    }
                    continue
                }
                if cell.character.unicodeScalars.contains(where: TerminalText.needsEscape) {
                    problems.append("\(x),\(y): raw \(cell.character.debugDescription)")
                }
                if TerminalText.columns(cell.character) == 2, x + 1 >= buffer.width || !buffer[x + 1, y].isContinuation {
                    problems.append("\(x),\(y): \(cell.character) without its continuation")
                }
            }
        }
        return problems
    }
}
