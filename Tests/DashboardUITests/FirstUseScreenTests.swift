import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Screens tried as a new user would, at 80x24 and at a large size: the same marks and words in
/// every pane, the columns and the title using the room there is, the queue lines aligned.
@Suite("Screens on first use")
struct FirstUseScreenTests {
    private func lines(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int, _ height: Int,
                       theme: Theme = Theme(), caption: String = "") -> [String] {
        let composer = FrameComposer(theme: theme, caption: caption)
        return composer.compose(model, dashboard, width: width, height: height).0.lines().map { String($0) }
    }

    /// Two queues, an asynchronous operation with a dependent, a cancelled one still executing,
    /// a very-high-priority one waiting.
    private let mixed: DashboardModel = {
        var script = EventScript()
        script.queue(1, "jobs", max: 2)
        script.add(1, queue: 1, "sync-account", async: true)
        script.add(2, queue: 1, "render-feed", after: [1])
        script.add(3, queue: 1, "long-job")
        script.start(1)
        script.start(3)
        script.cancel(3)
        script.add(4, queue: 1, "urgent", priority: .veryHigh)
        return script.model()
    }()

    @Test("--ascii: the graph marks an asynchronous operation <> as the table and the legend do", arguments: [(80, 24), (200, 50)])
    func asciiAsyncMark(size: (Int, Int)) {
        let screen = lines(mixed, board(mixed, select: 1), size.0, size.1, theme: Theme(unicode: false, color: false))
        let graph = screen.first { $0.contains("#1 sync-account") } ?? ""
        #expect(graph.contains("#1 sync-account <>"), "\(screen.joined(separator: "\n"))")
        #expect(!graph.contains("sync-account ="))
        #expect(screen.contains { $0.contains("sync-account <>") && $0.contains("jobs") })
    }

    @Test("a cancelled operation still executing says so in the state column: ✗ executing", arguments: [(80, 24), (200, 50)])
    func cancelledState(size: (Int, Int)) {
        let screen = lines(mixed, board(mixed, select: 1), size.0, size.1)
        let row = screen.first { $0.contains("long-job") && $0.contains("jobs") } ?? ""
        #expect(row.contains("✗ executing"), "\(row)")
        #expect(!screen.contains { $0.contains("✗ cancel") })
    }

    @Test("the QoS lanes name priorities as the table does, and the legend says what held covers")
    func priorityWords() {
        let screen = lines(mixed, board(mixed, select: 1), 200, 50)
        #expect(screen.contains { $0.contains("◐4(vhigh)") }, "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("veryHigh") })
        #expect(screen.contains { $0.contains("urgent") && $0.contains("vhigh") })
        var dashboard = board(mixed, select: 1)
        press([.character("L")], &dashboard, mixed, width: 200, height: 60)
        // The legend's words, its wrapped lines joined.
        // The legend is the help's end: its box is 100 columns wide, in the middle of the 200.
        let legend = lines(mixed, dashboard, 200, 60).map { line in String(Array(line).dropFirst(51).prefix(98)) }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(legend.contains("PRIO queuePriority, in the table and the QoS lanes"), "\(legend)")
        #expect(legend.contains("vlow low norm high vhigh"))
        #expect(legend.contains("held QoS lanes: ready but not starting: its queue is suspended or released, it was never added to one, or its queue has had room for it a while and not started it"))
    }

    @Test("names are not cut while the table has blank columns: what is left goes to the name", arguments: [80, 100])
    func leftoverToName(width: Int) {
        var script = EventScript()
        script.queue(1, "right", max: 1)
        for id in 1...3 { script.add(id, queue: 1, "fetch-right-\(id)", async: true) }
        let model = script.model()
        let screen = lines(model, board(model, select: 1), width, width == 80 ? 24 : 30)
        #expect(screen.contains { $0.contains("fetch-right-1 ⇄") }, "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("fetch-right… ⇄") })
    }

    @Test("a wider table never shows fewer columns, and shows every column that fits: the name takes only less than the narrowest left out")
    func columnsThatFit() {
        let model = stuckScript(seconds: 3).model()
        func header(_ width: Int) -> String {
            let screen = lines(model, board(model, select: 1), width, 30)
            return screen.first(where: { $0.contains("ID+") }).map { String($0.split(separator: "│")[0]) } ?? ""
        }
        // From 100 columns the graph has a column of its own: the table is narrower there.
        for range in [80...99, 100...200] {
            for width in range.dropLast() {
                let (here, wider) = (header(width), header(width + 1))
                #expect(here.split(separator: " ").count <= wider.split(separator: " ").count, "\(width): \(here) / \(wider)")
                // Extra name columns beyond its 14 (and the space after it): too few for the
                // narrowest column left out (and its space).
                let name = Array(here)
                let start = here.distance(from: here.startIndex, to: here.range(of: "NAME")!.lowerBound)
                let next = name[(start + 4)...].firstIndex { $0 != " " } ?? name.count
                let widths = ["QUEUE": 8, "PRIO": 6, "QOS": 5, "DEPS": 8, "WAIT": 7, "RUN": 7]
                let titles = Set(here.split(separator: " ").map { String($0) })
                // What is spare: the name's extra columns and the blank after the last column.
                let last = here.split(separator: " ").last.map(String.init) ?? ""
                let trailing = name.count - (name.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)
                let spare = next - start - 15 + trailing - ((widths[last] ?? last.count) - last.count)
                if let narrowest = widths.filter({ !titles.contains($0.key) }).map(\.value).min() {
                    #expect(spare < narrowest + 1, "\(width): \(here)")
                }
            }
        }
    }

    @Test("the demo's instruction is shown whole at 80 columns, the warnings badge beside it")
    func captionWhole() {
        let caption = "stuck: select a waiting operation and press Enter: the diagnosis names the root cause"
        let model = stuckScript(seconds: 3).model()
        var dashboard = board(model, select: 1)
        dashboard.state.narration.isOn = true
        let screen = lines(model, dashboard, 80, 24, caption: caption)
        let first = screen[0].dropFirst(" OpScope ".count).split(separator: "!")[0]
        let shown = (first + " " + screen[1]).split(separator: " ").joined(separator: " ")
        #expect(shown == caption, "\(screen[0])\n\(screen[1])")
        #expect(screen[0].contains("! 3 warnings"))
        #expect(screen[2].contains("q1 work"), "the queue lines follow")
        // One line when it fits, and a caption too long even for two is cut after a whole word.
        #expect(lines(model, dashboard, 200, 50, caption: caption)[1].contains("q1 work"))
        let long = Array(repeating: "word", count: 40).joined(separator: " ")
        let cut = lines(model, dashboard, 80, 24, caption: long)
        #expect(cut[1].hasSuffix("word…") || cut[1].trimmingCharacters(in: .whitespaces).hasSuffix("word…"), "\(cut[1])")
    }

    @Test("in a small terminal the warnings badge stays: narrating and the count go first", arguments: [(40, 12), (50, 12)])
    func warningsBadgeLast(size: (Int, Int)) {
        let model = stuckScript(seconds: 3).model()
        var dashboard = board(model, select: 1)
        dashboard.state.narration.isOn = true
        let title = lines(model, dashboard, size.0, size.1, caption: "stuck: select a waiting operation")[0]
        #expect(title.contains("! 3 warnings"), "\(title)")
    }

    @Test("80x24: the queue lines start at the first queue when the selected one fits with it")
    func firstQueues() {
        let model = queuesModel(6)
        let screen = lines(model, board(model, select: 4), 80, 24)
        #expect(screen[1].hasPrefix(" q1 queue-1"), "\(screen.prefix(6).joined(separator: "\n"))")
        #expect(screen[4].hasPrefix("▸q4 queue-4") && screen[4].hasSuffix("↓ 2 more queues"), "\(screen[4])")
        #expect(!screen.prefix(6).contains { $0.contains("↑") })
    }

    @Test("a suspended queue's line keeps the run column of the others", arguments: [(80, 24), (200, 50)])
    func suspendedAligned(size: (Int, Int)) {
        let model = stuckScript(seconds: 3).model()
        let screen = lines(model, board(model, select: 1), size.0, size.1)
        let work = screen.first { $0.contains("q1 work") } ?? ""
        let paused = screen.first { $0.contains("q2 paused") } ?? ""
        let column = { (line: String) in line.range(of: "run ").map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
        #expect(column(work) != nil && column(work) == column(paused), "\(work)\n\(paused)")
    }
}

/// `count` serial queues `queue-N`, each with one operation `op-N` (id N).
func queuesModel(_ count: Int) -> DashboardModel {
    var script = EventScript()
    for queue in 1...count { script.queue(queue, "queue-\(queue)", max: 1) }
    for queue in 1...count { script.add(queue, queue: queue, "op-\(queue)") }
    return script.model()
}
