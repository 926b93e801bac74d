import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// The `stuck` demo's graph as a person sees it at the three sizes (golden screens in
/// `__Snapshots__/graph-*`; OPSCOPE_RECORD=1 rewrites them after a deliberate change): every
/// stuck operation, the edge from the migration to the launch, the cycle with its back edge and
/// its banner.
@Suite("Graph: the stuck demo at 80x24, 120x40 and 200x60")
struct GraphSnapshotTests {
    static let caption = "stuck: select a waiting operation and press Enter: the diagnosis names the root cause"

    /// The demo after twelve seconds: sync-account has run long enough to be suspected.
    static func stuckModel() -> DashboardModel {
        let script = stuckScript(seconds: 12)
        var model = script.model()
        model.advance(to: script.time)
        return model
    }

    /// The dashboard as the demo starts it (the first row selected), after `keys`.
    static func frame(_ model: DashboardModel, _ keys: [Key], width: Int, height: Int) -> (text: String, dashboard: Interaction) {
        var dashboard = Interaction()
        dashboard.keepSelectionValid(model)
        let composer = FrameComposer(theme: Theme(), caption: caption)
        dashboard.map = composer.compose(model, dashboard, width: width, height: height).1
        for key in keys {
            _ = dashboard.handle(key, model: model)
            dashboard.keepSelectionValid(model)
            dashboard.map = composer.compose(model, dashboard, width: width, height: height).1
        }
        return (composer.compose(model, dashboard, width: width, height: height).0.text, dashboard)
    }

    @Test("g: every group, stuck first, at each size", arguments: [(80, 24), (120, 40), (200, 60)])
    func wholeGraph(size: (Int, Int)) {
        let (width, height) = size
        let model = Self.stuckModel()
        let (text, _) = Self.frame(model, [.character("g")], width: width, height: height)
        expectSnapshot(text, named: "graph-stuck-\(width)x\(height)")
    }
}
