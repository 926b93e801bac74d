import OperationEvents
import TerminalKit

/// The replay's bar above the status line: play state, position of duration, speed, the track
/// with the moments warnings appeared, and the keys that move in it.
struct TimelineBar {
    let theme: Theme

    func render(_ timeline: TimelineState, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let play = timeline.playing ? (theme.unicode ? "▶" : ">") : (theme.unicode ? "❚❚" : "||")
        let left = "\(play) \(Self.seconds(timeline.position)) / \(Self.seconds(timeline.duration))  ×\(Self.speed(timeline.speed)) "
        let hints = " p \(timeline.playing ? "pause" : "play")  [ ] 1 s  , . one event  { } marks  :seek"
        var x = buffer.write(theme.text(left), x: area.x, y: area.y, style: theme.title.with(.reverse), clip: area)
        x += 1
        let room = area.maxX - x
        let shownHints = room - hints.count >= 20 ? hints : ""
        let width = room - shownHints.count
        guard width >= 5 else { return }
        let track = Self.track(timeline, width: width)
        let (played, rest, cursor): (Character, Character, Character) = theme.unicode ? ("━", "─", "●") : ("=", "-", "O")
        for column in 0..<width {
            let cell: Cell
            if column == track.cursor {
                cell = Cell(cursor, style: theme.title)
            } else if track.marks.contains(column) {
                cell = Cell("!", style: theme.warning)
            } else {
                cell = Cell(column < track.cursor ? played : rest, style: column < track.cursor ? theme.title : theme.dim)
            }
            buffer[x + column, area.y] = cell
        }
        buffer.write(shownHints, x: x + width, y: area.y, style: theme.dim, clip: area)
    }

    /// The cursor's column and the marks' columns on a track `width` wide.
    static func track(_ timeline: TimelineState, width: Int) -> (cursor: Int, marks: Set<Int>) {
        func column(_ seconds: Double) -> Int {
            guard timeline.duration > 0, seconds.isFinite else { return 0 }
            return min(width - 1, max(0, Int(seconds / timeline.duration * Double(width - 1) + 0.5)))
        }
        return (column(timeline.position), Set(timeline.marks.map(column)))
    }

    /// `12.5 s`.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value >= 0 else { return "0.0 s" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `2`, `0.5`.
    static func speed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
