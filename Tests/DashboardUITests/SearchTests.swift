import DashboardModel
import DashboardUI
import OperationEvents
import OpScopeTestSupport
import TerminalKit
import Testing

/// The find line (F3, Ctrl-F): the selection jumps to what matches, and nothing is hidden.
@Suite("UI: find, beside the filter")
struct SearchTests {
    let model = pipelineScript().model()

    @Test("typing jumps to the first match from the selection; F3 the next, wrapping; Ctrl-P back; no row is hidden")
    func jumps() {
        var dashboard = board(model, select: 1)
        let all = OperationRows.ids(model, dashboard.state)
        press([.function(3)] + keys("parse"), &dashboard, model)
        #expect(dashboard.state.input?.kind == .search)
        #expect(dashboard.state.selection == 4, "the first parse after #1")
        #expect(OperationRows.ids(model, dashboard.state) == all, "a search hides nothing")
        #expect(dashboard.state.status?.text.hasPrefix("find 'parse': #4 parse-a, 1 of 2") == true, "\(dashboard.state.status?.text ?? "")")
        press([.function(3)], &dashboard, model)
        #expect(dashboard.state.selection == 5)
        press([.control("n")], &dashboard, model)
        #expect(dashboard.state.selection == 4 && dashboard.state.status?.text.contains("wrapped around") == true)
        press([.control("p")], &dashboard, model)
        #expect(dashboard.state.selection == 5)
        let screenText = screen(model, dashboard).0.text
        #expect(screenText.contains("find: parse") && screenText.contains("download-a"), "the line shows, the other rows stay")
        press([.enter], &dashboard, model)
        #expect(dashboard.state.input == nil && dashboard.state.selection == 5)
        // F3 again opens the last search, and F3 on it goes on from where the selection is.
        press([.function(3)], &dashboard, model)
        #expect(dashboard.state.input?.text == "parse")
        press([.function(3)], &dashboard, model)
        #expect(dashboard.state.selection == 4)
    }

    @Test("Esc goes back to where the search started; the filter's words work; bad words and no match are said")
    func backAndErrors() {
        var dashboard = board(model, select: 2)
        press([.control("f")] + keys("state:ready"), &dashboard, model)
        let jumped = dashboard.state.selection
        #expect(jumped != 2 && jumped.flatMap { model.operations[$0]?.state } == .ready)
        press([.escape], &dashboard, model)
        #expect(dashboard.state.selection == 2 && dashboard.state.input == nil)
        press([.function(3)] + keys("nosuchname"), &dashboard, model)
        #expect(dashboard.state.status?.text.contains("no operation listed matches") == true)
        #expect(dashboard.state.selection == 2, "nothing found: the selection stays")
        press([.escape, .function(3)] + keys("colour:red"), &dashboard, model)
        #expect(dashboard.state.status?.isError == true && dashboard.state.status?.text.contains("unknown filter key") == true)
    }

    @Test("a filter and a search together: the search looks among the rows the filter lets through")
    func withinTheFilter() {
        var dashboard = board(model, select: 1)
        press([.character("/")] + keys("queue:net") + [.enter], &dashboard, model)
        press([.function(3)] + keys("ui"), &dashboard, model)
        #expect(dashboard.state.status?.text.contains("no operation listed matches") == true, "update-ui is filtered out")
    }
}
