import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13, defects 6, 7, 9, 10 and the screen items of 11: what a new user saw wrong.
@Suite("UI: lanes, small screens, warnings, ASCII and the smaller screen fixes")
struct ScreenFixTests {
    let model = pipelineScript().model()

    private func text(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int = 120, _ height: Int = 40,
                      theme: Theme = Theme()) -> String {
        screen(model, dashboard, width: width, height: height, theme: theme).0.text
    }

    @Test("QoS lanes: a suspended queue's ready operations are held, not next; what does not fit says '+N more'")
    func lanes() {
        let lines = text(model, board(model)).split(separator: "\n")
        guard let background = lines.first(where: { $0.contains("│BG ") }) else {
            Issue.record("no BG lane")
            return
        }
        #expect(background.contains("next - │ held ◐7"), "\(background)")
        // A ready operation in no queue (a dependency never enqueued) is held too, with every
        // queue running.
        var orphan = EventScript()
        orphan.queue(1, "work", max: 2)
        orphan.add(1, queue: nil, "migrate-db", qos: .utility)
        orphan.add(2, queue: 1, "launch", after: [1], qos: .utility)
        let orphanModel = orphan.model()
        let utility = text(orphanModel, board(orphanModel, select: 2)).split(separator: "\n").first { $0.contains("│UTIL") } ?? ""
        #expect(utility.contains("next - │ held ◐1"), "\(utility)")
        var script = EventScript()
        script.queue(1, "busy", max: 1)
        for id in 1...40 { script.add(id, queue: 1, "job-\(id)", qos: .userInitiated) }
        script.start(1)
        let crowded = script.model()
        let lane = text(crowded, board(crowded, select: 1)).split(separator: "\n").first { $0.contains("│INIT") } ?? ""
        #expect(lane.contains("more"), "\(lane)")
        #expect(lane.firstMatch(of: /\+\d+(?!\d| more)/) == nil, "an unnamed +N: \(lane)")
    }

    @Test("QoS lanes: a ready operation its queue has had room for and not started is held, not next (its readiness was likely never told to the queue)")
    func untoldReadyIsHeld() {
        let (now, later) = untoldGateScript()
        func defaultLane(_ model: DashboardModel) -> String {
            text(model, board(model, select: 1)).split(separator: "\n").first { $0.contains("│DEF") }.map(String.init) ?? ""
        }
        // Within the grace the queue may still start it: it is next.
        #expect(defaultLane(now).contains("next ◐1") && !defaultLane(now).contains("held"), "\(defaultLane(now))")
        // Past it, with the queue's slot free all along, it is held, as the start order says.
        #expect(defaultLane(later).contains("next - │ held ◐1"), "\(defaultLane(later))")
        // A queue with no free slot is busy, not deaf: its ready work stays next however long it waits.
        var busy = EventScript()
        busy.queue(1, "busy", max: 1)
        busy.add(1, queue: 1, "long")
        busy.add(2, queue: 1, "after-long")
        busy.start(1)
        var waited = busy.model()
        waited.advance(to: busy.time + waited.configuration.readyNotStartedGrace * 3)
        #expect(defaultLane(waited).contains("next ◐2") && !defaultLane(waited).contains("held"), "\(defaultLane(waited))")
    }

    @Test("QoS lanes (shown from 120x40): a crowded 'next' leaves room for 'held' (why ready work waits), and a row that does not fit ends in …")
    func crowdedLaneKeepsHeld() {
        var script = EventScript()
        script.queue(1, "busy", max: 1)
        script.queue(2, "paused", max: 1, suspended: true)
        for id in 1...40 { script.add(id, queue: 1, "job-\(id)") }
        script.start(1)
        script.add(100, queue: 2, "waits-for-resume")
        let crowded = script.model()
        for (width, height) in [(120, 40), (200, 60)] {
            let lines = text(crowded, board(crowded, select: 1), width, height).split(separator: "\n")
            guard let lane = lines.first(where: { $0.contains("│DEF") }) else {
                Issue.record("no DEF lane at \(width)x\(height)")
                continue
            }
            #expect(lane.contains("held ◐100"), "\(width)x\(height): \(lane)")
            #expect(lane.contains("more"), "\(width)x\(height): \(lane)")
            // Inside the pane's border, the row either ends on a whole word or says it was cut.
            let inner = lane.split(separator: "│", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
            #expect(inner.hasSuffix(" ") || inner.hasSuffix("…") || inner.hasSuffix("waiting"), "\(width)x\(height): '\(inner)'")
        }
    }

    @Test("80x24: the selected queue is always one of the queue lines, wherever it is in the list")
    func selectedQueueVisible() {
        let model = queuesModel(7)
        for selected in 1...7 {
            let dashboard = board(model, select: OperationID(selected))
            let header = text(model, dashboard, 80, 24).split(separator: "\n").dropFirst().prefix(4)
            #expect(header.contains { $0.hasPrefix("▸q\(selected) queue-\(selected)") }, "q\(selected) hidden:\n\(header.joined(separator: "\n"))")
            #expect(header.contains { $0.contains("more queue") })
        }
    }

    @Test("80x24: the details show why before anything else; help scrolls to its end; the caption ends on a whole word")
    func smallScreen() {
        var dashboard = board(model, select: 6)
        press([.enter], &dashboard, model, width: 80, height: 24)
        let details = text(model, dashboard, 80, 24)
        #expect(details.contains("Why is it not running?") && details.contains("#6 update-ui waits on #4 parse-a waits on #1"))
        press([.escape, .character("?")], &dashboard, model, width: 80, height: 24)
        #expect(!text(model, dashboard, 80, 24).contains("click selects"))
        press([.end], &dashboard, model, width: 80, height: 24)
        let end = text(model, dashboard, 80, 24)
        #expect(dashboard.state.overlay != nil, "End scrolls the help, it does not close it")
        #expect(end.contains("a cycle's back edge"), "the legend's last line is reachable:\n\(end)")
        press([.home], &dashboard, model, width: 80, height: 24)
        #expect(text(model, dashboard, 80, 24).contains("This program"))
        // The caption: cut after a whole word, never inside one (on its second line: the first
        // ends on a whole word too).
        let caption = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma"
            + " tau upsilon phi chi psi omega alpha beta gamma delta epsilon zeta eta theta"
        let title = FrameComposer(caption: caption).compose(model, dashboard, width: 80, height: 24).0.lines()
        let shown = (title[0].dropFirst(" OpScope  ".count).split(separator: "!")[0] + " " + title[1]).split(separator: "…").first.map(String.init) ?? ""
        #expect(title[1].contains("…") && !shown.isEmpty)
        #expect(shown.split(separator: " ").allSatisfy { caption.split(separator: " ").contains($0) }, "\(title[0])\n\(title[1])")
    }

    @Test("warnings: wrapped by words, a badge in the title, chosen with ↑ ↓ and Enter goes to the operation")
    func warnings() {
        var dashboard = board(model, select: 1)
        let screenText = text(model, dashboard)
        #expect(screenText.split(separator: "\n")[0].contains("! 2 warnings"))
        let message = model.warnings()[0].message
        let pane = screenText.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "│! ") ?? line.range(of: "│  ") else { return nil }
            let rest = line[start.upperBound...]
            guard let end = rest.firstIndex(of: "│") else { return nil }
            return String(rest[..<end]).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        #expect(pane.joined(separator: " ").contains(message), "the message, whole: \(pane)")
        press([.backTab, .backTab], &dashboard, model)
        #expect(dashboard.state.focus == .warnings)
        press([.enter], &dashboard, model)
        #expect(dashboard.state.selection == 8 && dashboard.state.details != nil, "Enter goes to the warning's operation")
    }

    @Test("--ascii: µs reads us, ∞ reads inf, and ~ is left to sampled changes")
    func ascii() {
        var script = EventScript()
        script.queue(1, "open", max: -1)
        script.add(1, queue: 1, "quick")
        script.start(1, after: 5_000)
        script.finish(1, after: 7_000)
        script.add(2, queue: 1, "watched", observation: .sampled)
        script.emit(.started(operation: 2), source: .sampled, after: 4_000)
        let model = script.model()
        var dashboard = board(model, select: 1)
        press([.enter], &dashboard, model)
        let plain = text(model, dashboard, theme: Theme(unicode: false, color: false))
        #expect(plain.contains("run 1/inf") && !plain.contains("/~") && !plain.contains("?s"), "\(plain)")
        #expect(plain.contains("7 us"), "\(plain)")
        #expect(plain.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(!plain.replacing("(~ sampled", with: "").contains("~"), "no sampled change on screen, so no ~ but in the legend")
        dashboard.state.selection = 2
        press([.enter], &dashboard, model)
        let sampled = text(model, dashboard, theme: Theme(unicode: false, color: false))
        #expect(sampled.contains("~isExecuting"), "\(sampled)")
    }

    @Test("columns: a wider table never shows fewer columns; what is left widens the name, not blank columns")
    func columns() {
        func header(_ width: Int) -> [Substring] {
            let lines = text(model, board(model), width, 40).split(separator: "\n")
            guard let line = lines.first(where: { $0.contains("ID+") }) else { return [] }
            return line.split(separator: "│")[0].split(separator: " ")
        }
        func nameWidth(_ width: Int) -> Int {
            let lines = text(model, board(model), width, 40).split(separator: "\n")
            guard let line = lines.first(where: { $0.contains("ID+") }), let name = line.range(of: "NAME"),
                  let after = line[name.upperBound...].firstIndex(where: { $0 != " " }) else { return 0 }
            return line.distance(from: name.lowerBound, to: after)
        }
        /// Blank columns after the last column's title, inside the table's border.
        func blank(_ width: Int) -> Int {
            let lines = text(model, board(model), width, 40).split(separator: "\n")
            guard let line = lines.first(where: { $0.contains("ID+") }) else { return 0 }
            let inside = line.split(separator: "│")[0]
            return inside.count - (inside.lastIndex(where: { $0 != " " }).map { inside.distance(from: inside.startIndex, to: $0) + 1 } ?? 0)
        }
        for range in [80...99, 100...200] {
            for width in range.dropLast() {
                #expect(header(width).count <= header(width + 1).count, "\(width)")
                // RUN is 7 wide: 4 blanks after its title, more only once the name is at its widest.
                #expect(blank(width) <= 4 || nameWidth(width) >= 31, "\(width): \(blank(width)) blank, name \(nameWidth(width))")
            }
        }
    }

    @Test("sorting by a column the table has no room for says so")
    func hiddenSortColumn() {
        var dashboard = board(model)
        dashboard.state.table.sort = .dependencies
        #expect(text(model, dashboard, 80, 24).contains("sort DEPS▲ (column hidden: too narrow)"))
        #expect(!text(model, dashboard, 200, 60).contains("column hidden"))
    }

    @Test("one time format everywhere: the table, the details and the header read the same")
    func timeFormat() {
        var dashboard = board(model, select: 1)
        press([.enter], &dashboard, model)
        let lines = text(model, dashboard).split(separator: "\n")
        let run = DurationText.format(model.operations[1]!.runTime(now: model.now)!)
        #expect(run == "48 ms")
        #expect(lines.contains { $0.contains("download-a") && $0.contains(run) }, "table")
        #expect(lines.contains { $0.contains("ran") && $0.contains(run) }, "details")
        #expect(lines.contains { $0.contains("wait p50/90/99 6 ms/6 ms/6 ms") }, "header")
    }

    @Test("the queue lines' percentiles shorten to the fullest form that fits, never cut, also beside a SUSPENDED badge")
    func percentilesFit() {
        var script = pipelineScript()
        script.emit(.queueSuspended(queue: QueueID(2), suspended: true))
        let suspended = script.model()
        func line(_ model: DashboardModel, queue name: String, width: Int, height: Int) -> String {
            let dashboard = board(model, select: 1)
            let lines = text(model, dashboard, width, height).split(separator: "\n").map(String.init)
            return lines.first { $0.contains("q2 \(name)") } ?? ""
        }
        // 200 columns: all three of each; 120: p50 and p99 of each (all three left no room).
        #expect(line(model, queue: "ui", width: 200, height: 60).hasSuffix("wait p50/90/99 1 ms/1 ms/1 ms  run 40 ms/40 ms/40 ms"))
        #expect(line(model, queue: "ui", width: 120, height: 40).hasSuffix("wait p50/99 1 ms/1 ms  run 40 ms/40 ms"))
        // Narrower, p99 of each, then the wait's p99 alone; beside the badge the same forms.
        #expect(line(model, queue: "ui", width: 110, height: 40).hasSuffix("0.0/s  wait p99 1 ms  run 40 ms"))
        #expect(line(model, queue: "ui", width: 100, height: 40).hasSuffix("0.0/s  wait p99 1 ms"))
        let badged = line(suspended, queue: "ui", width: 110, height: 40)
        #expect(badged.contains("SUSPENDED") && badged.hasSuffix("0.0/s  wait p99 1 ms  run 40 ms"), "\(badged)")
        // 80 columns: no room for any form; nothing is cut.
        let narrow = line(suspended, queue: "ui", width: 80, height: 24)
        #expect(!narrow.contains("wait p") && narrow.hasSuffix("/s"), "\(narrow)")
    }

    @Test("status messages expire a few seconds later on the model's clock")
    func statusExpires() {
        var dashboard = board(model)
        press([.character("I")], &dashboard, model)
        #expect(text(model, dashboard).contains("sorted by ID, descending"))
        var later = model
        later.advance(to: model.now + 4_000_000_000)
        dashboard.keepSelectionValid(later)
        #expect(text(later, dashboard).contains("sorted by ID, descending"), "still there after 4 s")
        later.advance(to: model.now + 6_000_000_000)
        dashboard.keepSelectionValid(later)
        #expect(!text(later, dashboard).contains("sorted by ID"), "gone after 6 s")
        #expect(dashboard.state.status == nil)
    }

    @Test("the graph says what it leaves out: operations not linked to the focus")
    func graphNote() {
        let screenText = text(model, board(model, select: 4))
        #expect(screenText.contains("6 not linked to #4 (g: all)") && !screenText.contains("more not shown"))
    }

    @Test("live operations first by default; H hides the finished ones and the title says so")
    func liveFirstAndHide() {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "done-early")
        script.run(1)
        script.add(2, queue: 1, "waiting")
        script.add(3, queue: 1, "also-done")
        script.run(3)
        let model = script.model()
        var dashboard = board(model, select: 2)
        #expect(OperationRows.ids(model, dashboard.state) == [2, 1, 3])
        press([.character("H")], &dashboard, model)
        #expect(OperationRows.ids(model, dashboard.state) == [2])
        #expect(text(model, dashboard).contains("Operations (finished hidden)"))
        press([.character("H")], &dashboard, model)
        #expect(OperationRows.ids(model, dashboard.state) == [2, 1, 3])
    }

    @Test("L opens the help at its legend, which scrolls to its last mark at 80x24")
    func legend() {
        var dashboard = board(model)
        press([.character("L")], &dashboard, model, width: 80, height: 24)
        let legend = text(model, dashboard, 80, 24)
        guard case .help = dashboard.state.overlay else {
            Issue.record("L opened no help")
            return
        }
        #expect(legend.contains("Legend") && legend.contains("⟳  in a dependency cycle"))
        // The legend is longer than 24 rows can show: its end is one scroll away, not cut off.
        press([.end], &dashboard, model, width: 80, height: 24)
        let end = text(model, dashboard, 80, 24)
        #expect(end.contains("held") && end.contains("graph: the operation's queue"))
        press([.character("x")], &dashboard, model)
        #expect(dashboard.state.overlay == nil)
    }

    @Test("the pane with the keys says so: Tab names it, and a focused queue line is marked, not only reversed")
    func focusIsSaid() {
        var dashboard = board(model)
        #expect(dashboard.state.focus == .table)
        press([.backTab], &dashboard, model)
        #expect(dashboard.state.focus == .queues)
        let wide = text(model, dashboard, 120, 40, theme: Theme(color: false))
        #expect(wide.contains("◂ keys here: ↑ ↓ s C ( )"), "\(wide)")
        #expect(dashboard.state.status?.text.hasPrefix("keys: the queues") == true)
        #expect(text(model, dashboard, 80, 24).contains("◂ keys"))
        // Every pane in turn is named as Tab reaches it.
        var named: [String] = []
        for _ in ViewState.Pane.allCases {
            press([.tab], &dashboard, model)
            named.append(dashboard.state.status?.text ?? "")
        }
        #expect(named.allSatisfy { $0.hasPrefix("keys: ") } && Set(named).count == ViewState.Pane.allCases.count, "\(named)")
        press([.tab], &dashboard, model)
        #expect(!text(model, dashboard, 120, 40).contains("◂ keys here"), "the mark leaves with the keys")
    }

    @Test("under --ascii every mark of the legend keeps a stand-in of its own")
    func asciiMarksDistinct() {
        let ascii = Theme(unicode: false, color: false)
        var meanings: [String: String] = [:]
        for mark in Legend.marks(theme: ascii) {
            let drawn = String(mark.mark.map(Theme.ascii))
            let isASCII = drawn.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "\(mark.mark) is drawn \(drawn)")
            if let other = meanings[drawn] {
                Issue.record("\(drawn) means both \"\(other)\" and \"\(mark.meaning)\"")
            }
            meanings[drawn] = mark.meaning
        }
        // The table's own marks beside the state glyph: the executing glyph is not the priority mark.
        #expect(ascii.glyph(state: .executing, cancelled: false) != ascii.priorityMismatchMark)
    }
}
