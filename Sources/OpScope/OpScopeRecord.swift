import DashboardSession
import Foundation
import OpScopeRecording
import OperationEvents

extension OpScopeDashboard {
    /// Records `source` (the program's monitor, usually) to the file at `url` until the
    /// returned recorder is stopped, on a thread of its own: the program is never held up, and
    /// the file is readable up to its last complete line whenever the program stops, even
    /// killed. A write error (a full disk) ends the recording with one message in
    /// `Recorder.failure`; the program goes on.
    ///
    /// ```swift
    /// let recorder = try OpScopeDashboard.record(monitor, to: URL(fileURLWithPath: "run.jsonl"))
    /// defer { recorder.stop() }   // writes the end line
    /// ```
    ///
    /// `opscope replay run.jsonl` plays it back; `opscope report run.jsonl` and
    /// `opscope export run.jsonl --format perfetto` read it.
    public static func record(_ source: any EventSource, to url: URL, options: RecorderOptions = RecorderOptions())
        throws(RecordingError) -> Recorder
    {
        try Recorder(source: source, path: url.path, options: options)
    }

    /// Opens the dashboard on a recording (the `opscope replay` command): every view, a
    /// timeline bar, and the keys that move in time; commands to the program are refused.
    /// Throws `EventStreamError` for a file that cannot be read, `TerminalUnavailable` without
    /// a terminal.
    @discardableResult
    public static func replay(_ recording: Recording, speed: Double = 1, playing: Bool = true,
                              options: SessionOptions = SessionOptions()) throws -> SessionEnding {
        try run(ReplaySource(recording: recording, speed: speed, playing: playing), options: options)
    }
}
