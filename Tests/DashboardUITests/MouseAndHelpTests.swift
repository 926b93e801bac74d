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

    private func click(_ x: Int, _ y: Int) -> Key { .mouse(MouseEvent(.press, x: x, y: y)) }


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
        #expect(dashboard.state.overlay == .legend, "the wheel does not close the legend")
        var noMouse = Interaction(mouseEnabled: false)
        _ = noMouse.handle(.character("?"), model: model)
        #expect(noMouse.handle(.mouse(MouseEvent(.wheelDown, x: 5, y: 5)), model: model).isEmpty)
        #expect(noMouse.state.overlay == .help(offset: 0), "--no-mouse: the mouse does nothing to the help")
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
}
