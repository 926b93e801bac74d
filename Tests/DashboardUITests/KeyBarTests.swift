import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The bottom key bar keeps what a person looks for first when the screen is narrow.
@Suite("UI: the key bar at any width")
struct KeyBarTests {
    @Test("at 80 columns Help, Cancel, Pause and Quit stay; sorting goes first; nothing is cut mid-entry", arguments: [80, 60, 100, 200])
    func narrow(width: Int) {
        let model = pipelineScript().model()
        let lines = screen(model, board(model), width: width, height: 24).0.lines()
        let bar = lines.last ?? ""
        #expect(bar.hasPrefix("F1Help") && bar.hasSuffix("F10Quit"), "\(bar)")
        if width >= 80 { #expect(bar.contains("pPause") && bar.contains("F9Cancel"), "\(bar)") }
        if width >= 200 { #expect(bar.contains("<>Sort") && bar.contains("TabPane"), "\(bar)") }
        #expect(TerminalText.width(bar) <= width)
        let known = KeyBindings.bar.map { $0.key + $0.name }
        for entry in bar.split(separator: " ") { #expect(known.contains(String(entry)), "cut entry \(entry) in \(bar)") }
    }

    @Test("a replay takes no commands: its bar shows the keys that move in the recording, at 80 columns whole")
    func replayBar() {
        let paused = TimelineState(position: 1.7, duration: 8, playing: false, speed: 1)
        let bar = KeyBindings.bar(replay: paused).map { $0.key + $0.name }
        #expect(bar == ["F1Help", "pPlay", "[]1s", ",.Step", "{}Mark", "+-Speed", "RRestart", ":Seek", "/Filter", "1-5View", "F10Quit"])
        #expect(bar.joined(separator: " ").count <= 80)
        var playing = paused
        playing.playing = true
        #expect(KeyBindings.bar(replay: playing).map(\.name).contains("Pause"))
        // Live: the commands, as before.
        #expect(KeyBindings.bar(replay: nil).map(\.name).contains("Cancel"))
        #expect(!bar.contains { $0.contains("Cancel") || $0.contains("Suspend") || $0.contains("Add") })
    }

    @Test("on the screen of a replay the key bar is the replay's, at 80 and 200 columns")
    func replayBarOnScreen() {
        let model = pipelineScript().model()
        var dashboard = board(model)
        dashboard.state.timeline = TimelineState(position: 1.7, duration: 8, playing: false, speed: 1)
        for width in [80, 200] {
            let bar = screen(model, dashboard, width: width, height: 24).0.lines().last ?? ""
            #expect(bar.hasPrefix("F1Help pPlay") && bar.contains(":Seek") && bar.hasSuffix("F10Quit"), "\(bar)")
            #expect(!bar.contains("Cancel") && !bar.contains("Suspend") && !bar.contains("aAdd"), "\(bar)")
        }
        dashboard.state.timeline = nil
        let live = screen(model, dashboard, width: 80, height: 24).0.lines().last ?? ""
        #expect(live.contains("F9Cancel"), "\(live)")
    }

    @Test("the key bar names s by what it does: Resume on a suspended queue (a click resumes it), Suspend on a running one",
          arguments: [80, 200])
    func resumeOnSuspendedQueue(width: Int) {
        let model = pipelineScript().model()
        var dashboard = board(model, select: 7)    // thumbnail, on q3 'paused', which is suspended
        #expect(dashboard.state.queue == QueueID(3))
        let (buffer, map) = screen(model, dashboard, width: width, height: 24)
        dashboard.map = map
        let bar = buffer.lines().last ?? ""
        #expect(bar.contains("sResume") && !bar.contains("sSuspend"), "\(bar)")
        guard let entry = map.keyBar.first(where: { $0.text == "sResume" }) else {
            Issue.record("no sResume entry to click: \(map.keyBar.map(\.text))")
            return
        }
        let effects = press([.mouse(MouseEvent(.press, x: entry.rect.x, y: entry.rect.y))], &dashboard, model, width: width, height: 24)
        #expect(effects.command == .setSuspended(queue: QueueID(3), suspended: false))

        let running = board(model, select: 4)      // parse-a, on q1 'net'
        let other = screen(model, running, width: width, height: 24).0.lines().last ?? ""
        #expect(other.contains("sSuspend") && !other.contains("Resume"), "\(other)")
    }

    @Test("a message or question longer than the line goes on over the key bar, whole; the key bar is back when it goes")
    func longMessage() {
        let model = pipelineScript().model()
        var dashboard = board(model)
        let message = "nothing to cancel: #4 parse-feed-2 finished 3 s ago; select a waiting or running operation (arrows, or click its row) and press c again"
        dashboard.state.status = ViewState.StatusLine(message, isError: true, time: model.now)
        var lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        let status = lines[lines.count - 2], second = lines[lines.count - 1]
        let shown = status.trimmingSuffix() + " " + second.trimmingSuffix()
        #expect(shown == message, "\(status)\n\(second)")
        #expect(!second.contains("F1Help"), "\(second)")
        #expect(!(status + second).contains("…"), "\(status)\n\(second)")

        // A message that fits leaves the key bar where it is.
        dashboard.state.status = ViewState.StatusLine("suspended q1 work", time: model.now)
        lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(lines[lines.count - 2].hasPrefix("suspended q1 work") && lines[lines.count - 1].hasPrefix("F1Help"), "\(lines.suffix(2))")

        // Three lines' worth: two lines, the second cut after a whole word with …
        dashboard.state.status = ViewState.StatusLine(String(repeating: "word ", count: 40) + "end", time: model.now)
        lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(lines[lines.count - 1].hasSuffix("word …") || lines[lines.count - 1].hasSuffix("word…"), "\(lines.suffix(2))")
        #expect(!lines[lines.count - 1].contains("end"), "\(lines.suffix(2))")

        // Gone: the key bar is back.
        dashboard.state.status = nil
        lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(lines[lines.count - 1].hasPrefix("F1Help"), "\(lines.suffix(2))")

        // A confirmation question that does not fit shows its (y/n).
        let question = "Cancel 3 tagged operations: #2 download-1, #3 download-2, #4 parse-feed-2, and their dependents? (y/n)"
        dashboard.state.overlay = .confirm(ViewState.Confirmation(question: question, command: .cancel(operations: [OperationID(2)])))
        lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(lines[lines.count - 1].contains("(y/n)"), "\(lines.suffix(2))")
        // Longer than two lines (long names): the names are cut, the (y/n) stays.
        let long = "Cancel " + (1...9).map { "#\($0) a-rather-long-operation-name-\($0)" }.joined(separator: ", ") + "? (y/n)  only y cancels"
        dashboard.state.overlay = .confirm(ViewState.Confirmation(question: long, command: .cancel(operations: [OperationID(2)])))
        lines = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(lines[lines.count - 2].hasPrefix("Cancel #1 a-rather-long-operation-name-1"), "\(lines.suffix(2))")
        #expect(lines[lines.count - 1].contains("…? (y/n)"), "\(lines.suffix(2))")
    }
}

private extension String {
    /// The line without the blanks that fill it to the screen's width.
    func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
