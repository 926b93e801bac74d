import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// View 5 (the timeline), the replay's timeline bar, and the keys that move in time.
@Suite("UI: the timeline view and the replay's bar")
struct TimelineTests {
    /// Three queues over ten seconds: `net` runs three at once (one cancelled while it waited),
    /// `ui` is serial with a queue of waiting work, `jobs` runs one long operation.
    private func busyScript() -> EventScript {
        var script = EventScript()
        script.queue(1, "net", max: 3)
        script.queue(2, "ui", max: 1)
        script.queue(3, "jobs", max: 1)
        let second: UInt64 = 1_000_000_000
        script.add(1, queue: 3, "backup", async: true)
        script.start(1, after: second / 10)
        for id in 2...7 { script.add(id, queue: 1, "download-\(id)") }
        script.start(2, after: second / 2)
        script.start(3, after: second / 4)
        script.start(4, after: second / 4)
        script.finish(2, after: second)
        script.start(5, after: second / 10)
        script.cancel(7)
        script.finish(7, cancelled: true, after: second / 5)
        script.finish(3, after: second)
        script.start(6, after: second / 10)
        for id in 8...11 { script.add(id, queue: 2, "update-\(id)", after: id == 8 ? [2] : []) }
        script.ready(8)
        script.start(8, after: second / 5)
        script.finish(8, after: second)
        script.start(9, after: second / 10)
        script.finish(4, after: second)
        script.finish(9, after: second)
        script.start(10, after: second / 10)
        script.finish(5, after: second)
        script.emit(.queueDepth(queue: QueueID(1), operations: 1), after: second)
        return script
    }

    private func timelineBoard(_ script: EventScript, select id: OperationID) -> (DashboardModel, Interaction) {
        let model = script.model()
        var dashboard = Interaction()
        dashboard.state.selection = id
        dashboard.keepSelectionValid(model)
        press([.character("5")], &dashboard, model)
        return (model, dashboard)
    }

    @Test("the timeline at 80x24 and 120x40: lanes per queue, the four marks, the selection, the cursor")
    func snapshots() {
        let (model, dashboard) = timelineBoard(busyScript(), select: 4)
        #expect(dashboard.state.screen == .timeline)
        for (width, height) in [(80, 24), (120, 40)] {
            let text = screen(model, dashboard, width: width, height: height).0.text
            expectSnapshot(text, named: "timeline-\(width)x\(height)")
            #expect(text.contains("q1 net") && text.contains("q2 ui") && text.contains("q3 jobs"))
            #expect(text.contains("█") && text.contains("▓") && text.contains("░") && text.contains("╳"), "all four marks at \(width)x\(height)")
            #expect(text.contains("▲ now"))
        }
        let ascii = screen(model, dashboard, width: 80, height: 24, theme: Theme(unicode: false, color: false)).0.text
        expectSnapshot(ascii, named: "timeline-80x24-ascii")
        let plain = ascii.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(plain)
    }

    @Test("the legend is read whole: the full sentence where it fits, a shorter form at 80 columns (it was cut after 'lanes'), never a cut word")
    func legendWhole() {
        let (model, dashboard) = timelineBoard(busyScript(), select: 4)
        for (width, height, words) in [(80, 24, "│ shown: now; lanes: ran at once│"),
                                       (120, 40, "│ the moment shown (now); lanes: what ran at once; ░ row: what waited")] {
            let lines = screen(model, dashboard, width: width, height: height).0.text.split(separator: "\n")
            let legend = lines.first { $0.contains("░ waiting") }.map(String.init) ?? ""
            #expect(legend.contains(words) && !legend.contains("…"), "\(width)x\(height): \(legend)")
        }
        // The forms, longest first, at the room each leaves (a replay's cursor is wider than "now").
        let full = TimelineChart.legendNote(cursor: "12.5 s", waiting: "░", unicode: true) { _ in 200 }
        #expect(full.text == "│ the moment shown (12.5 s); lanes: what ran at once; ░ row: what waited" && full.gap == 3)
        let narrow = TimelineChart.legendNote(cursor: "12.5 s", waiting: "░", unicode: true) { gap in 44 - gap * 4 }
        #expect(narrow.text == "│ shown: 12.5 s; lanes: ran at once" && narrow.gap == 2, "\(narrow)")
        let tiny = TimelineChart.legendNote(cursor: "now", waiting: ".", unicode: false) { _ in 5 }
        #expect(tiny.text == "| shown: now", "the shortest form, left to the cut: \(tiny)")
    }

    @Test("concurrency shows as stacked lanes: net runs three at once, so it takes at least three lanes")
    func lanes() {
        let (model, dashboard) = timelineBoard(busyScript(), select: 4)
        let lines = screen(model, dashboard, width: 120, height: 40).0.text.split(separator: "\n").map(String.init)
        let first = lines.firstIndex { $0.contains("│q1 net") }!
        let next = lines.firstIndex { $0.contains("│q2 ui") }!
        #expect(next - first >= 3, "net's lanes: \(next - first)")
        // The selection (#4) reads reversed; the others do not.
        let buffer = screen(model, dashboard, width: 120, height: 40).0
        let row = lines.firstIndex { $0.contains("#4") }!
        let column = Array(lines[row]).firstIndex(of: "#")!
        #expect(buffer[column, row].style.attributes.contains(.reverse))
    }

    @Test("↑ ↓ go through the operations shown, queue by queue; Enter goes to the selected one in the overview")
    func selection() {
        let (model, start) = timelineBoard(busyScript(), select: 2)
        var dashboard = start
        // net's operations in the order they were added, then ui's, then jobs'.
        press([.down], &dashboard, model)
        #expect(dashboard.state.selection == OperationID(3))
        press([.end], &dashboard, model)
        #expect(dashboard.state.selection == OperationID(1))
        press([.up], &dashboard, model)
        let listed = dashboard.state.selection
        #expect(listed == OperationID(11))
        press([.enter], &dashboard, model)
        #expect(dashboard.state.screen == .overview && dashboard.state.details != nil && dashboard.state.selection == listed)
    }

    @Test("the replay's bar: play state, position of duration, speed, marks of warnings; ASCII too")
    func bar() {
        let model = busyScript().model()
        var dashboard = Interaction()
        dashboard.updateTimeline(TimelineState(position: 12.5, duration: 40, playing: true, speed: 2, marks: [5, 30]), now: model.now)
        dashboard.keepSelectionValid(model)
        let text = screen(model, dashboard, width: 120, height: 40).0.text
        expectSnapshot(text, named: "timeline-bar-120x40")
        let barLine = text.split(separator: "\n").first { $0.contains("12.5 s / 40.0 s") }
        #expect(barLine?.contains("▶") == true && barLine?.contains("×2") == true)
        #expect(barLine?.filter { $0 == "!" }.count == 2, "two marks")
        dashboard.updateTimeline(TimelineState(position: 40, duration: 40, playing: false, speed: 0.5), now: model.now)
        let ascii = screen(model, dashboard, width: 80, height: 24, theme: Theme(unicode: false, color: false)).0.text
        #expect(ascii.contains("|| 40.0 s / 40.0 s  x0.5"))
        let plain = ascii.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(plain)
    }

    @Test("in a replay the keys move in the recording: p . , [ ] { } and :seek")
    func replayKeys() {
        let model = busyScript().model()
        var dashboard = board(model, select: 4)
        dashboard.updateTimeline(TimelineState(position: 3, duration: 10, playing: true, speed: 1), now: model.now)
        func effects(_ keys: [Key]) -> [Effect] { press(keys, &dashboard, model) }
        #expect(effects([.character("p")]).contains(.playback(.setPlaying(false))))
        #expect(!dashboard.state.paused, "the display is not frozen: the recording pauses")
        #expect(effects([.character(".")]).contains(.playback(.step(events: 1))))
        #expect(effects([.character(",")]).contains(.playback(.step(events: -1))))
        #expect(effects([.character("[")]).contains(.playback(.seek(seconds: -1))))
        #expect(effects([.character("]")]).contains(.playback(.seek(seconds: 1))))
        #expect(effects([.character("{")]).contains(.playback(.seekToMark(forward: false, operation: OperationID(4)))))
        #expect(effects([.character("}")]).contains(.playback(.seekToMark(forward: true, operation: OperationID(4)))))
        #expect(effects([.character(":")] + keys("seek 12.5s") + [.enter]).contains(.playback(.seekTo(seconds: 12.5))))
        #expect(effects([.character(":")] + keys("seek 1:30") + [.enter]).contains(.playback(.seekTo(seconds: 90))))
        #expect(effects([.character(":")] + keys("seek -2s") + [.enter]).contains(.playback(.seek(seconds: -2))))
        _ = effects([.character(":")] + keys("seek soon") + [.enter])
        #expect(dashboard.state.status?.text.hasPrefix("usage: :seek TIME") == true)
    }

    @Test("a replay's answer goes once playback has moved on from the moment it named; the end of the recording says what next")
    func answerAndEnd() {
        let model = busyScript().model()
        var dashboard = board(model, select: 4)
        dashboard.updateTimeline(TimelineState(position: 0, duration: 8, playing: true, speed: 1), now: model.now)
        dashboard.playbackAnswered(PlaybackStatus(message: "at 1.7 s (event 21 of 41)", speed: 1, position: 1.7, duration: 8, playing: true))
        dashboard.updateTimeline(TimelineState(position: 2.1, duration: 8, playing: true, speed: 1), now: model.now)
        #expect(dashboard.state.status?.text == "at 1.7 s (event 21 of 41)", "just after the seek, it is where it landed")
        dashboard.updateTimeline(TimelineState(position: 3.3, duration: 8, playing: true, speed: 1), now: model.now)
        #expect(dashboard.state.status == nil, "playing on: the moment it named is no longer shown")
        // Paused, the answer stays: it is where the replay is.
        dashboard.playbackAnswered(PlaybackStatus(message: "paused at 3.3 s (event 30 of 41)", speed: 1, position: 3.3, duration: 8, playing: false))
        dashboard.updateTimeline(TimelineState(position: 3.3, duration: 8, playing: false, speed: 1), now: model.now)
        #expect(dashboard.state.status?.text == "paused at 3.3 s (event 30 of 41)")
        dashboard.updateTimeline(TimelineState(position: 7.9, duration: 8, playing: true, speed: 1), now: model.now)
        dashboard.updateTimeline(TimelineState(position: 8, duration: 8, playing: false, speed: 1), now: model.now)
        #expect(dashboard.state.status?.text.hasPrefix("end of the recording: R starts it over, [ goes back a second") == true)
    }

    @Test("live: , steps back only while paused; [ ] { } and :seek say they need a recording")
    func liveKeys() {
        let model = busyScript().model()
        var dashboard = board(model, select: 4)
        _ = press([.character(",")], &dashboard, model)
        #expect(dashboard.state.status?.text.hasPrefix("pause first (p)") == true)
        #expect(press([.character("p"), .character(",")], &dashboard, model).contains(.step(-1)))
        #expect(press([.character("p")], &dashboard, model).contains(.redraw) && !dashboard.state.paused)
        for key in ["[", "]", "{", "}"] {
            let effects = press([.character(Character(key))], &dashboard, model)
            #expect(!effects.contains { if case .playback = $0 { true } else { false } })
            #expect(dashboard.state.status?.isError == true && dashboard.state.status?.text.contains("opscope replay FILE") == true)
        }
        _ = press([.character(":")] + keys("seek 3s") + [.enter], &dashboard, model)
        #expect(dashboard.state.status?.text == ":seek moves in a recording (opscope replay FILE)")
    }

    @Test("thousands waiting at once: one waiting row holds them all, the lanes stay one per operation running")
    func manyWaiting() {
        var script = EventScript()
        script.queue(1, "busy", max: 2)
        for id in 1...3_000 { script.add(id, queue: 1, "job-\(id)", after: [], ready: true) }
        script.start(1)
        let model = script.model()
        var dashboard = Interaction()
        press([.character("5")], &dashboard, model, width: 80, height: 24)
        let lines = screen(model, dashboard, width: 80, height: 24).0.text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("░") }.count == 2, "the legend and the one waiting row:\n\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.hasPrefix("│wait max ") })
    }

    @Test("an operation cancelled while it runs is drawn running until then and cancelled after, not cancelled from its start")
    func cancelledWhileRunning() {
        var script = EventScript()
        script.queue(1, "work", max: 1)
        let second: UInt64 = 1_000_000_000
        script.add(1, queue: 1, "stubborn", async: true)
        script.start(1, after: second / 100)
        script.emit(.queueDepth(queue: QueueID(1), operations: 1), after: 5 * second)
        script.cancel(1)
        script.emit(.queueDepth(queue: QueueID(1), operations: 1), after: 5 * second)
        let (model, dashboard) = timelineBoard(script, select: 1)
        let lines = screen(model, dashboard, width: 120, height: 40).0.lines()
        guard let row = lines.first(where: { $0.contains("│q1 work") }) else {
            Issue.record("no lane for q1:\n\(lines.joined(separator: "\n"))")
            return
        }
        let marks = row.filter { $0 == "█" || $0 == "╳" }
        let running = marks.prefix { $0 == "█" }.count, cancelled = marks.drop { $0 == "█" }.count
        #expect(running > 0 && cancelled > 0 && marks.drop { $0 == "█" }.allSatisfy { $0 == "╳" }, "\(row)")
        // Cancelled halfway through its ten seconds: about half of the bar each way.
        #expect(abs(running - cancelled) <= max(3, (running + cancelled) / 5), "running \(running), cancelled \(cancelled): \(row)")
    }

    @Test("a serial queue takes one lane however many wait: waiting does not claim lanes; ids on the running parts")
    func serialQueue() {
        var script = EventScript()
        script.queue(1, "uploads", max: 1)
        let second: UInt64 = 1_000_000_000
        for id in 1...7 { script.add(id, queue: 1, "upload-\(id)") }
        for id in 1...7 {
            script.start(id, after: second / 100)
            if id < 7 { script.finish(id, after: 2 * second) }
        }
        let (model, dashboard) = timelineBoard(script, select: 3)
        let lines = screen(model, dashboard, width: 120, height: 40).0.text.split(separator: "\n").map(String.init)
        let first = lines.firstIndex { $0.contains("│q1 uploads") }!
        #expect(lines[first].contains("#1▓") && lines[first].contains("#6▓") && lines[first].contains("█"),
                "every upload on the one lane, each with its id:\n\(lines.joined(separator: "\n"))")
        #expect(lines[first + 1].hasPrefix("│waiting, max 7") || lines[first + 1].hasPrefix("│waiting, max 6"))
        #expect(!lines[(first + 2)...].contains { $0.contains("░") || $0.contains("▓") }, "nothing more below")
        #expect(lines.contains { $0.contains("lanes: what ran at once; ░ row: what waited") })
    }

    @Test("a queue where nothing ran: its one row names it and counts the most waiting at once; a click on the row picks who waited there")
    func waitingRowAlone() {
        var script = EventScript()
        let second: UInt64 = 1_000_000_000
        script.queue(1, "paused", suspended: true)
        script.add(1, queue: 1, "first")
        script.cancel(1)
        script.finish(1, cancelled: true, after: 2 * second)
        script.time += second
        script.add(2, queue: 1, "second")
        script.add(3, queue: 1, "third")
        script.emit(.queueDepth(queue: QueueID(1), operations: 2), after: 2 * second)
        let (model, start) = timelineBoard(script, select: 3)
        var dashboard = start
        let lines = screen(model, dashboard, width: 120, height: 40).0.lines()
        guard let row = lines.firstIndex(where: { $0.hasPrefix("│q1 paused") }) else {
            Issue.record("no row for q1:\n\(lines.joined(separator: "\n"))")
            return
        }
        #expect(lines[row].hasPrefix("│q1 paused 2 "), "the name and the count:\n\(lines.joined(separator: "\n"))")
        let cells = Array(lines[row])
        // #1 waited and was cancelled: its columns carry the cancelled mark.
        guard let first = cells.firstIndex(of: "╳"), let last = cells.lastIndex(of: "░"), first < last else {
            Issue.record("the cancelled wait, then the waits:\n\(lines[row])")
            return
        }
        press([.mouse(MouseEvent(.press, x: first, y: row))], &dashboard, model)
        #expect(dashboard.state.selection == OperationID(1), "the column where #1 waited")
        press([.mouse(MouseEvent(.press, x: last, y: row))], &dashboard, model)
        #expect(dashboard.state.selection == OperationID(2), "the first of those waiting at the end")
    }
}
