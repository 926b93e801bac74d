import DashboardModel
import OperationEvents
import TerminalKit

/// The bottom key bar (htop style).
struct KeyBarView {
    let theme: Theme

    func render(into buffer: inout Buffer, area: Rect) {
        var x = area.x
        for (key, name) in KeyBindings.bar {
            guard x < area.maxX else { break }
            x = buffer.write(key, x: x, y: area.y, style: theme.header, clip: area)
            x = buffer.write(name, x: x, y: area.y, style: theme.keyName, clip: area)
            x = buffer.write(" ", x: x, y: area.y, clip: area)
        }
    }
}
