import Foundation

/// Damage made to a recording as a new user would with sed: for the tests of how the commands
/// read it.
enum RecordingDamage {
    /// Writes `file`'s lines to `path` without the event line in the middle (a line lost);
    /// returns that line's index (0-based) and the lines written.
    @discardableResult
    static func removeMiddleEvent(of file: String, writingTo path: String) throws -> (index: Int, lines: [String]) {
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let events = lines.indices.filter { lines[$0].contains("\"kind\":\"event\"") }
        let index = events[events.count / 2]
        lines.remove(at: index)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (index, lines)
    }
}
