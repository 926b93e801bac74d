import DashboardModel
import DashboardSession
import DashboardUI
import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The whole dashboard on a replay: the session knows nothing of recordings; the timeline bar
/// shows where the replay is, and the keys move in it. Manual clocks, the test terminal.
@Suite("Replay: the dashboard on a recording")
struct ReplaySessionTests {
    private let directory = TemporaryDirectory()

    private func start(_ script: EventScript, playing: Bool = false) throws -> (Session, TestTerminal, ReplaySource, ManualClock) {
        let path = directory.path("session.jsonl")
        try record(ScriptedSource(script, info: SourceInfo(kind: .live, program: "scripted")), to: path)
        var options = Recording.IndexOptions()
        options.savedStateInterval = 32
        let clock = ManualClock()
        let source = ReplaySource(recording: try Recording.open(path: path, options: options), playing: playing, clock: clock.function)
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: source)
        _ = session.step(on: terminal)
        return (session, terminal, source, clock)
    }

    private func turn(_ session: inout Session, _ terminal: TestTerminal, _ keys: Key...) {
        terminal.send(keys)
        _ = session.step(on: terminal)
        _ = session.step(on: terminal)
    }

    /// What the dashboard shows equals the model folded from the file up to the replay's position.
    private func expectShown(_ session: Session, _ source: ReplaySource, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recording = source.recording
        let position = recording.position(atTime: source.now())
        let expected = try recording.model(at: position)
        #expect(session.shownModel.report(now: 0).operations == expected.report(now: 0).operations, "at event \(position)",
                sourceLocation: sourceLocation)
        #expect(session.shownModel.now == source.now(), "the model's clock is the replay's", sourceLocation: sourceLocation)
    }

    @Test("plays on the replay's clock; the bar shows position, duration, speed; p pauses the recording, not the display")
    func playsAndPauses() throws {
        let script = longScript(count: 60, step: 100_000_000)
        var (session, terminal, source, clock) = try start(script, playing: true)
        #expect(terminal.text.contains("▶ 0.0 s / "))
        clock.advance(nanoseconds: 5_000_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.text.contains("▶ 5.0 s / "), "\(terminal.lines.last ?? "")")
        try expectShown(session, source)
        turn(&session, terminal, .character("p"))
        #expect(terminal.text.contains("❚❚ 5.0 s / ") && !terminal.text.contains("PAUSED"), "\(terminal.text)")
        clock.advance(nanoseconds: 5_000_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.text.contains("❚❚ 5.0 s / "))
        turn(&session, terminal, .character("+"))
        #expect(terminal.text.contains("×2"))
    }

    @Test("played to the end: the bar says so at once, even within a frame of the last one (the clock stops there)")
    func playsToTheEnd() throws {
        let script = longScript(count: 40, step: 100_000_000)
        var (session, terminal, source, clock) = try start(script, playing: true)
        let duration = UInt64(source.recording.duration * 1e9)
        clock.advance(nanoseconds: duration - 10_000_000)
        _ = session.step(on: terminal)
        #expect(terminal.text.contains("▶ "))
        clock.advance(nanoseconds: 20_000_000)
        _ = session.step(on: terminal)
        let text = TimelineBarText.seconds(source.recording.duration)
        #expect(terminal.text.contains("❚❚ \(text) / \(text)"), "\(terminal.lines.suffix(4).joined(separator: "\n"))")
    }

    @Test("] and [ seek a second, , and . step an event, :seek jumps; each moment shown as the file has it, durations too")
    func seeksAndSteps() throws {
        let script = longScript(count: 80, step: 100_000_000)
        var (session, terminal, source, _) = try start(script)
        turn(&session, terminal, .character("]"))
        #expect(terminal.text.contains("❚❚ 1.0 s / "))
        try expectShown(session, source)
        turn(&session, terminal, .character(":"))
        terminal.type("seek 12.5s")
        turn(&session, terminal, .enter)
        #expect(terminal.text.contains("❚❚ 12.5 s / "))
        try expectShown(session, source)
        let later = session.shownModel.now
        turn(&session, terminal, .character("["))
        #expect(terminal.text.contains("❚❚ 11.5 s / "))
        #expect(session.shownModel.now == later - 1_000_000_000, "the clock went back with the replay")
        try expectShown(session, source)
        let before = source.recording.position(atTime: source.now())
        turn(&session, terminal, .character(","))
        #expect(source.recording.position(atTime: source.now()) <= before - 1)
        try expectShown(session, source)
        #expect(terminal.text.contains("back one event"))
        turn(&session, terminal, .character("."))
        try expectShown(session, source)
        turn(&session, terminal, .character("R"))
        #expect(terminal.text.contains("▶ 0.0 s / "))
    }

    @Test("commands are refused in the status line; the timeline view shows the replay's cursor")
    func refusalAndTimeline() throws {
        var (session, terminal, _, _) = try start(pipelineScript())
        #expect(terminal.text.contains("0 ops"), "paused at the start: nothing happened yet")
        turn(&session, terminal, .character(":"))
        terminal.type("seek 1")
        turn(&session, terminal, .enter)
        // Past the end: at the end, saying so, as :seek +1s would.
        #expect(terminal.text.contains("at the end, 0.1 s") && terminal.text.contains("the recording is 0.1 s long"), "\(terminal.text)")
        turn(&session, terminal, .character("R"))
        turn(&session, terminal, .character("p"))
        turn(&session, terminal, .character("}"))
        #expect(terminal.text.contains("11 ops"), "\(terminal.text)")
        turn(&session, terminal, .character("s"))
        #expect(terminal.text.contains("a recording takes no commands"))
        turn(&session, terminal, .character(":"))
        terminal.type("seek 0.05")
        turn(&session, terminal, .enter)
        turn(&session, terminal, .character("5"))
        #expect(terminal.text.contains("5 timeline") && terminal.text.contains("▲ 0.1 s"), "\(terminal.text)")
    }

    @Test("a recording refuses every command key and command line at once: no question first, no complaint about templates")
    func refusesBeforeAsking() throws {
        var (session, terminal, _, _) = try start(pipelineScript())
        turn(&session, terminal, .character("}"))
        let refusal = "a recording takes no commands"
        for key: Key in [.character("c"), .character("C"), .character("a"), .character("s"), .character(")"), .character("(")] {
            turn(&session, terminal, key)
            #expect(terminal.text.contains(refusal), "after \(key): \(terminal.lines.suffix(2))")
            #expect(!terminal.text.contains("(y/n)") && !terminal.text.contains("no work templates"), "after \(key)")
            turn(&session, terminal, .escape)
        }
        for line in ["add hang", "cancel 1", "suspend", "max 2"] {
            turn(&session, terminal, .character(":"))
            terminal.type(line)
            turn(&session, terminal, .enter)
            #expect(terminal.text.contains(refusal) && !terminal.text.contains("unknown template"), ":\(line): \(terminal.lines.suffix(2))")
        }
        // Lines that stay on this side still work.
        turn(&session, terminal, .character(":"))
        terminal.type("seek 0")
        turn(&session, terminal, .enter)
        #expect(terminal.text.contains("0.0 s / "), "\(terminal.lines.suffix(2))")
    }

    @Test("seeking back forgets the narration of moments not reached yet; playing on tells them again")
    func narrationAfterSeekingBack() throws {
        let script = longScript(count: 60, step: 100_000_000)
        var (session, terminal, source, clock) = try start(script, playing: true)
        turn(&session, terminal, .character("t"))
        clock.advance(nanoseconds: 5_000_000_000)
        _ = session.step(on: terminal)
        let late = try #require(session.interaction.state.narration.latest)
        #expect(late.time > 4_000_000_000, "narrated up to the replay's moment")
        turn(&session, terminal, .character(":"))
        terminal.type("seek 1")
        turn(&session, terminal, .enter)
        let now = source.now()
        #expect(now < 3_000_000_000)
        let entries = session.interaction.state.narration.entries
        #expect(entries.allSatisfy { $0.time <= now }, "nothing narrated after \(now): \(entries.last.map { "\($0.time) \($0.text)" } ?? "")")
        #expect(!terminal.text.contains(late.text), "the narration line no longer tells of the later moment")
        let times = entries.map(\.time)
        #expect(Set(zip(times, entries.map(\.text)).map { "\($0) \($1)" }).count == entries.count, "no sentence told twice")
        clock.advance(nanoseconds: 5_000_000_000)
        _ = session.step(on: terminal)
        #expect((session.interaction.state.narration.latest?.time ?? 0) > now, "playing on narrates again")
    }
}

/// The bar's way of writing seconds.
enum TimelineBarText {
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

extension TestTerminal {
    /// The screen's lines.
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
