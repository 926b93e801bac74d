import DashboardModel
import DashboardUI
import OpScopeTestSupport
import TerminalKit
import Testing

/// The bottom key bar keeps what a person looks for first when the screen is narrow.
@Suite("UI: the key bar at any width")
struct KeyBarTests {
    @Test("at 80 columns Help, Cancel, Pause and Quit stay; sorting goes first; nothing is cut mid-entry", arguments: [80, 60, 100, 200])
    func narrow(width: Int) {
        let model = pipelineScript().model()
        let lines = screen(model, board(model), width: width, height: 24).0.lines()
        let bar = lines.last ?? ""
        #expect(bar.hasPrefix("F1Help") && bar.hasSuffix("F10Quit"), "\(bar)")
        if width >= 80 { #expect(bar.contains("pPause") && bar.contains("F9Cancel"), "\(bar)") }
        if width >= 200 { #expect(bar.contains("<>Sort") && bar.contains("TabPane"), "\(bar)") }
        #expect(TerminalText.width(bar) <= width)
        let known = KeyBindings.bar.map { $0.key + $0.name }
        for entry in bar.split(separator: " ") { #expect(known.contains(String(entry)), "cut entry \(entry) in \(bar)") }
    }
}
