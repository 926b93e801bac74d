import ArgumentParser
import DemoLauncher
import Foundation
import OpScope

/// `opscope replay FILE`: the dashboard on a recording, with a timeline bar.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Open the dashboard on a recording: every view, a timeline bar, seeking and stepping.",
        discussion: """
            Keys: p plays and pauses, + and - change the speed, . and , step one event, [ and ] move a second, { and } go \
            to the previous or next warning (or change of the selected operation), :seek 12.5s jumps, R starts over, 5 \
            shows the timeline view. Commands to the program are refused: it is not running. A file that cannot be read \
            is one line naming it (and the line), exit status 2.
            """
    )

    @Argument(help: "The recording (opscope record, opscope demo --record, or OpScopeDashboard.record).")
    var file: String

    @Option(help: "Playing speed (0.1-64).")
    var speed = 1.0

    @Flag(help: "Start paused at the beginning.")
    var paused = false

    @OptionGroup var terminal: TerminalOptions

    func validate() throws {
        guard speed.isFinite, (0.1...64).contains(speed) else { throw ValidationError("--speed must be between 0.1 and 64, got \(speed)") }
    }

    func run() throws {
        if isatty(STDERR_FILENO) == 1 { FileHandle.standardErrorWrite("opscope: reading \(file)…\n") }
        let recording = try RecordingInput.open(file)
        var defaults = SessionOptions()
        // A replay tells its story, as a demo does, unless the config file says not to.
        defaults.narration = true
        var options = terminal.sessionOptions(over: defaults)
        let header = recording.header
        var caption = "replay of \(header.program) (pid \(header.processID)), recorded \(header.startedAt.description.prefix(19))Z: "
            + "\(recording.eventCount) events"
        if recording.droppedEvents > 0 { caption += ", \(recording.droppedEvents) lost while recording" }
        if let first = recording.notices.first {
            caption += "; line \(first.line): \(first.message)"
            if recording.noticeCount > 1 { caption += " (and \(recording.noticeCount - 1) more: opscope report \(Self.shellQuoted(file)) lists them)" }
        }
        if recording.truncation != nil { caption += "; its last line was cut short (ignored)" } else if recording.end == nil {
            caption += "; it ends without an end line (the program stopped while recording)"
        }
        options.caption = caption
        let ending: SessionEnding
        do {
            ending = try OpScopeDashboard.replay(recording, speed: speed, playing: !paused, options: options)
        } catch let unavailable as TerminalUnavailable {
            throw ValidationError(unavailable.suggesting("opscope report \(Self.shellQuoted(file)) --json").description)
        }
        if case .signal(let number) = ending { throw ExitCode(128 + number) }
    }

    /// `word` as a shell reads it back: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_./+,:@%=".unicodeScalars.contains($0)
        }
        // A name that starts with - would be read as an option: a path to the same file.
        let safe = word.hasPrefix("-") ? "./" + word : word
        return plain ? safe : "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
