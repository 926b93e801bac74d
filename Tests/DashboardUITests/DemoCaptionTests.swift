import DashboardModel
import DashboardUI
import OpScopeDemos
import OpScopeTestSupport
import Testing

/// A demo's caption is its lesson: at 80x24, beside the badges a lesson's run shows (warnings,
/// narration, the count), it must be read whole on the title's two lines, not cut to `…`.
@Suite("UI: every demo's caption whole at 80x24")
struct DemoCaptionTests {
    @Test("each demo's caption fits the title's two lines beside warnings, narration and the count", arguments: Demo.all.map(\.name))
    func captionWhole(name: String) throws {
        let demo = try #require(Demo.all.first { $0.name == name })
        let model = pipelineScript().model()
        #expect(!model.warnings().isEmpty, "the badges include the warnings")
        var dashboard = board(model)
        dashboard.state.narration.isOn = true
        let caption = "\(demo.name): \(demo.caption)"
        let (buffer, _) = FrameComposer(caption: caption).compose(model, dashboard, width: 80, height: 24)
        let title = buffer.text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).joined(separator: " ")
        #expect(!title.contains("…"), "\(title)")
        let words = caption.split(separator: " ")
        #expect(title.contains(words.last!) && title.contains(words.first!), "\(title)")
    }
}
