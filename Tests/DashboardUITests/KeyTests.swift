import DashboardModel
import Foundation
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

@Suite("UI: keys, their effect on the view and the commands they send")
struct KeyTests {
    let model = pipelineScript().model()

    private func board(select id: OperationID? = 4) -> Interaction {
        var dashboard = Interaction(templates: [WorkTemplateInfo(name: "download", summary: "fetch", queue: QueueID(1))])
        dashboard.state.selection = id
        dashboard.keepSelectionValid(model)
        return dashboard
    }

    private func type(_ text: String, into dashboard: inout Interaction) -> [Effect] {
        var last: [Effect] = []
        for character in text { last = dashboard.handle(.character(character), model: model) }
        return last
    }

    @Test("movement: arrows, j/k, Home/End, PgUp/PgDn follow the table order")
    func movement() {
        var dashboard = board(select: 1)
        #expect(dashboard.handle(.down, model: model) == [.redraw])
        #expect(dashboard.state.selection == 2)
        _ = dashboard.handle(.character("j"), model: model)
        #expect(dashboard.state.selection == 3)
        _ = dashboard.handle(.character("k"), model: model)
        _ = dashboard.handle(.up, model: model)
        #expect(dashboard.state.selection == 1)
        _ = dashboard.handle(.up, model: model)
        #expect(dashboard.state.selection == 1, "stays on the first row")
        _ = dashboard.handle(.end, model: model)
        #expect(dashboard.state.selection == 11)
        _ = dashboard.handle(.home, model: model)
        #expect(dashboard.state.selection == 1)
        _ = dashboard.handle(.pageDown, model: model)
        #expect(dashboard.state.selection == 2, "a page is the visible rows (none drawn yet: one row)")
        #expect(dashboard.state.queue == QueueID(1))
        _ = dashboard.handle(.end, model: model)
        #expect(dashboard.state.queue == QueueID(2), "the selected queue follows the selection")
    }

    @Test("Enter opens details, Esc goes back, Tab cycles panes, ? and F1 open help")
    func panes() {
        var dashboard = board()
        _ = dashboard.handle(.enter, model: model)
        #expect(dashboard.state.details != nil)
        _ = dashboard.handle(.escape, model: model)
        #expect(dashboard.state.details == nil)
        #expect(dashboard.handle(.escape, model: model).isEmpty)
        _ = dashboard.handle(.tab, model: model)
        #expect(dashboard.state.focus == .graph)
        _ = dashboard.handle(.backTab, model: model)
        _ = dashboard.handle(.backTab, model: model)
        #expect(dashboard.state.focus == .queues, "the queue lines are a pane too, above the table")
        _ = dashboard.handle(.backTab, model: model)
        #expect(dashboard.state.focus == .warnings)
        _ = dashboard.handle(.function(1), model: model)
        #expect(dashboard.state.overlay == .help(offset: 0))
        _ = dashboard.handle(.character("x"), model: model)
        #expect(dashboard.state.overlay == nil)
        _ = dashboard.handle(.character("?"), model: model)
        #expect(dashboard.handle(.character("q"), model: model).quits)
    }

    @Test("c and F9 cancel after a yes; Space tags and cancel takes the tagged; n and Enter send nothing")
    func cancel() {
        var dashboard = board(select: 4)
        #expect(dashboard.handle(.character("c"), model: model).command == nil)
        guard case .confirm(let confirmation) = dashboard.state.overlay else { Issue.record("no confirmation"); return }
        #expect(confirmation.question == "Cancel #4 parse-a? (y/n)  only y cancels; Enter or any other key keeps it")
        #expect(dashboard.handle(.character("y"), model: model).command == .cancel(operations: [4]))
        #expect(dashboard.state.overlay == nil)
        _ = dashboard.handle(.function(9), model: model)
        #expect(dashboard.handle(.character("n"), model: model).command == nil)
        #expect(dashboard.state.overlay == nil)
        // Tag #4 and #5 (Space moves down), then cancel both.
        _ = dashboard.handle(.character(" "), model: model)
        _ = dashboard.handle(.character(" "), model: model)
        #expect(dashboard.state.table.tagged == [4, 5])
        _ = dashboard.handle(.character("c"), model: model)
        #expect(dashboard.handle(.enter, model: model).command == nil, "Enter is not a yes")
        #expect(dashboard.state.table.tagged == [4, 5] && dashboard.state.overlay == nil)
        _ = dashboard.handle(.character("c"), model: model)
        #expect(dashboard.handle(.character("y"), model: model).command == .cancel(operations: [4, 5]))
        #expect(dashboard.state.table.tagged.isEmpty)
        // A finished operation cannot be cancelled: an error, no prompt.
        var finished = board(select: 11)
        _ = finished.handle(.character("c"), model: model)
        #expect(finished.state.overlay == nil && finished.state.status?.isError == true)
    }

    @Test("C cancels the queue's unfinished operations after a yes; s suspends and resumes; ) and ( change max concurrency; + and - ask for speed")
    func queueCommands() {
        var dashboard = board(select: 4)
        _ = dashboard.handle(.character("C"), model: model)
        #expect(dashboard.handle(.character("y"), model: model).command == .cancel(operations: [1, 2, 3, 4, 5, 10]))
        #expect(dashboard.handle(.character("s"), model: model).command == .setSuspended(queue: QueueID(1), suspended: true))
        #expect(dashboard.handle(.character(")"), model: model).command == .setMaxConcurrency(queue: QueueID(1), count: 3))
        #expect(dashboard.handle(.function(7), model: model).command == .setMaxConcurrency(queue: QueueID(1), count: 1))
        #expect(dashboard.handle(.character("+"), model: model) == [.playback(.faster), .redraw])
        #expect(dashboard.handle(.character("-"), model: model) == [.playback(.slower), .redraw])
        var paused = board(select: 7)
        #expect(paused.handle(.character("s"), model: model).command == .setSuspended(queue: QueueID(3), suspended: false))
        #expect(paused.handle(.character(")"), model: model).command == nil, "no limit to raise")
        #expect(paused.state.status?.isError == true)
        var serial = board(select: 6)
        #expect(serial.handle(.character("("), model: model).command == nil, "already serial")
    }

    @Test("a adds work from the picker; : takes the full form; errors land in the status line and send nothing")
    func addWork() {
        var dashboard = board()
        _ = dashboard.handle(.character("a"), model: model)
        #expect(dashboard.state.overlay == .picker(row: 0))
        #expect(dashboard.handle(.enter, model: model).command == .addWork(WorkRequest(template: "download", queue: QueueID(1))))
        _ = dashboard.handle(.character(":"), model: model)
        _ = type("add download x3 after 4,#5 qos=utility priority=high", into: &dashboard)
        let action = dashboard.handle(.enter, model: model)
        #expect(action.command == .addWork(WorkRequest(template: "download", count: 3, qualityOfService: .utility,
                                                        priority: .high, dependencies: [4, 5], queue: QueueID(1))))
        for (line, message) in [
            ("add nothing", "unknown template 'nothing'; known: download"),
            ("add download x0", "bad count 'x0': use x1 ... x10000"),
            ("add download x-1", "bad count 'x-1': use x1 ... x10000"),
            ("add download x99999999", "bad count 'x99999999': use x1 ... x10000"),
            ("add download after 99", "no operation #99: unknown, or released and forgotten"),
            ("add download after 11", "#11 has already finished"),
            ("add download after x", "bad id 'x': ids are numbers like 12 or #12"),
            ("add download qos=fast", "bad qos 'fast': use ui, init (or ua), def, util, bg, or the full names (userInteractive ...)"),
            ("add download priority=urgent", "bad priority 'urgent': use vlow, low, norm, high, vhigh (or veryLow ... veryHigh)"),
            ("launch", "unknown command 'launch': try :add TEMPLATE [xN] [after ID,...] [qos=CLASS] [priority=LEVEL]"),
            ("add download \u{1}\u{7f}", "unexpected '??': :add TEMPLATE [xN] [after ID,...] [qos=CLASS] [priority=LEVEL]"),
            ("add \u{FFFD}\u{FFFD}", "unknown template '\u{FFFD}\u{FFFD}'; known: download"),
        ] {
            _ = dashboard.handle(.character(":"), model: model)
            _ = type(line, into: &dashboard)
            let result = dashboard.handle(.enter, model: model)
            #expect(result.command == nil, "\(line) sent a command")
            #expect(dashboard.state.status?.text == message && dashboard.state.status?.isError == true, "\(line)")
        }
        // Very long input stops at the limit with a message.
        _ = dashboard.handle(.character(":"), model: model)
        _ = type(String(repeating: "a", count: 300), into: &dashboard)
        guard let text = dashboard.state.input?.text else { Issue.record("prompt closed"); return }
        #expect(text.count == CommandPrompt.maximumLength)
        #expect(dashboard.handle(.escape, model: model) == [.redraw] && dashboard.state.input == nil)
        // No templates: a says so.
        var bare = Interaction()
        _ = bare.handle(.character("a"), model: model)
        #expect(bare.state.overlay == nil && bare.state.status?.isError == true)
    }

    @Test("/ filters as you type, Esc clears and the selection comes back; < > choose the sort column, I inverts")
    func filterAndSort() {
        var dashboard = board()
        _ = dashboard.handle(.character("/"), model: model)
        _ = type("download", into: &dashboard)
        #expect(OperationRows.ids(model, dashboard.state) == [1, 2, 3])
        dashboard.keepSelectionValid(model)  // what the next frame does
        #expect(dashboard.state.selection == 1, "the selection moves into the filtered rows")
        _ = dashboard.handle(.enter, model: model)
        #expect(dashboard.state.table.filter == "download" && dashboard.state.input == nil)
        _ = dashboard.handle(.escape, model: model)
        #expect(dashboard.state.table.filter.isEmpty)
        dashboard.keepSelectionValid(model)
        #expect(dashboard.state.selection == 4, "the selection the filter moved away from comes back")
        dashboard.state.table.filter = "state:pending queue:net"
        #expect(OperationRows.ids(model, dashboard.state) == [4, 5])
        dashboard.state.table.filter = ""
        _ = dashboard.handle(.character(">"), model: model)
        _ = dashboard.handle(.character(">"), model: model)
        _ = dashboard.handle(.character(">"), model: model)
        #expect(dashboard.state.table.sort == .state)
        #expect(OperationRows.ids(model, dashboard.state).prefix(2) == [1, 2], "executing first")
        _ = dashboard.handle(.character("I"), model: model)
        #expect(OperationRows.ids(model, dashboard.state).first == 11, "finished first when inverted")
        _ = dashboard.handle(.character("<"), model: model)
        #expect(dashboard.state.table.sort == .queue)
    }

    @Test("g toggles the graph view, f pins the chain, p pauses, Ctrl-L redraws all, q and F10 quit")
    func toggles() {
        var dashboard = board()
        _ = dashboard.handle(.character("g"), model: model)
        #expect(dashboard.state.graph.layout == .all && dashboard.state.focus == .graph)
        _ = dashboard.handle(.character("f"), model: model)
        #expect(dashboard.state.graph.pinned == 4 && dashboard.state.graph.layout == .focused, "f pins the selection's chain")
        _ = dashboard.handle(.character("p"), model: model)
        #expect(dashboard.state.paused)
        #expect(dashboard.handle(.control("l"), model: model).contains(.fullRedraw))
        #expect(dashboard.handle(.character("q"), model: model).quits)
        #expect(dashboard.handle(.function(10), model: model).quits)
    }

    @Test("mouse: a click selects the row under it, the wheel scrolls; off with --no-mouse")
    func mouse() {
        var dashboard = board(select: 1)
        let (_, map) = FrameComposer().compose(model, dashboard, width: 120, height: 40)
        dashboard.map = map
        let row = map.tableBody.y + 3
        _ = dashboard.handle(.mouse(MouseEvent(.press, x: map.tableBody.x + 2, y: row)), model: model)
        #expect(dashboard.state.selection == map.tableIDs[3])
        _ = dashboard.handle(.mouse(MouseEvent(.wheelDown, x: 0, y: 0)), model: model)
        #expect(dashboard.state.selection == 7)
        var noMouse = Interaction(mouseEnabled: false)
        noMouse.state.selection = 1
        #expect(noMouse.handle(.mouse(MouseEvent(.wheelDown, x: 0, y: 0)), model: model).isEmpty)
        #expect(noMouse.state.selection == 1)
    }

    @Test("the table scrolls like a list: moving up from the bottom moves the selection, not the view")
    func scrolling() {
        var script = EventScript()
        script.queue(1, "q")
        for id in 1...80 { script.add(id, queue: 1, "op-\(id)") }
        let many = script.model()
        var dashboard = Interaction()
        dashboard.keepSelectionValid(many)
        let screen = FrameComposer()
        func frame() { dashboard.map = screen.compose(many, dashboard, width: 120, height: 40).1 }
        frame()
        _ = dashboard.handle(.end, model: many)
        frame()
        let firstShown = dashboard.map.tableIDs.first
        #expect(dashboard.map.tableIDs.last == 80)
        _ = dashboard.handle(.up, model: many)
        frame()
        #expect(dashboard.state.selection == 79)
        #expect(dashboard.map.tableIDs.first == firstShown, "the view jumped")
    }

    @Test("random keys never break the invariants: selection exists, commands name live ids")
    func fuzz() {
        let seed = SeededRandom.seed(default: 20_261_123, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        var dashboard = board()
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .enter, .escape, .tab, .backTab, .backspace,
                           .left, .right, .delete, .function(1), .function(9), .function(10), .control("l"), .control("u"),
                           .control("w"), .resize]
            + "jkcCsa:/<>Igfp?q +-()yn.RtLHN!|\u{1b}[A0123456789x".map { Key.character($0) }
        for step in 0..<20_000 {
            let key: Key = Int.random(in: 0..<10, using: &random) == 0
                ? .mouse(MouseEvent([.press, .wheelUp, .wheelDown][Int.random(in: 0..<3, using: &random)],
                                    x: Int.random(in: -5..<130, using: &random), y: Int.random(in: -5..<45, using: &random)))
                : keys.randomElement(using: &random)!
            let action = dashboard.handle(key, model: model)
            if let selection = dashboard.state.selection { #expect(model.operations.contains(selection), "seed \(seed)") }
            switch action.command {
            case .cancel(let ids): #expect(ids.allSatisfy { model.operations[$0].map { $0.state != .finished } ?? false })
            case .cancelAll(let queue), .setSuspended(let queue, _), .setMaxConcurrency(let queue, _): #expect(model.queues[queue] != nil)
            case .addWork(let request): #expect(request.dependencies.allSatisfy { model.operations.contains($0) })
            case nil: break
            }
            if step % 100 == 0 {
                // Redraw now and then so that mouse events meet a real screen map.
                let (_, map) = FrameComposer().compose(model, dashboard, width: 120, height: 40)
                dashboard.map = map
            }
        }
    }
}
