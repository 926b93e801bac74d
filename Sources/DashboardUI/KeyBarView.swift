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
    /// Whether the selected queue is suspended: `s` then resumes it, and says so.
    var selectedQueueSuspended = false

    /// Names left out first, in this order, when the bar is too narrow; then from the end.
    static let dropOrder = ["Sort", "Pane", "Graph", "Add", "View", "Filter", "Suspend", KeyBindings.resumeName, "Seek", "Restart",
                            "Speed"]

    func render(into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        var entries = KeyBindings.bar(replay: replay, selectedQueueSuspended: selectedQueueSuspended)
        func width(_ list: [(key: String, name: String)]) -> Int { list.reduce(0) { $0 + $1.key.count + $1.name.count + 1 } - 1 }
        for name in Self.dropOrder where width(entries) > area.width {
            entries.removeAll { $0.name == name }
        }
        while entries.count > 2, width(entries) > area.width { entries.remove(at: entries.count - 2) }
        var x = area.x
        map.keyBar = []
        for (key, name) in entries {
            guard x < area.maxX else { break }
            let start = x
            x = buffer.write(key, x: x, y: area.y, style: theme.header, clip: area)
            x = buffer.write(name, x: x, y: area.y, style: theme.keyName, clip: area)
            if let action = Self.action(key: key) {
                map.keyBar.append(KeyBarArea(rect: Rect(x: start, y: area.y, width: x - start, height: 1), text: key + name, action: action))
            }
            x = buffer.write(" ", x: x, y: area.y, clip: area)
        }
    }

    /// The action of the binding an entry shows, found by its key: the replay's `p` and the
    /// suspend entry are named by what they do now, and no two entries of a bar share a key.
    static func action(key: String) -> UserAction? {
        KeyBindings.all.first { binding in binding.bar?.key == key || binding.replayBar?.key == key }?.action
    }

    /// Keeps only the entries still on screen: a message too long for the status line goes on
    /// over the key bar, and a click there must not act as a key no longer shown.
    static func keepShown(_ map: inout ScreenMap, _ buffer: Buffer) {
        map.keyBar.removeAll { entry in
            let cells = (entry.rect.x..<entry.rect.maxX).map { buffer[$0, entry.rect.y] }
            return String(cells.filter { !$0.isContinuation }.map(\.character)) != entry.text
        }
    }
}

/// One entry of the key bar: its cells, its text, and the action a click on it takes.
public struct KeyBarArea: Sendable, Equatable {
    /// The cells.
    public var rect: Rect
    /// The key and name as drawn.
    public var text: String
    /// What its key does.
    public var action: UserAction
}
