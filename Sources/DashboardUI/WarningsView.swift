import DashboardModel
import OperationEvents
import TerminalKit

/// The warnings list.
struct WarningsView {
    let theme: Theme

    func render(_ warnings: [Warning], offset: Int, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        if warnings.isEmpty {
            buffer.write("no warnings", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let lines = warnings.map { [TextBlock.Span("! ", theme.error), TextBlock.Span($0.message, $0.kind == .droppedEvents ? theme.error : theme.warning)] }
        TextBlock(lines: lines, offset: min(offset, max(0, warnings.count - area.height))).render(into: &buffer, area: area)
    }
}
