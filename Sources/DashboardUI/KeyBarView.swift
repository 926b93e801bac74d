import DashboardModel
import OperationEvents
import TerminalKit

/// The bottom key bar (htop style). Entries that do not fit whole are left out, the least
/// needed first (`dropOrder`: sorting and pane switching have other ways in, while pause, cancel
/// and help are what a person looks for at once); Help and Quit always show. A replay takes no
/// commands: its bar shows the keys that move in the recording instead.
struct KeyBarView {
    let theme: Theme
    /// Where the replay is (nil: not a replay): p plays or pauses it.
    var replay: TimelineState? = nil

    /// Names left out first, in this order, when the bar is too narrow; then from the end.
    static let dropOrder = ["Sort", "Pane", "Graph", "Add", "View", "Filter", "Suspend", "Seek", "Restart", "Speed"]

    func render(into buffer: inout Buffer, area: Rect) {
        var entries = KeyBindings.bar(replay: replay)
        func width(_ list: [(key: String, name: String)]) -> Int { list.reduce(0) { $0 + $1.key.count + $1.name.count + 1 } - 1 }
        for name in Self.dropOrder where width(entries) > area.width {
            entries.removeAll { $0.name == name }
        }
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
