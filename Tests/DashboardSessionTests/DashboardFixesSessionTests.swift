import DashboardModel
import DashboardSession
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13 through the whole loop: keys into a session over a scripted source with a manual
/// clock, commands and screens out.
@Suite("Session: confirmations, command arguments, the filter and the status line")
struct DashboardFixesSessionTests {
    private let frame: UInt64 = 50_000_000

    private func start(width: Int = 120, height: Int = 40) -> (Session, TestTerminal, ScriptedSource) {
        let source = ScriptedSource(pipelineScript())
        let terminal = TestTerminal(width: width, height: height)
        var session = Session(source: source)
        #expect(session.step(on: terminal) == nil)
        return (session, terminal, source)
    }

    private func tick(_ session: inout Session, _ terminal: TestTerminal, _ source: ScriptedSource, times: Int = 1) {
        for _ in 0..<times {
            source.advance(by: frame)
            _ = session.step(on: terminal)
        }
    }

    @Test("Enter at a confirmation sends nothing; y then sends exactly the operations the question named")
    func enterIsNo() {
        var (session, terminal, source) = start()
        terminal.send(.character("C"))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("Cancel its 6 unfinished operations of q1 'net'"))
        terminal.send(.enter)
        tick(&session, terminal, source)
        #expect(source.commands.isEmpty, "Enter cancelled: \(source.commands)")
        #expect(terminal.text.contains("nothing cancelled"))
        terminal.send(.character("C"), .character("y"))
        tick(&session, terminal, source)
        #expect(source.commands == [.cancel(operations: [1, 2, 3, 4, 5, 10])])
    }

    @Test(":resume 3 and :suspend ui act on the queues they name, not on the selected one")
    func queueArguments() {
        var (session, terminal, source) = start()
        terminal.send(.character(":"))
        terminal.type("resume 3")
        terminal.send(.enter, .character(":"))
        terminal.type("suspend ui")
        terminal.send(.enter)
        tick(&session, terminal, source)
        #expect(source.commands == [.setSuspended(queue: QueueID(3), suspended: false), .setSuspended(queue: QueueID(2), suspended: true)])
    }

    @Test("a paste into the filter costs one evaluation: keys only edit the line, the next frame filters")
    func pasteIsOneEvaluation() {
        var (session, terminal, source) = start()
        let before = session.interaction.map.rows.evaluations
        terminal.send(.character("/"))
        terminal.type(String(repeating: "x", count: 150) + " ")
        terminal.send(.control("u"))
        terminal.type("download")
        tick(&session, terminal, source)
        #expect(session.interaction.map.rows.evaluations - before <= 2, "\(session.interaction.map.rows.evaluations - before) evaluations")
        #expect(terminal.text.contains("/download") && terminal.text.contains("download-c") && !terminal.text.contains("thumbnail"))
    }

    @Test("a status message goes away a few seconds later, on the source's clock")
    func statusExpires() {
        var (session, terminal, source) = start()
        terminal.send(.character("s"))
        tick(&session, terminal, source)
        #expect(terminal.text.contains("done: setSuspended"))
        tick(&session, terminal, source, times: 60)
        #expect(terminal.text.contains("done: setSuspended"), "3 s later: still there")
        tick(&session, terminal, source, times: 60)
        #expect(!terminal.text.contains("done: setSuspended"), "6 s later: gone")
    }
}
