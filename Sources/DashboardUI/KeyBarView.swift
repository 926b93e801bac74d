import DashboardModel
import OperationEvents
import TerminalKit

/// The bottom key bar (htop style). Entries that do not fit whole are left out, from the end,
/// except the last (Quit), which always shows.
struct KeyBarView {
    let theme: Theme

    func render(into buffer: inout Buffer, area: Rect) {
        var entries = KeyBindings.bar
        func width(_ list: [(key: String, name: String)]) -> Int { list.reduce(0) { $0 + $1.key.count + $1.name.count + 1 } - 1 }
        while entries.count > 2, width(entries) > area.width { entries.remove(at: entries.count - 2) }
        var x = area.x
        for (key, name) in entries {
            guard x < area.maxX else { break }
            x = buffer.write(key, x: x, y: area.y, style: theme.header, clip: area)
            x = buffer.write(name, x: x, y: area.y, style: theme.keyName, clip: area)
            x = buffer.write(" ", x: x, y: area.y, clip: area)
        }
    }
}
