import DashboardModel
import DashboardSession
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Whole sessions without a terminal: a scripted source with a manual clock, the test terminal,
/// keys in, commands and screens out.
/// The program finishes operation `id` now; the source's clock moves `nanoseconds` on.
private func finish(_ id: Int, in source: ScriptedSource, after nanoseconds: UInt64) {
    var more = EventScript()
    more.time = source.now()
    more.finish(id)
    source.append(more)
    source.advance(by: nanoseconds)
}

@Suite("Session: input, effects and frames over a scripted source")
struct SessionTests {
    private let frame: UInt64 = 50_000_000

    /// A session on the pipeline script, one frame drawn.
    private func start(width: Int = 120, height: Int = 40, templates: [WorkTemplateInfo] = [])
        -> (Session, TestTerminal, ScriptedSource)
    {
        let source = ScriptedSource(pipelineScript(), templates: templates)
        let terminal = TestTerminal(width: width, height: height)
        var session = Session(source: source)
        #expect(session.step(on: terminal) == nil)
        return (session, terminal, source)
    }

    /// Moves the manual clock one frame on and runs one turn of the loop.
    @discardableResult
    private func tick(_ session: inout Session, _ terminal: TestTerminal, _ source: ScriptedSource) -> SessionEnding? {
        source.advance(by: frame)
        return session.step(on: terminal)
    }

    @Test("keys become commands sent to the source; the answer shows in the status line; q ends the session")
    func keysToCommands() {
        var (session, terminal, source) = start()
        #expect(terminal.text.contains("q1 net"))
        #expect(terminal.text.contains("Graph around #1") && terminal.text.contains("#4 parse-a"), "the graph follows the selection")
        terminal.send(.character("s"))
        tick(&session, terminal, source)
        #expect(source.commands == [.setSuspended(queue: QueueID(1), suspended: true)])
        #expect(terminal.text.contains("done: setSuspended"))
        terminal.send(.character("c"))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("Cancel #1 download-a? (y/n)"))
        terminal.send(.character("y"))
        tick(&session, terminal, source)
        #expect(source.commands.last == .cancel(operations: [OperationID(1)]))
        terminal.send(.character(":"))
        terminal.type("max 3")
        tick(&session, terminal, source)
        #expect(terminal.text.contains(":max 3"), "the line shows while it is typed")
        terminal.send(.enter)
        tick(&session, terminal, source)
        #expect(source.commands.last == .setMaxConcurrency(queue: QueueID(1), count: 3))
        terminal.send(.character("q"))
        #expect(tick(&session, terminal, source) == .quit)
    }

    @Test("a source that is down: a message set meanwhile goes a lifetime later by the source's clock, and its status shows again")
    func messageWhileSourceDown() {
        let exited = "program exited — last state kept, reconnecting…"
        let source = ScriptedSource(pipelineScript(), info: SourceInfo(kind: .live, program: "gone", status: exited))
        source.answer { _ in .failure(CommandError(.unsupported, "not sent: no connection")) }
        let terminal = TestTerminal(width: 80, height: 24)
        var session = Session(source: source)
        _ = session.step(on: terminal)
        func statusLine() -> String { String(terminal.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last ?? "") }
        #expect(statusLine().contains("program exited"), "\(terminal.text)")
        terminal.send(.character("s"))
        tick(&session, terminal, source)
        #expect(statusLine().contains("not sent: no connection") && !statusLine().contains("reconnecting"), "\(terminal.text)")
        // No event arrives, so the model's clock stands still; the source's moves on.
        source.advance(by: 9_000_000_000)
        _ = session.step(on: terminal)
        #expect(statusLine().contains("not sent"), "an error stays its ten seconds")
        source.advance(by: 2_000_000_000)
        _ = session.step(on: terminal)
        #expect(statusLine().contains("program exited — last state kept, reconnecting"), "\(terminal.text)")
    }

    @Test("a refused command says why, in the error style, and nothing else changes")
    func refusedCommand() throws {
        var (session, terminal, source) = start()
        source.answer { _ in .failure(CommandError(.unsupported, "recordings cannot change the program")) }
        terminal.send(.character("s"))
        tick(&session, terminal, source)
        let lines = terminal.screen.lines()
        let row = try #require(lines.firstIndex { $0.contains("recordings cannot change the program") })
        let cell = terminal.screen[0, row]
        #expect(cell.style.foreground == .red && cell.style.attributes.contains(.bold))
    }

    @Test("events arrive on screen; p holds the screen still while they keep arriving; . shows them one at a time")
    func eventsAndPause() {
        var (session, terminal, source) = start()
        var more = EventScript()
        more.time = source.now()
        more.add(12, queue: 2, "render-late")
        source.append(more)
        tick(&session, terminal, source)
        #expect(terminal.text.contains("render-late"))
        terminal.send(.character("p"))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("PAUSED"))
        var later = EventScript()
        later.time = source.now()
        later.add(13, queue: 2, "while-paused")
        source.append(later)
        tick(&session, terminal, source)
        #expect(!terminal.text.contains("while-paused"), "a paused display does not change")
        #expect(session.ingest.model.operations.contains(OperationID(13)), "the live model keeps reducing")
        #expect(session.eventsAhead == 1)
        terminal.send(.character("."))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("while-paused") && terminal.text.contains("PAUSED"), ". shows the next event, still paused")
        #expect(session.eventsAhead == 0)
        terminal.send(.character("p"))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("while-paused"))
        #expect(!terminal.text.contains("PAUSED"))
    }

    @Test("nothing changed, nothing drawn; a resize redraws at the new size; Ctrl-L repaints everything")
    func framesOnlyWhenNeeded() {
        var (session, terminal, source) = start()
        let drawn = terminal.frameCount
        _ = session.step(on: terminal)
        #expect(terminal.frameCount == drawn, "no change: no frame")
        terminal.size = (80, 24)
        terminal.send(.resize)
        tick(&session, terminal, source)
        #expect(terminal.screen.width == 80 && terminal.screen.height == 24)
        let full = terminal.fullRedraws
        terminal.send(.control("l"))
        tick(&session, terminal, source)
        #expect(terminal.fullRedraws == full + 1)
    }

    @Test("--fps 1 paces the frames the program causes, not the answer to a key: ? shows at once")
    func keyAnsweredAtOnce() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var options = SessionOptions()
        options.framesPerSecond = 1
        var session = Session(source: source, options: options)
        _ = session.step(on: terminal)
        let drawn = terminal.frameCount
        terminal.send(.character("?"))
        source.advance(by: 10_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.frameCount == drawn + 1, "the key's answer is drawn 10 ms later, not a second later")
        finish(1, in: source, after: 10_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.frameCount == drawn + 1, "a change of the program waits for its frame")
    }

    @Test("a terminating signal ends the session")
    func signal() {
        var (session, terminal, _) = start()
        terminal.pendingSignal = 15
        #expect(session.step(on: terminal) == .signal(15))
    }

    @Test("colours and attributes: executing in bold green, the selection reversed, a suspended queue loud")
    func styles() {
        let (_, terminal, _) = start()
        let lines = terminal.screen.lines()
        func style(of text: String) -> Style? {
            for (y, line) in lines.enumerated() {
                guard let range = line.range(of: text) else { continue }
                let x = line.distance(from: line.startIndex, to: range.lowerBound)
                return terminal.screen[x, y].style
            }
            return nil
        }
        let suspended = style(of: "SUSPENDED")
        #expect(suspended?.background == .red && suspended?.attributes.contains(.bold) == true)
        // Row 1 (download-a) is executing and selected: green, bold, reversed.
        let selected = style(of: "download-a ⇄")
        #expect(selected?.foreground == .green)
        #expect(selected?.attributes.contains(.reverse) == true)
        let finished = style(of: "✓ finished")
        #expect(finished?.attributes.contains(.dim) == true)
    }
}

@Suite("Session: narration of arriving and stepped events")
struct SessionNarrationTests {
    @Test("with narration on, each change arriving gets its sentence; a stepped event is narrated while paused")
    func narration() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var options = SessionOptions()
        options.narration = true
        var session = Session(source: source, options: options)
        _ = session.step(on: terminal)
        finish(1, in: source, after: 50_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.text.contains("#1 download-a"))
        let line = terminal.screen.lines().first { $0.contains("isFinished") }
        #expect(line != nil, "the finish of #1 is narrated in terms of its keys:\n\(terminal.text)")
        // Paused with narration off: stepping still narrates the event it shows.
        terminal.send(.character("t"), .character("p"))
        source.advance(by: 50_000_000)
        _ = session.step(on: terminal)
        var later = EventScript()
        later.time = source.now()
        later.start(3)
        source.append(later)
        source.advance(by: 50_000_000)
        _ = session.step(on: terminal)
        terminal.send(.character("."))
        source.advance(by: 50_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.screen.lines().contains { $0.contains("#3") && $0.contains("isExecuting") }, "\(terminal.text)")
    }

    @Test("paused, stepping back three events and forward three adds nothing to the log, and its times never run backwards")
    func steppingBackAndForthTellsOnce() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var options = SessionOptions()
        options.narration = true
        var session = Session(source: source, options: options)
        _ = session.step(on: terminal)
        for id in [1, 2, 3] {
            finish(id, in: source, after: 50_000_000)
            _ = session.step(on: terminal)
        }
        terminal.send(.character("p"))
        _ = session.step(on: terminal)
        let before = session.interaction.state.narration.entries
        #expect(before.count >= 3, "\(before.map(\.text))")
        var shown: [String] = []
        for key in Array(repeating: Key.character(","), count: 3) + Array(repeating: Key.character("."), count: 3) {
            terminal.send(key)
            _ = session.step(on: terminal)
            shown.append(terminal.screen.lines().first { $0.hasPrefix("» ") } ?? "")
        }
        let after = session.interaction.state.narration.entries
        #expect(after == before, "stepping over told events appended:\n\(after.suffix(6).map(\.text).joined(separator: "\n"))")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0.time <= $1.time }, "the log's times run backwards")
        // Each step still shows the sentence of the event it went over.
        #expect(shown.prefix(3).allSatisfy { $0.contains("went back before") }, "\(shown)")
        #expect(shown.suffix(3).allSatisfy { $0.hasPrefix("» #") && !$0.contains("went back") }, "\(shown)")
    }
}

/// A program already running when the session opens: its first batch is a keyframe of the state
/// so far (as the monitor's hub sends it), with no events.
private final class RunningProgramSource: EventSource, @unchecked Sendable {
    // Safety: read and written on the test's thread only.
    let state: StreamState
    let clock: UInt64
    init(_ script: EventScript) {
        var state = StreamState()
        for event in script.events { _ = state.apply(event) }
        self.state = state
        clock = script.time
    }

    var sourceInfo: SourceInfo { SourceInfo(kind: .live, program: "running") }
    var workTemplates: [WorkTemplateInfo] { [] }
    func now() -> UInt64 { clock }
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { .success(CommandReceipt(message: "")) }
    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription { Subscription(state) }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        // Safety: as above.
        let consumer = "dashboard"
        private var start: StreamState?
        init(_ state: StreamState) { start = state }
        func next(limit: Int) -> EventBatch {
            defer { start = nil }
            return EventBatch(start: start.map { .keyframe($0) }, events: [], droppedTotal: 0)
        }
        func resynchronize() {}
        func close() {}
    }
}

@Suite("Session: narration of the program's story before the session opened")
struct SessionStartNarrationTests {
    @Test("a session opened on a running program narrates from the program's first change, times from there")
    func fromTheStart() {
        var script = EventScript()
        script.queue(1, "tasks", max: 2)
        script.add(1, queue: 1, "stubborn-1")
        script.start(1)
        script.emit(.cancelled(operation: OperationID(1)), after: 1_500_000_000)
        let terminal = TestTerminal(width: 160, height: 40)
        var options = SessionOptions()
        options.narration = true
        var session = Session(source: RunningProgramSource(script), options: options)
        _ = session.step(on: terminal)
        let entries = session.interaction.state.narration.entries
        #expect(entries.map(\.text).first == "q1 'tasks' observed: at most 2 at a time")
        #expect(entries.contains { $0.text.hasPrefix("#1 stubborn-1 added to q1 'tasks'") })
        #expect(entries.contains { $0.text.hasPrefix("#1 stubborn-1 isExecuting → true") })
        let cancel = entries.last
        #expect(cancel?.text.hasPrefix("#1 stubborn-1 isCancelled → true while executing") == true)
        // Times count from the program's first change: the cancel came 1.5 s in, not at +0.
        terminal.send(.character("4"))
        _ = session.step(on: terminal)
        #expect(terminal.text.contains("+1.5 s    #1 stubborn-1 isCancelled"), "\(terminal.text)")
    }
}
