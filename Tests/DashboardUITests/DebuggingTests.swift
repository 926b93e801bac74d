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
        var model = hangScript(name: "sync-account").model()
        #expect(OperationRows.ids(model, { var state = ViewState(); state.table.filter = "why:stuck"; return state }()).isEmpty)
        model.advance(to: model.now + 11_000_000_000)
        var state = ViewState()
        state.table.filter = "why:stuck"
        #expect(OperationRows.ids(model, state) == [1, 2], "past the 10 s warning: the hang and what waits on it")
    }

    @Test("stuck by root cause: a cycle first, then the suspended queue, then each root with what waits on it")
    func rootCauses() {
        let groups = RootCauseGroups.build(model)
        // #1 and #2 download, asynchronous, for 48 ms: not past the long-running threshold, so
        // what waits on them is work in progress, last, not a root cause.
        #expect(groups.groups.map(\.cause) == [.cycle(0), .suspended(QueueID(3)), .limit(QueueID(1)), .running])
        #expect(groups.groups.map(\.members) == [[8, 9], [7], [3, 10], [4, 5, 6]])
        #expect(groups.chains[6] == [6, 4, 1])
        var dashboard = board(model, select: 1)
        press([.character("2")], &dashboard, model)
        let text = screen(model, dashboard).0.text
        #expect(!text.contains("wait for: #1 download-a"), "\(text)")
        #expect(text.contains("3 wait for: dependencies still running"), "\(text)")
        #expect(text.contains("○ #6 update-ui") && text.contains("waits on #4 → #1"), "\(text)")
        press([.home], &dashboard, model)
        #expect(dashboard.state.selection == 8, "Home: the first listed operation")
        // Past the threshold, #1 is a root cause, and says what to check.
        let hung = model.advancing(by: 11_000_000_000)
        let late = RootCauseGroups.build(hung)
        // The hung operation heads its group although it runs (it has no diagnosis of its own).
        #expect(late.groups.contains { $0.cause == .operation(1) && $0.members == [1, 4, 6] && $0.root == 1 && $0.waiters == 2
            && $0.title.contains("must call finish()") })
        var lateBoard = board(hung, select: 4)
        press([.character("2")], &lateBoard, hung)
        #expect(screen(hung, lateBoard).0.lines().contains { $0.contains("#1 ") && $0.contains("the cause itself") })
        press([.down, .down, .enter], &dashboard, model)
        #expect(dashboard.state.screen == .overview && dashboard.state.selection == 7 && dashboard.state.details != nil)
        press([.escape, .character("2"), .escape], &dashboard, model)
        #expect(dashboard.state.screen == .overview, "Esc goes back to the overview")
    }

    @Test("a root that waits itself (never enqueued) is listed first and not counted among what waits for it")
    func rootNotItsOwnWaiter() {
        var script = EventScript()
        script.queue(1, "work", max: 2)
        script.add(7, queue: nil, "migrate-db")
        script.add(6, queue: 1, "launch", after: [7])
        script.add(8, queue: nil, "orphan")
        let model = script.model()
        let groups = RootCauseGroups.build(model)
        let migrate = try! #require(groups.groups.first { $0.cause == .operation(7) })
        #expect(migrate.members == [7, 6] && migrate.root == 7 && migrate.waiters == 1)
        var dashboard = board(model, select: 6)
        press([.character("2")], &dashboard, model)
        let lines = screen(model, dashboard).0.lines()
        #expect(lines.contains { $0.contains("1 waits for: #7 migrate-db was never added") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("#7 migrate-db") && $0.contains("the cause itself") })
        // Alone, it is stuck, waited for by nothing, and called the cause as every group's root is.
        #expect(lines.contains { $0.contains("stuck: #8 orphan was never added") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("#8 orphan") && $0.contains("the cause itself") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("n on a root cause says why: the lost finish, the asynchronous operation that never finishes")
    func nextSaysWhy() {
        let model = hangScript(name: "never-finishes").model().advancing(by: 12_000_000_000)
        var dashboard = board(model, select: 1)
        press([.character("N"), .character("n")], &dashboard, model)
        #expect(dashboard.state.selection == 1)
        let status = dashboard.state.status?.text ?? ""
        #expect(status.hasPrefix("stuck 1 of 2: #1 never-finishes: asynchronous, executing 12 s: never calls finish()?"), "\(status)")
    }

    @Test("ready and never started: n visits it, the graph marks it a root cause, view 3 does not promise it starts next, ? names it")
    func readyNeverStarted() {
        // The readiness demo's refresh-token: its isReady turned true untold, its queue has room.
        let (soon, model) = untoldGateScript()
        var dashboard = board(model, select: 1)
        press([.character("N"), .character("n")], &dashboard, model)
        #expect(dashboard.state.selection == 1)
        #expect(dashboard.state.status?.text.contains("#1 refresh-token is ready and queue q1 'auth' has a free slot") == true,
                "\(dashboard.state.status?.text ?? "")")
        // At 80 columns the graph has room for the root's words too.
        let graph = screen(model, dashboard, width: 80, height: 24).0.lines()
        #expect(graph.contains { $0.contains("◐ #1 refresh-token ◆ not started") }, "\(graph.joined(separator: "\n"))")
        press([.character("3")], &dashboard, model)
        let order = screen(model, dashboard).0.lines()
        #expect(order.contains { $0.contains("#1 refresh-token") && $0.contains("ready, not started: queue not told?") },
                "\(order.joined(separator: "\n"))")
        #expect(!order.contains { $0.contains("starts next") })
        // Within the grace it is simply next, and not marked.
        var early = board(soon, select: 1)
        press([.character("3")], &early, soon)
        #expect(screen(soon, early).0.text.contains("starts next"))
        press([.character("1")], &early, soon)
        #expect(!screen(soon, early).0.text.contains("◆"))
        // The help of n names what it visits, this too.
        let help = KeyBindings.all.first { $0.label == "n" }?.help ?? ""
        #expect(help.contains("ready but not started"), "\(help)")
    }

    @Test("why it waits says what to do: Foundation's terms in the model (the report), the keys in the dashboard")
    func adviceAndKeys() {
        let thumbnail = model.diagnosis(of: 7)?.message ?? ""
        #expect(thumbnail == "#7 thumbnail is ready but queue q3 'paused' is suspended: resume it (isSuspended = false)")
        let hung = model.advancing(by: 11_000_000_000)
        let parse = hung.diagnosis(of: 4)?.message ?? ""
        #expect(parse.contains("#1 download-a executing 11 s, asynchronous: does it ever finish? Its work must call finish()"), "\(parse)")
        #expect(parse.contains("cancel() unblocks its dependents only if it then finishes"), "\(parse)")
        #expect(!parse.contains("select") && !thumbnail.contains("select"), "no keys in the model's words")
        var dashboard = board(model, select: 7)
        press([.enter], &dashboard, model)
        #expect(screen(model, dashboard).0.text.contains("resume it here: select q3, s"))
        press([.character("2")], &dashboard, model)
        #expect(screen(model, dashboard).0.text.contains("resume it (isSuspended = false); here: select q3, s"))
        // A replay takes no commands: no keys to suggest.
        dashboard.state.timeline = TimelineState(position: 1, duration: 8, playing: false, speed: 1)
        dashboard.commandsRefused = "a recording takes no commands"
        press([.character("1")], &dashboard, model)
        #expect(!screen(model, dashboard).0.text.contains("select q3, s"))
    }
}

/// An asynchronous operation `name` that starts and never finishes, and one that waits on it.
private func hangScript(name: String) -> EventScript {
    var script = EventScript()
    script.queue(1, "jobs", max: 2)
    script.add(1, queue: 1, name, async: true)
    script.add(2, queue: 1, "render-feed", after: [1])
    script.start(1)
    return script
}

private extension DashboardModel {
    /// The model `nanoseconds` later, nothing else happening.
    func advancing(by nanoseconds: UInt64) -> DashboardModel {
        var model = self
        model.advance(to: model.now + nanoseconds)
        return model
    }
}
