import DashboardModel
import OperationEvents
import TerminalKit

/// Every key, over the panes.
struct HelpOverlay {
    let theme: Theme

    func render(offset: Int, into buffer: inout Buffer, area: Rect) {
        let width = min(area.width - 2, 96)
        let height = min(area.height, KeyBindings.all.count + CommandLineParser.usage.count + 4)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2), width: width, height: height)
        buffer.fill(box)
        let inner = Frame(title: "Keys (any key closes)", style: theme.focusedFrame, titleStyle: theme.focusedFrame, ascii: !theme.unicode)
            .render(into: &buffer, area: box)
        var lines = KeyBindings.all.map { [TextBlock.Span(GraphTextFit.pad($0.label, 12), theme.header), TextBlock.Span($0.help)] }
        lines.append([])
        lines += CommandLineParser.usage.map { [TextBlock.Span($0, theme.dim)] }
        TextBlock(lines: lines, offset: offset).render(into: &buffer, area: inner)
    }
}
