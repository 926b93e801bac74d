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
        var offset = 0
        if selectedRange.upperBound > area.height { offset = min(selectedRange.lowerBound, selectedRange.upperBound - area.height) }
        for (row, line) in lines.dropFirst(offset).prefix(area.height).enumerated() {
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
