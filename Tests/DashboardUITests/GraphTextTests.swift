import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import Testing

/// Layouts of small graphs, frozen as the text a person sees.
@Suite("Graph drawings as text")
struct GraphTextTests {
    /// The focused layered drawing of a script's model.
    private func focused(_ script: EventScript, focus: OperationID? = nil, unicode: Bool = true) -> String {
        let graph = FocusedGraph.build(script.model(), focus: focus)
        return graph.draw().1.lines(unicode: unicode).joined(separator: "\n")
    }

    /// The whole-graph lane list.
    private func lanes(_ script: EventScript, width: Int = 60) -> String {
        let model = script.model()
        let list = DependencyList.build(model)
        return list.draw(rows: 0..<list.rows.count, width: width) { model[$0]?.label ?? "?" }
            .lines().joined(separator: "\n")
    }

    @Test("a diamond: fan-out, fan-in, joins where edges share an end")
    func diamond() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [1])
        script.add(4, queue: 1, "d", after: [2, 3])
        #expect(focused(script, focus: 4) == """
            ◐ #1 a─┬──○ #2 b─┬──○ #4 d
                   └──○ #3 c─┘
            """)
        #expect(lanes(script) == """
            ●─┐  #1 a
            ● │  #2 b
            │ ●  #3 c
            ●─┘  #4 d
            """)
    }

    @Test("fan-out and fan-in share one branch each")
    func fan() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "fetch")
        for (id, name) in [(2, "resize"), (3, "blur"), (4, "crop"), (5, "tag")] { script.add(id, queue: 1, name, after: [1]) }
        script.add(6, queue: 1, "upload", after: [2, 3, 4, 5])
        #expect(focused(script, focus: 1) == """
            ◐ #1 fetch─┬──○ #2 resize─┬──○ #6 upload
                       ├──○ #3 blur───┤
                       ├──○ #4 crop───┤
                       └──○ #5 tag────┘
            """)
        #expect(lanes(script) == """
            ●─┬─┬─┐  #1 fetch
            ● │ │ │  #2 resize
            │ ● │ │  #3 blur
            │ │ ● │  #4 crop
            │ │ │ ●  #5 tag
            ●─┴─┴─┘  #6 upload
            """)
    }

    @Test("a long edge runs past the layers it skips, in Unicode and ASCII")
    func longEdge() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [2])
        script.add(4, queue: 1, "d", after: [3, 1])
        #expect(focused(script, focus: 4) == """
            ◐ #1 a─┬──────────────────┬──○ #4 d
                   └──○ #2 b───○ #3 c─┘
            """)
        #expect(focused(script, focus: 4, unicode: false) == """
            @ #1 a-+------------------+--o #4 d
                   +--o #2 b---o #3 c-+
            """)
        #expect(lanes(script) == """
            ●─┐  #1 a
            ● │  #2 b
            ● │  #3 c
            ●─┘  #4 d
            """)
    }

    @Test("edges across queues: each box names its queue")
    func crossQueue() {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "ui", max: 1)
        script.add(1, queue: 1, "download-1")
        script.add(2, queue: 1, "download-2")
        script.add(3, queue: 1, "parse-1", after: [1])
        script.add(4, queue: 1, "parse-2", after: [2])
        script.add(5, queue: 2, "update-ui", after: [3, 4])
        #expect(focused(script, focus: 5) == """
            ◐ #1 download-1 ·net───○ #3 parse-1 ·net─┬──○ #5 update-ui ·ui
            ◐ #2 download-2 ·net───○ #4 parse-2 ·net─┘
            """)
        #expect(lanes(script) == """
            ●    #1 download-1
            │ ●  #2 download-2
            ● │  #3 parse-1
            │ ●  #4 parse-2
            ●─┘  #5 update-ui
            """)
    }

    @Test("a cycle: its members are marked and its back edge is dashed")
    func cycle() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "first", after: [2])
        script.add(2, queue: 1, "second", after: [1])
        script.add(3, queue: 1, "after", after: [2])
        #expect(focused(script, focus: 3) == """
            ⟳ #1 first┄┄┄⟳ #2 second───○ #3 after
            """)
        // Both edges of the cycle are marked; the layout reverses one of them (the back edge) to layer it.
        let graph = FocusedGraph.build(script.model(), focus: 3)
        #expect(graph.cycleEdges.count == 2)
        #expect(graph.draw().0.reversedEdges.count == 1)
    }

    @Test("folding: finished operations per level, identical siblings")
    func folding() {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...5 {
            script.add(id, queue: 1, "prefetch")
            script.run(id)
        }
        script.add(6, queue: 1, "index", after: [1, 2, 3, 4, 5])
        for id in 7...46 { script.add(id, queue: 1, "thumbnail", after: [6]) }
        script.add(47, queue: 1, "publish", after: Array(7...46))
        #expect(focused(script, focus: 6) == """
            ✓ 5 done───○ #6 index───×40 ○ thumbnail───○ #47 publish
            """)
        let graph = FocusedGraph.build(script.model(), focus: 6)
        let siblings = graph.nodes.first { $0.members.count == 40 }
        #expect(siblings?.onCriticalPath == true)
        #expect(graph.nodes.first { $0.members.count == 5 }?.state == .finished)
    }

    @Test("two sources into two targets: joins where edges meet, crossings where they only pass")
    func crossing() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        script.add(3, queue: 1, "c", after: [1, 2])
        script.add(4, queue: 1, "d", after: [1, 2])
        script.add(5, queue: 1, "e", after: [1])
        #expect(focused(script) == """
            ◐ #1 a─┬┬──○ #5 e
            ◐ #2 b─┴┼──○ #3 c
                    └──○ #4 d
            """)
        #expect(lanes(script) == """
            ●─┬─┐      #1 a
            │ │ │ ●─┐  #2 b
            ●─│─│─┘ │  #3 c
              ●─│───┘  #4 d
                ●      #5 e
            """)
    }

    @Test("the canvas: four arms per cell; a crossing of two edges is not a join")
    func canvasCrossing() {
        var canvas = GraphCanvas(width: 5, height: 3)
        canvas.horizontal(from: 0, to: 4, y: 1, group: 1)
        canvas.vertical(from: 0, to: 2, x: 2, group: 2)
        #expect(canvas.isCrossing(x: 2, y: 1))
        #expect(canvas.arms(x: 2, y: 1) == [.up, .down, .left, .right])
        #expect(canvas.lines() == ["  │", "──│──", "  │"])
        var joined = GraphCanvas(width: 5, height: 3)
        joined.horizontal(from: 0, to: 4, y: 1, group: 1)
        joined.vertical(from: 0, to: 2, x: 2, group: 1)
        #expect(!joined.isCrossing(x: 2, y: 1))
        #expect(joined.lines() == ["  │", "──┼──", "  │"])
        #expect(joined.lines(unicode: false) == ["  |", "--+--", "  |"])
        var dashed = GraphCanvas(width: 3, height: 1)
        dashed.horizontal(from: 0, to: 2, y: 0, group: 1, dashed: true)
        #expect(dashed.lines() == ["┄┄┄"])
    }

    @Test("empty and tiny areas draw without crashing")
    func tiny() {
        let empty = EventScript()
        #expect(focused(empty).isEmpty)
        #expect(lanes(empty).isEmpty)
        #expect(GraphCanvas(width: 0, height: 0).lines().isEmpty)
        var one = GraphCanvas(width: 1, height: 1)
        one.write("#12 long label", x: 0, y: 0)
        one.horizontal(from: -5, to: 5, y: 0, group: 1)
        one.vertical(from: -5, to: 5, x: 3, group: 1)
        #expect(one.lines() == ["#"])
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        let model = script.model()
        let list = DependencyList.build(model)
        for width in [0, 1, 2] {
            let canvas = list.draw(rows: 0..<list.rows.count, width: width) { model[$0]?.label ?? "?" }
            #expect(canvas.lines().allSatisfy { $0.count <= width })
        }
        #expect(list.draw(rows: 5..<9, width: 10) { _ in "x" }.lines().isEmpty)
        #expect(GraphDrawing.truncate("download", to: 1) == "d" && GraphDrawing.truncate("download", to: 0) == "")
    }
}
