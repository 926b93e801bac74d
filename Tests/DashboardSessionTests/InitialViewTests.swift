import DashboardSession
import DashboardUI
import OpScopeTestSupport
import TerminalKit
import Testing

/// `SessionOptions.initialView`: what the dashboard opens on, for an embedding program as for
/// the config file's `view`, `sort` and `hide_finished`.
@Suite("Session: the initial view")
struct InitialViewTests {
    /// The first frame of a session on the pipeline script with `options`, and the session.
    private func firstFrame(_ options: SessionOptions) -> (Session, String) {
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: ScriptedSource(pipelineScript()), options: options)
        #expect(session.step(on: terminal) == nil)
        return (session, terminal.text)
    }

    @Test("the default opens on the overview, sorted by id, finished operations shown")
    func defaults() {
        let (session, screen) = firstFrame(SessionOptions())
        #expect(session.interaction.state.screen == .overview && session.interaction.state.table.sort == .id)
        #expect(!session.interaction.state.table.hideFinished && !session.interaction.state.table.descending)
        #expect(screen.contains("Operations  sort ID▲"), "\(screen)")
    }

    @Test("another view, sort and hidden finished work show in the first frame")
    func chosen() {
        var options = SessionOptions()
        options.initialView.screen = .stuck
        options.initialView.table.sort = .wait
        options.initialView.table.descending = true
        options.initialView.table.hideFinished = true
        let (session, screen) = firstFrame(options)
        #expect(session.interaction.state.screen == .stuck)
        #expect(screen.contains("stuck by root cause"), "\(screen)")
        var overview = options
        overview.initialView.screen = .overview
        let (_, table) = firstFrame(overview)
        #expect(table.contains("Operations (finished hidden)  sort WAIT▼"), "\(table)")
    }

    @Test("narration is the options' own, whatever the initial view holds")
    func narrationIsTheOptions() {
        var options = SessionOptions()
        options.initialView.narration.isOn = true
        options.narration = false
        #expect(firstFrame(options).0.interaction.state.narration.isOn == false)
        options.initialView.narration.isOn = false
        options.narration = true
        #expect(firstFrame(options).0.interaction.state.narration.isOn == true)
    }
}
