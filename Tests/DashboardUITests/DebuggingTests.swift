import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13, "what a developer hunting a stuck dependency missed": n and N, the stuck view
/// grouping waiting work under its root cause.
@Suite("UI: finding what is stuck")
struct DebuggingTests {
    let model = pipelineScript().model()

    @Test("n and N visit the stuck operations in table order, wrapping around, and say why each is stuck")
    func nextAndPrevious() {
        var dashboard = board(model, select: 1)
        var visited: [OperationID?] = []
        for _ in 0..<4 {
            press([.character("n")], &dashboard, model)
            visited.append(dashboard.state.selection)
        }
        #expect(visited == [7, 8, 9, 7])
        #expect(dashboard.state.status?.text.hasPrefix("stuck 1 of 3: #7 thumbnail is ready but queue q3 'paused' is suspended") == true)
        press([.character("N")], &dashboard, model)
        #expect(dashboard.state.selection == 9)
        // A healthy program: nothing to visit, and the status says so.
        var healthy = EventScript()
        healthy.queue(1, "ok", max: 2)
        healthy.add(1, queue: 1, "fine")
        healthy.start(1)
        let calm = healthy.model()
        var quiet = board(calm, select: 1)
        press([.character("n")], &quiet, calm)
        #expect(quiet.state.selection == 1 && quiet.state.status?.isError == true)
    }

    @Test("a long-running asynchronous operation makes the work behind it stuck too")
    func behindAHang() {
        var script = EventScript()
        script.queue(1, "jobs", max: 2)
        script.add(1, queue: 1, "sync-account", async: true)
        script.add(2, queue: 1, "render-feed", after: [1])
        script.start(1)
        var model = script.model()
        #expect(OperationRows.ids(model, { var state = ViewState(); state.table.filter = "why:stuck"; return state }()).isEmpty)
        model.advance(to: model.now + 11_000_000_000)
        var state = ViewState()
        state.table.filter = "why:stuck"
        #expect(OperationRows.ids(model, state) == [1, 2], "past the 10 s warning: the hang and what waits on it")
    }

    @Test("stuck by root cause: a cycle first, then the suspended queue, then each root with what waits on it")
    func rootCauses() {
        let groups = RootCauseGroups.build(model)
        #expect(groups.groups.map(\.cause) == [.cycle(0), .suspended(QueueID(3)), .operation(1), .operation(2), .limit(QueueID(1))])
        #expect(groups.groups.map(\.members) == [[8, 9], [7], [4, 6], [5], [3, 10]])
        #expect(groups.chains[6] == [6, 4, 1])
        var dashboard = board(model, select: 1)
        press([.character("2")], &dashboard, model)
        let text = screen(model, dashboard).0.text
        #expect(text.contains("2 wait for: #1 download-a executing 48 ms, asynchronous"))
        #expect(text.contains("○ #6 update-ui") && text.contains("via #4"))
        press([.home], &dashboard, model)
        #expect(dashboard.state.selection == 8, "Home: the first listed operation")
        press([.down, .down, .enter], &dashboard, model)
        #expect(dashboard.state.screen == .overview && dashboard.state.selection == 7 && dashboard.state.details != nil)
        press([.escape, .character("2"), .escape], &dashboard, model)
        #expect(dashboard.state.screen == .overview, "Esc goes back to the overview")
    }
}
