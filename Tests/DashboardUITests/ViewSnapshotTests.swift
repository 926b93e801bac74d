import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Every view at the three sizes people use (80x24, 120x40, 200x60), recorded as text in
/// `__Snapshots__` (OPSCOPE_RECORD=1 rewrites them after a deliberate change).
@Suite("UI: every view at 80x24, 120x40 and 200x60")
struct ViewSnapshotTests {
    static let sizes = [(80, 24), (120, 40), (200, 60)]

    /// The pipeline script's state, narrated event by event, `#6` selected (it waits on a chain).
    private func narratedBoard() -> (DashboardModel, Interaction) {
        var dashboard = Interaction(templates: [WorkTemplateInfo(name: "download", summary: "fetch a file (async)", queue: QueueID(1))])
        let model = narrated(pipelineScript(), into: &dashboard)
        dashboard.state.selection = 6
        dashboard.keepSelectionValid(model)
        return (model, dashboard)
    }

    @Test("each view, each size", arguments: ViewState.Screen.allCases)
    func views(view: ViewState.Screen) {
        for (width, height) in Self.sizes {
            var (model, dashboard) = narratedBoard()
            press([.character(Character(String(view.rawValue)))], &dashboard, model, width: width, height: height)
            #expect(dashboard.state.screen == view)
            let text = screen(model, dashboard, width: width, height: height).0.text
            expectSnapshot(text, named: "view-\(view.rawValue)-\(view.title.replacing(" ", with: "-"))-\(width)x\(height)")
        }
    }

    @Test("the overview's other states at 80x24: details, help, legend, warnings, ASCII")
    func smallScreens() {
        var (model, dashboard) = narratedBoard()
        press([.enter], &dashboard, model, width: 80, height: 24)
        expectSnapshot(screen(model, dashboard, width: 80, height: 24).0.text, named: "details-80x24")
        press([.escape, .character("?")], &dashboard, model, width: 80, height: 24)
        expectSnapshot(screen(model, dashboard, width: 80, height: 24).0.text, named: "help-80x24")
        press([.escape, .character("L")], &dashboard, model, width: 80, height: 24)
        expectSnapshot(screen(model, dashboard, width: 80, height: 24).0.text, named: "legend-80x24")
        press([.escape, .backTab, .backTab], &dashboard, model, width: 80, height: 24)
        #expect(dashboard.state.focus == .warnings)
        expectSnapshot(screen(model, dashboard, width: 80, height: 24).0.text, named: "warnings-80x24")
        press([.tab, .tab], &dashboard, model, width: 80, height: 24)
        expectSnapshot(screen(model, dashboard, width: 80, height: 24, theme: Theme(unicode: false, color: false)).0.text,
                       named: "overview-80x24-ascii")
    }
}

