import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// What was found wrong when the dashboard was tried as a new user would: the mouse over the
/// help, things that look clickable, the help's box and text, the title's badges, the legend.
@Suite("UI: the mouse, the help and the legend, the title's badges")
struct MouseAndHelpTests {
    let model = pipelineScript().model()

    private func lines(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int = 120, _ height: Int = 40) -> [String] {
        screen(model, dashboard, width: width, height: height).0.lines()
    }

    private func click(_ x: Int, _ y: Int) -> Key { .mouse(MouseEvent(.press, x: x, y: y)) }

    /// The open overlay's text, its wrapped lines joined by single spaces.
    private func overlayText(_ model: DashboardModel, _ dashboard: Interaction, _ width: Int = 120, _ height: Int = 40) -> String {
        let body = dashboard.map.overlayBody
        return lines(model, dashboard, width, height)[body.y..<body.maxY]
            .map { String(Array($0).dropFirst(body.x).prefix(body.width)) }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    @Test("the wheel scrolls the help and leaves it open; a click inside keeps it, one outside closes it; the wheel leaves the legend open")
    func wheelOverHelp() {
        var dashboard = board(model)
        press([.character("?")], &dashboard, model, width: 80, height: 24)
        let body = dashboard.map.overlayBody
        let inside = (x: body.x + 5, y: body.y + 3)
        press([.mouse(MouseEvent(.wheelDown, x: inside.x, y: inside.y))], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.overlay == .help(offset: 3), "the wheel scrolls the help")
        press([.mouse(MouseEvent(.wheelDown, x: inside.x, y: inside.y))], &dashboard, model, width: 80, height: 24)
        press([.mouse(MouseEvent(.wheelUp, x: inside.x, y: inside.y))], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.overlay == .help(offset: 3))
        for _ in 0..<200 { _ = dashboard.handle(.mouse(MouseEvent(.wheelDown, x: inside.x, y: inside.y)), model: model) }
        guard case .help(let last) = dashboard.state.overlay else {
            Issue.record("the wheel closed the help")
            return
        }
        #expect(last == dashboard.map.overlayLines - body.height, "the wheel stops at the help's end")
        press([click(inside.x, inside.y)], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.overlay != nil, "a click inside the help keeps it")
        press([click(0, 23)], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.overlay == nil, "a click outside closes it")
        press([.character("L"), .mouse(MouseEvent(.wheelDown, x: 40, y: 10))], &dashboard, model, width: 80, height: 24)
        guard case .help = dashboard.state.overlay else {
            Issue.record("the wheel closed the legend")
            return
        }
        var noMouse = Interaction(mouseEnabled: false)
        _ = noMouse.handle(.character("?"), model: model)
        #expect(noMouse.handle(.mouse(MouseEvent(.wheelDown, x: 5, y: 5)), model: model).isEmpty)
        #expect(noMouse.state.overlay == .help(offset: 0), "--no-mouse: the mouse does nothing to the help")
    }

    @Test("the help and the legend leave no pane border beside their box, at 80x24 and wider", arguments: [80, 101, 130])
    func overlayCoversBorders(width: Int) {
        for key in [Key.character("?"), .character("L")] {
            var dashboard = board(model)
            press([key], &dashboard, model, width: width, height: 24)
            let body = dashboard.map.overlayBody
            let shown = lines(model, dashboard, width, 24)
            for row in (body.y - 1)...body.maxY {
                let line = Array(shown[row])
                let left = body.x - 2
                let right = body.maxX + 1
                let outside = [left, right].filter { $0 >= 0 && $0 < line.count }.map { line[$0] }
                #expect(outside.allSatisfy { $0 == " " }, "\(key) at \(width): a border beside the box on row \(row):\n\(shown[row])")
            }
        }
    }

    @Test("a key bar entry acts as its key: F1 Help opens the help, s Suspend suspends, 1-5 View goes to the next view")
    func keyBarClicks() {
        var dashboard = board(model)
        dashboard.map = screen(model, dashboard).1
        func entry(_ text: String) -> Rect? { dashboard.map.keyBar.first { $0.text == text }?.rect }
        guard let help = entry("F1Help"), let suspend = entry("sSuspend"), let view = entry("1-5View") else {
            Issue.record("key bar entries missing: \(dashboard.map.keyBar.map(\.text))")
            return
        }
        press([click(help.x + 3, help.y)], &dashboard, model)
        #expect(dashboard.state.overlay == .help(offset: 0))
        press([.escape], &dashboard, model)
        let effects = press([click(suspend.x, suspend.y)], &dashboard, model)
        guard case .setSuspended(_, true) = effects.command else {
            Issue.record("no suspend command: \(effects)")
            return
        }
        press([click(view.maxX - 1, view.y)], &dashboard, model)
        #expect(dashboard.state.screen == .stuck)
        // A message over the key bar: its entries are not there to click.
        dashboard.status(String(repeating: "a long message ", count: 12))
        dashboard.map = screen(model, dashboard).1
        #expect(dashboard.map.keyBar.isEmpty, "\(dashboard.map.keyBar.map(\.text))")
    }

    @Test(":help opens the help at the : commands, ? at its top; scrolling goes on from where it opened", arguments: [(80, 24), (200, 60)])
    func commandLineHelp(size: (width: Int, height: Int)) {
        var dashboard = board(model)
        press([.character(":")] + keys("help") + [.enter], &dashboard, model, width: size.width, height: size.height)
        let body = dashboard.map.overlayBody
        let shown = lines(model, dashboard, size.width, size.height)
        // At the top of the box, or, where the rest of the help is shorter than the box, on it.
        let heading = shown[body.y ..< body.maxY].firstIndex { $0.contains("Commands (:)") }
        #expect(heading != nil, "\(shown[body.y ..< body.maxY].joined(separator: "\n"))")
        #expect(heading == body.y || dashboard.map.overlayFirst == dashboard.map.overlayLines - body.height, "\(shown[body.y])")
        #expect(shown[body.y ..< body.maxY].joined().contains(":suspend"), "the commands are on screen")
        let opened = dashboard.map.overlayFirst
        #expect(opened > 0)
        press([.up], &dashboard, model, width: size.width, height: size.height)
        #expect(dashboard.state.overlay == .help(offset: opened - 1), "a line up from where it opened, not from the top")
        press([.escape], &dashboard, model, width: size.width, height: size.height)
        #expect(dashboard.state.overlay == nil)
        press([.character("?")], &dashboard, model, width: size.width, height: size.height)
        #expect(dashboard.state.overlay == .help(offset: 0))
        let top = lines(model, dashboard, size.width, size.height)[dashboard.map.overlayBody.y]
        #expect(!top.contains("Commands (:)") && dashboard.map.overlayFirst == 0, "\(top)")
    }

    @Test("a click on an operation in the QoS lanes selects it; a click on a warning goes to its operation")
    func lanesAndWarnings() {
        var dashboard = board(model, select: 1)
        dashboard.map = screen(model, dashboard, width: 200, height: 60).1
        guard let other = dashboard.map.laneOperations.first(where: { $0.operation != 1 }) else {
            Issue.record("no operation in the lanes")
            return
        }
        press([click(other.rect.x, other.rect.y)], &dashboard, model, width: 200, height: 60)
        #expect(dashboard.state.selection == other.operation)
        #expect(dashboard.state.focus == .lanes)
        let warnings = model.warnings()
        guard let row = dashboard.map.warningRows.first(where: { warnings[$0.index].operation != nil }),
              let target = warnings[row.index].operation else {
            Issue.record("no warning about an operation on screen")
            return
        }
        press([click(row.rect.x + 2, row.rect.y)], &dashboard, model, width: 200, height: 60)
        #expect(dashboard.state.selection == target)
        #expect(dashboard.state.details != nil, "the click goes to the warning's operation, as Enter does")
    }

    @Test("the title's badges are set apart at every width; the warnings stay longest", arguments: Array(stride(from: 40, through: 200, by: 8)))
    func titleBadges(width: Int) {
        var dashboard = board(model)
        dashboard.state.narration.isOn = true
        let title = lines(model, dashboard, width, 24)[0]
        #expect(!title.contains("narrating 1") && !title.contains("warnings 1") && !title.contains("warnings narrating"), "\(title)")
        if title.contains("ops") { #expect(title.contains("! 2 warnings · "), "\(title)") }
        if title.contains("narrating") { #expect(title.contains("narrating · 11 ops") || !title.contains("ops"), "\(title)") }
        #expect(title.contains("! 2 warnings"), "the warnings badge goes last:\n\(title)")
    }

    @Test("the help says how long the \"too long\" warnings wait (scaled as a slowed demo scales them)")
    func warningDelays() {
        var configuration = ModelConfiguration()
        configuration.finishedRetention = 600_000_000_000
        configuration.longExecution = 200_000_000_000
        configuration.cancelledStillExecuting = 40_000_000_000
        let slow = pipelineScript().model(configuration)
        var dashboard = board(slow)
        press([.character("?")], &dashboard, slow)
        let help = overlayText(slow, dashboard)
        #expect(help.contains("Finished operations stay listed for 10 min"), "\(help)")
        #expect(help.contains("wait 3 min for an operation still executing, 40 s for a cancelled one"), "\(help)")
    }

    @Test("the legend names Foundation's keys: isReady true and false, isExecuting, isFinished, isCancelled, queuePriority, qualityOfService")
    func legendKeyNames() {
        var dashboard = board(model)
        press([.character("L")], &dashboard, model, width: 200, height: 60)
        let legend = overlayText(model, dashboard, 200, 60)
        for words in ["executing: isExecuting true", "ready: isReady true", "pending: isReady false", "finished: isFinished true",
                      "cancelled: isCancelled true", "PRIO queuePriority", "QOS qualityOfService"] {
            #expect(legend.contains(words), "\(words) missing from the legend")
        }
    }

    @Test("the legend's pending names a condition of the operation's own, and ~ does not say its queue is unobserved")
    func legendReadiness() {
        var dashboard = board(model)
        press([.character("L")], &dashboard, model, width: 200, height: 60)
        let legend = overlayText(model, dashboard, 200, 60)
        // An isReady override holds an operation with no dependency pending (the readiness demo's
        // gates), and a plain Operation in an observed queue has its start sampled.
        #expect(legend.contains("pending: isReady false, waits on dependencies or a condition of its own"), "\(legend)")
        #expect(legend.contains("a key change seen by sampling (not reported when it happened)"), "\(legend)")
        #expect(!legend.contains("the queue is not observed exactly"))
    }
}
