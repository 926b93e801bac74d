import DashboardModel
import OperationEvents
import TerminalKit

/// The warnings list: each warning wrapped by words, one selected (Enter goes to its operation).
struct WarningsView {
    let theme: Theme

    /// Lines the warnings take at `width`.
    static func lineCount(_ warnings: [Warning], width: Int, theme: Theme) -> Int {
        warnings.reduce(0) { $0 + max(1, TextWrap.wrap(theme.text($1.message), width: max(1, width - 2)).count) }
    }

    func render(_ warnings: [Warning], selected: Int, focused: Bool, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard !area.isEmpty else { return }
        if warnings.isEmpty {
            buffer.write("no warnings", x: area.x, y: area.y, style: theme.dim, clip: area)
            return
        }
        let selected = min(max(0, selected), warnings.count - 1)
        var lines: [(text: String, first: Bool, index: Int)] = []
        var selectedRange = 0..<0
        for (index, warning) in warnings.enumerated() {
            let start = lines.count
            for (number, line) in TextWrap.wrap(theme.text(warning.message), width: max(1, area.width - 2)).enumerated() {
                lines.append((line, number == 0, index))
            }
            if index == selected { selectedRange = start..<lines.count }
        }
        // Scrolled so that the whole selected warning shows (its start, if it is taller than the pane).
        // When the warnings do not fit, the last row says how many more there are below, so that
        // a pane that ends mid-warning never looks like the end of the list.
        let overflows = lines.count > area.height && area.height >= 2
        let height = overflows ? area.height - 1 : area.height
        var offset = 0
        if selectedRange.upperBound > height { offset = min(selectedRange.lowerBound, selectedRange.upperBound - height) }
        let shown = lines.dropFirst(offset).prefix(height)
        if overflows, offset + height < lines.count, let last = shown.last {
            let cut = lines[offset + height].index == last.index
            let below = warnings.count - 1 - last.index
            let others = "\(below) more warning\(below == 1 ? "" : "s")"
            let what = cut ? (below > 0 ? "more of this one, \(others)" : "more of this one") : others
            buffer.write("↓ " + what + (focused ? " (↓)" : " (Tab, ↓)"), x: area.x, y: area.maxY - 1, style: theme.dim, clip: area)
        } else if overflows, offset > 0 {
            let text = "↑ \(lines[offset].index) more above"
            buffer.write(text, x: area.x, y: area.maxY - 1, style: theme.dim, clip: area)
        }
        for (row, line) in shown.enumerated() {
            let y = area.y + row
            let style = warnings[line.index].kind == .droppedEvents ? theme.error : theme.warning
            var x = buffer.write(line.first ? "! " : "  ", x: area.x, y: y, style: theme.error, clip: area)
            x = buffer.write(line.text, x: x, y: y, style: style, clip: area)
            let rect = Rect(x: area.x, y: y, width: area.width, height: 1)
            map.warningRows.append(WarningArea(rect: rect, index: line.index))
            if focused, line.index == selected { buffer.restyle(rect) { $0.attributes.insert(.reverse) } }
        }
    }
}
