import DashboardModel
import DashboardSession
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The live dashboard as a DVR: paused, `,` goes back one event at a time through the history
/// the session keeps, `.` forward again, and `p` returns to live. Through the test terminal,
/// on a manual clock.
@Suite("Session: rewinding the live view")
struct RewindTests {
    private let frame: UInt64 = 50_000_000

    private func press(_ keys: Key..., on session: inout Session, _ terminal: TestTerminal, _ source: ScriptedSource) {
        terminal.send(keys)
        source.advance(by: frame)
        _ = session.step(on: terminal)
    }

    /// The model after the first `count` events of the pipeline script (what the display should show).
    private func modelAfter(_ count: Int) -> DashboardModel {
        var model = DashboardModel()
        model.apply(EventBatch(events: Array(pipelineScript().events.prefix(count)), droppedTotal: 0))
        return model
    }

    @Test(", steps back one event at a time, . forward again; the screen shows each moment; p returns to live")
    func backAndForth() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: source)
        _ = session.step(on: terminal)
        let events = pipelineScript().events
        #expect(terminal.text.contains("11 ops"))
        press(.character("p"), on: &session, terminal, source)
        #expect(terminal.text.contains("PAUSED"))
        // Back past #11's finish, its start and its addition: "log" is gone from the screen.
        for back in 1...3 {
            press(.character(","), on: &session, terminal, source)
            #expect(session.eventsAhead == back)
            #expect(session.shownModel.report(now: 0) == modelAfter(events.count - back).report(now: 0), "\(back) back")
        }
        // The narration line tells the event gone back over; the rest of the screen is before #11.
        let lines = terminal.text.split(separator: "\n")
        #expect(terminal.text.contains("10 ops") && !lines.contains { !$0.hasPrefix("»") && $0.contains("log ") }, "\(terminal.text)")
        #expect(lines.contains { $0.hasPrefix("» went back before: #11 log") }, "\(terminal.text)")
        // Where the display is, as a replay says it, and how far behind live.
        let count = events.count
        #expect(terminal.text.contains("back one event: event \(count - 3) of \(count) held, 42 ms and 3 events behind live"),
                "\(terminal.text)")
        // Events keep arriving while the display looks at the past.
        var more = EventScript()
        more.time = source.now()
        more.add(12, queue: 2, "while-rewound")
        source.append(more)
        source.advance(by: frame)
        _ = session.step(on: terminal)
        #expect(session.eventsAhead == 4)
        #expect(!terminal.text.contains("while-rewound"))
        press(.character("."), on: &session, terminal, source)
        #expect(session.shownModel.report(now: 0) == modelAfter(events.count - 2).report(now: 0))
        // Forward: the distance to live counts what arrived meanwhile too, and the line tells the
        // event stepped over, not the newest.
        #expect(terminal.text.contains("one event on: event \(count - 2) of \(count + 1) held"), "\(terminal.text)")
        #expect(terminal.text.contains("3 events behind live"), "\(terminal.text)")
        // p: back to live, with what arrived meanwhile, and the status line says so, even after
        // a pause longer than a message lives.
        source.advance(by: 20_000_000_000)
        _ = session.step(on: terminal)
        press(.character("p"), on: &session, terminal, source)
        #expect(!terminal.text.contains("PAUSED") && terminal.text.contains("while-rewound") && terminal.text.contains("12 ops"))
        #expect(terminal.text.contains("live: the display follows the program again"), "\(terminal.text)")
        #expect(session.eventsAhead == 0)
    }

    @Test("back to the first event kept, then no further: the status says so")
    func startOfHistory() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: source)
        _ = session.step(on: terminal)
        press(.character("p"), on: &session, terminal, source)
        let count = pipelineScript().events.count
        for _ in 0..<count { press(.character(","), on: &session, terminal, source) }
        #expect(session.eventsAhead == count)
        #expect(session.shownModel.operations.count == 0)
        press(.character(","), on: &session, terminal, source)
        #expect(session.eventsAhead == count)
        #expect(terminal.text.contains("no older event is kept"))
    }

    @Test(", without pausing first says how; nothing moves")
    func needsPause() {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: source)
        _ = session.step(on: terminal)
        press(.character(","), on: &session, terminal, source)
        #expect(terminal.text.contains("pause first (p), then , goes back one event at a time"))
        #expect(session.eventsAhead == 0 && !terminal.text.contains("PAUSED"))
    }
}
