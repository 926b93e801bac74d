import TerminalKit
import Testing

@Suite("TerminalKit: buffer, diffing, widgets")
struct TerminalKitTests {
    @Test("writing clips to the buffer and to a clip rectangle; controls shown inert, wide characters take two columns")
    func writing() {
        var buffer = Buffer(width: 8, height: 2)
        buffer.write("hello, world", x: 2, y: 0)
        buffer.write("abcdef", x: -2, y: 1, clip: Rect(x: 0, y: 1, width: 3, height: 1))
        #expect(buffer.lines() == ["  hello,", "cde"])
        var odd = Buffer(width: 8, height: 1)
        odd.write("a\tb漢✓", x: 0, y: 0)
        #expect(odd.text == "a^Ib漢✓")
        #expect(odd[4, 0].character == "漢" && odd[5, 0].isContinuation && odd[6, 0].character == "✓")
        buffer.write("zz", x: 0, y: 5)
        #expect(buffer.lines() == ["  hello,", "cde"])
    }

    @Test("diffing sends only what changed")
    func diffing() {
        var first = Buffer(width: 40, height: 10)
        for row in 0..<10 { first.write(String(repeating: "x", count: 40), x: 0, y: row) }
        var backend = TestBackend(width: 40, height: 10)
        backend.draw(first)
        #expect(backend.lastCellsWritten == 400)
        var second = first
        second.write("o", x: 17, y: 4)
        backend.draw(second)
        #expect(backend.lastCellsWritten == 1)
        #expect(second.changes(since: first) == [Buffer.Run(x: 17, y: 4, cells: [Cell("o")])])
        backend.draw(second)
        #expect(backend.lastCellsWritten == 0)
        // Two changes close together travel as one run; far apart, as two.
        var third = second
        third.write("a", x: 1, y: 0)
        third.write("b", x: 3, y: 0)
        third.write("c", x: 30, y: 0)
        #expect(third.changes(since: second).map(\.cells.count) == [3, 1])
        // A style change is a change.
        var styled = third
        styled.restyle(Rect(x: 0, y: 9, width: 2, height: 1)) { $0.attributes = .bold }
        #expect(styled.changes(since: third).count == 1)
        // Resized: everything is sent.
        backend.draw(Buffer(width: 5, height: 2))
        #expect(backend.lastCellsWritten == 10)
    }

    @Test("a frame around text, in Unicode and ASCII")
    func frames() {
        var buffer = Buffer(width: 14, height: 4)
        let inner = Frame(title: "queues").render(into: &buffer, area: buffer.area)
        TextBlock(["net 2/4", "ui 1/1 suspended"]).render(into: &buffer, area: inner)
        #expect(buffer.text == """
            ┌ queues ────┐
            │net 2/4     │
            │ui 1/1 suspe│
            └────────────┘
            """)
        var ascii = Buffer(width: 6, height: 3)
        Frame(title: "a", ascii: true).render(into: &ascii, area: ascii.area)
        #expect(ascii.lines() == ["+ a -+", "|    |", "+----+"])
    }

    @Test("a table keeps the selection visible and marks it")
    func table() {
        let rows = (1...20).map { [TextBlock.Span("#\($0)"), TextBlock.Span("op\($0)")] }
        var table = TableView(columns: [.init("ID", width: 4), .init("NAME", width: 10)], rows: rows, selected: 14)
        var buffer = Buffer(width: 15, height: 5)
        table.render(into: &buffer, area: buffer.area)
        #expect(buffer.text == """
            ID   NAME
            #12  op12
            #13  op13
            #14  op14
            #15  op15
            """)
        #expect(buffer[0, 4].style.attributes.contains(.reverse))
        #expect(!buffer[0, 3].style.attributes.contains(.reverse))
        table.selected = 0
        buffer = Buffer(width: 15, height: 3)
        table.render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["ID   NAME", "#1   op1", "#2   op2"])
        #expect(TableView.scrolledOffset(selected: 19, offset: 0, visibleRows: 4, count: 20) == 16)
        #expect(TableView.scrolledOffset(selected: nil, offset: 50, visibleRows: 4, count: 20) == 16)
        #expect(TableView.scrolledOffset(selected: 3, offset: 0, visibleRows: 0, count: 20) == 0)
    }

    @Test("every widget draws in 0x0 and 1x1 areas, and never outside its area", arguments: [0, 1, 2])
    func tiny(size: Int) {
        let widgets: [any Widget] = [
            TextBlock(["a long line"]),
            TableView(columns: [.init("ID", width: 4), .init("NAME", width: 4)], rows: [[.init("#1"), .init("x")]], selected: 0),
        ]
        for widget in widgets {
            var buffer = Buffer(width: 5, height: 5)
            widget.render(into: &buffer, area: Rect(x: 2, y: 2, width: size, height: size))
            for y in 0..<5 {
                for x in 0..<5 where !(x >= 2 && x < 2 + size && y >= 2 && y < 2 + size) {
                    #expect(buffer[x, y] == .blank, "drew outside its area at \(x),\(y)")
                }
            }
        }
        var buffer = Buffer(width: size, height: size)
        let inner = Frame(title: "t").render(into: &buffer, area: buffer.area)
        #expect(inner.width <= max(0, size - 2))
        var empty = Buffer(width: 0, height: 0)
        TextBlock(["x"]).render(into: &empty, area: Rect(x: 0, y: 0, width: 3, height: 3))
        #expect(empty.text.isEmpty)
    }

    @Test("colours fall back to 8")
    func colours() {
        #expect(Color.basic(9).basic8 == 1)
        #expect(Color.indexed(196).basic8 == 1)   // bright red in the cube
        #expect(Color.indexed(21).basic8 == 4)    // blue
        #expect(Color.indexed(250).basic8 == 7)   // light gray
        #expect(Color.default.basic8 == nil)
    }
}
