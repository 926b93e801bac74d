import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The graph pane's pictures of small graphs, frozen as the text a person sees (left to right:
/// a dependency before the operations that wait for it).
@Suite("Graph drawings as text")
struct GraphTextTests {
    @Test("a diamond: fan-out, fan-in, joins where edges share an end")
    func diamond() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [1])
        script.add(4, queue: 1, "d", after: [2, 3])
        #expect(graphPane(script, select: 4).text == """
            ◐ #1 a─┬──○ #2 b─┬──○ #4 d
                   └──○ #3 c─┘
            """)
    }

    @Test("fan-out and fan-in share one branch each; operations with names of their own are not folded")
    func fan() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "fetch")
        for (id, name) in [(2, "resize"), (3, "blur"), (4, "crop"), (5, "tag")] { script.add(id, queue: 1, name, after: [1]) }
        script.add(6, queue: 1, "upload", after: [2, 3, 4, 5])
        #expect(graphPane(script, select: 1).text == """
            ◐ #1 fetch─┬──○ #2 resize─┬──○ #6 upload
                       ├──○ #3 blur───┤
                       ├──○ #4 crop───┤
                       └──○ #5 tag────┘
            """)
    }

    @Test("a long edge runs past the layers it skips, in Unicode and in ASCII")
    func longEdge() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        script.add(3, queue: 1, "c", after: [2])
        script.add(4, queue: 1, "d", after: [3, 1])
        #expect(graphPane(script, select: 4).text == """
            ◐ #1 a─┬──────────────────┬──○ #4 d
                   └──○ #2 b───○ #3 c─┘
            """)
        #expect(graphPane(script, select: 4, unicode: false).text == """
            @ #1 a-+------------------+--o #4 d
                   +--o #2 b---o #3 c-+
            """)
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
        #expect(graphPane(script, select: 1).text == """
            ◐ #1 a─┬┬──○ #5 e
            ◐ #2 b─┴┼──○ #3 c
                    └──○ #4 d
            """)
    }

    @Test("edges across queues: each box names its queue (within one queue, none does)")
    func crossQueue() {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "ui", max: 1)
        script.add(1, queue: 1, "download-1")
        script.add(2, queue: 1, "download-2")
        script.add(3, queue: 1, "parse-1", after: [1])
        script.add(4, queue: 1, "parse-2", after: [2])
        script.add(5, queue: 2, "update-ui", after: [3, 4])
        #expect(graphPane(script, select: 5).text == """
            ◐ #1 download-1 ·net───○ #3 parse-1 ·net─┬──○ #5 update-ui ·ui
            ◐ #2 download-2 ·net───○ #4 parse-2 ·net─┘
            """)
        #expect(graphPane(script, select: 5, unicode: false).text == """
            @ #1 download-1 /net---o #3 parse-1 /net-+--o #5 update-ui /ui
            @ #2 download-2 /net---o #4 parse-2 /net-+
            """)
        #expect(graphPane(script, select: 1).text.contains("·net"), "the group spans two queues")
        var single = EventScript()
        single.queue(1, "net")
        single.add(1, queue: 1, "a")
        single.add(2, queue: 1, "b", after: [1])
        #expect(graphPane(single, select: 2).text == "◐ #1 a───○ #2 b")
    }

    @Test("a cycle: a banner names it and what to cancel, its members are marked, the edge that closes it runs back dashed")
    func cycle() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "first", after: [3])
        script.add(2, queue: 1, "second", after: [1])
        script.add(3, queue: 1, "third", after: [2])
        script.add(4, queue: 1, "after", after: [2])
        #expect(graphPane(script, select: 4, width: 90).text == """
            ⟳ cycle, never starts: #1 first waits on #3 third waits on #2 second waits on #1 first.
            Cancel #1 first to break it (select it, c)
            ┌┄⟳ #2 second─┬──○ #4 after ┌──⟳ #1 first┄┐
            ┆             └──⟳ #3 third─┘             ┆
            └┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┘
            """)
        // Without colour the back edge still reads apart from the others.
        #expect(graphPane(script, select: 4, width: 90, unicode: false).text.split(separator: "\n").last
            == "+.........................................+")
    }

    @Test("a cycle member with work outside the cycle behind it is not the one to cancel")
    func cycleAdvice() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "load-config", after: [2])
        script.add(2, queue: 1, "load-plugins", after: [1])
        script.add(3, queue: 1, "start", after: [1])
        let pane = graphPane(script, select: 3, width: 120)
        #expect(pane.lines.prefix(2).joined(separator: " ").contains("Cancel #2 load-plugins to break it (select it, c)"), "\(pane.text)")
        #expect(pane.lines.last == "└┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┘", "the back edge from #2 into #1")
    }

    @Test("finished work folds into one box per chain; alike siblings fold; the middle of a long chain is elided")
    func folding() {
        var chain = EventScript()
        chain.queue(1, "q", max: 1)
        for id in 1...12 { chain.add(id, queue: 1, "step-\(id)", after: id > 1 ? [id - 1] : []) }
        for id in 1...8 { chain.run(id) }
        #expect(graphPane(chain, select: 10).text == "✓ 8 finished ▸───○ #9 step-9───○ #10 step-10───○ #11 step-11───○ #12 step-12")

        var siblings = EventScript()
        siblings.queue(1, "q")
        siblings.add(1, queue: 1, "root")
        for id in 2...13 { siblings.add(id, queue: 1, "thumb-\(id)", after: [1]) }
        #expect(graphPane(siblings, select: 1).text == "◐ #1 root───×12 ○ thumb-* ▸")

        var long = EventScript()
        long.queue(1, "q", max: 1)
        for id in 1...30 { long.add(id, queue: 1, "step-\(id)", after: id > 1 ? [id - 1] : []) }
        #expect(graphPane(long, select: 1).text == "◐ #1 step-1───○ #2 step-2───… 26 more ▸───○ #29 step-29───○ #30 step-30")
        // The selection is never folded away: the run splits around it.
        #expect(graphPane(long, select: 15, width: 200).text
            == "◐ #1 step-1───○ #2 step-2───… 11 more ▸───○ #14 step-14───○ #15 step-15───○ #16 step-16───… 12 more ▸───○ #29 step-29───○ #30 step-30")
    }

    @Test("labels too long for their column lose the end of the name, marked with …")
    func longLabels() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a-very-long-operation-name-that-goes-on-and-on")
        script.add(2, queue: 1, "another-quite-long-name-for-the-dependent", after: [1])
        // A label column is half the pane: both names shortened to 30 columns, ending in …; the
        // pane is 3 columns short of the drawing, so its edge cuts the second and says so.
        let pane = graphPane(script, select: 1, width: 60)
        #expect(pane.text == "◐ #1 a-very-long-operation-na…───○ #2 another-quite-long-na…")
        #expect(pane.note == "◂ cols 1-60 of 63 ▸")
        #expect(graphPane(script, select: 1, width: 80).text == "◐ #1 a-very-long-operation-name-that…───○ #2 another-quite-long-name-for-the…")
        #expect(graphPane(script, select: 1, width: 80).note.isEmpty, "both fit: nothing cut")
    }

    @Test("a root cause's words outlast the queue tag where the column is short")
    func rootWordsBeforeQueueTag() {
        var script = EventScript()
        script.queue(1, "network", suspended: true)
        script.queue(2, "ui")
        script.add(1, queue: 1, "download-the-feed")
        script.add(2, queue: 2, "show-the-feed", after: [1])
        let whole = graphPane(script, select: 1, width: 120).lines[0]
        #expect(whole.contains("◐ #1 download-the-feed ·network ◆"), "\(whole)")
        // Too narrow for both: the queue tag goes, the root's words stay.
        let narrow = graphPane(script, select: 1, width: 64).lines[0]
        #expect(narrow.contains("◆ ") && !narrow.contains("·network"), "\(narrow)")
    }

    @Test("a wide pane gives a block's few columns its width: whole names, not the narrow default")
    func wideLabels() {
        var script = EventScript()
        script.queue(1, "accounts")
        script.add(1, queue: 1, "sync-the-accounts-with-the-remote-server", async: true)
        script.add(2, queue: 1, "refresh-the-account-list-view-after-sync", after: [1])
        script.add(3, queue: 1, "download-avatars", after: [1])
        script.add(4, queue: 1, "render-the-account-summary-for-the-header", after: [2, 3])
        // Three layers in 200 columns: each label has a third of the pane, and no name is cut.
        let wide = graphPane(script, select: 1, width: 200).text
        for name in ["sync-the-accounts-with-the-remote-server ⇄", "refresh-the-account-list-view-after-sync", "render-the-account-summary-for-the-header"] {
            #expect(wide.contains(name), "\(wide)")
        }
        #expect(!wide.contains("…"))
        // At 80 the default share stands and the long names are cut, as before.
        #expect(graphPane(script, select: 1, width: 80).text.contains("…"))
    }

    @Test("compact: one cell per box, the cursor's whole label under the drawing")
    func compact() {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "ui", max: 1)
        script.add(1, queue: 1, "download-1")
        script.add(2, queue: 1, "download-2")
        script.add(3, queue: 1, "parse-1", after: [1])
        script.add(4, queue: 1, "parse-2", after: [2])
        script.add(5, queue: 2, "update-ui", after: [3, 4])
        let lines = graphPane(script, select: 5, height: 6, compact: true).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "◐───○─┬──○" && lines[1] == "◐───○─┘")
        #expect(lines.last == "▸ ○ #5 update-ui ·ui")
    }

    @Test("empty and tiny areas draw without crashing")
    func tiny() {
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b", after: [1])
        for (width, height) in [(0, 0), (1, 1), (2, 1), (1, 3), (5, 2)] {
            let pane = graphPane(script, select: 1, width: width, height: height)
            #expect(pane.lines.count <= height && pane.lines.allSatisfy { $0.count <= width }, "\(width)x\(height)")
        }
        #expect(graphPane(EventScript(), select: 1).text == "no operations yet")
        var canvas = GraphCanvas(width: 1, height: 1)
        canvas.write("#12 long label", x: 0, y: 0)
        canvas.horizontal(from: -5, to: 5, y: 0, group: 1)
        canvas.vertical(from: -5, to: 5, x: 3, group: 1)
        #expect(canvas.lines() == ["#"])
        #expect(GraphCanvas(width: 0, height: 0).lines().isEmpty)
    }

    @Test("the canvas: four arms per cell; a crossing of two edges is not a join")
    func canvasCrossing() {
        var canvas = GraphCanvas(width: 5, height: 3)
        canvas.horizontal(from: 0, to: 4, y: 1, group: 1)
        canvas.vertical(from: 0, to: 2, x: 2, group: 2)
        #expect(canvas.isCrossing(x: 2, y: 1))
        #expect(canvas.lines() == ["  │", "──│──", "  │"])
        var joined = GraphCanvas(width: 5, height: 3)
        joined.horizontal(from: 0, to: 4, y: 1, group: 1)
        joined.vertical(from: 0, to: 2, x: 2, group: 1)
        #expect(!joined.isCrossing(x: 2, y: 1))
        #expect(joined.lines() == ["  │", "──┼──", "  │"])
        #expect(joined.lines(unicode: false) == ["  |", "--+--", "  |"])
        var dashed = GraphCanvas(width: 3, height: 1)
        dashed.horizontal(from: 0, to: 2, y: 0, group: 1, dashed: true)
        #expect(dashed.lines() == ["┄┄┄"] && dashed.isDashed(x: 1, y: 0))
    }
}

/// The graph pane of `script`'s model, `select` selected, as text (trailing blanks removed),
/// with what its bottom edge would say.
func graphPane(_ script: EventScript, select: OperationID?, layout: ViewState.GraphLayout = .focused, width: Int = 100,
               height: Int = 14, compact: Bool = false, unicode: Bool = true) -> (text: String, lines: [String], note: String) {
    var state = ViewState()
    state.selection = select
    state.graph.layout = layout
    state.graph.compact = compact
    var memory = GraphPaneMemory()
    let (lines, note) = GraphText.render(script.model(), state, width: width, height: height, memory: &memory, unicode: unicode)
    return (lines.joined(separator: "\n"), lines, note)
}
