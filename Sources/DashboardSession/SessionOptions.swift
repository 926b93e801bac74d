import DashboardModel
import DashboardUI
import OperationEvents

/// How a dashboard session looks and behaves; the `opscope` command's flags map onto these.
public struct SessionOptions: Sendable {
    /// Box drawing and state symbols (`--ascii`: false).
    public var unicode = true
    /// Colours (`--no-color`: false).
    public var color = true
    /// Mouse clicks and wheel (`--no-mouse`: false).
    public var mouse = true
    /// At most this many frames per second (`--fps`).
    public var framesPerSecond = 30
    /// The line under the title (a demo's lesson).
    public var caption = ""
    /// The caption made from what the source says about itself, for a source whose program can
    /// change (a remote source that reconnected to another program at the same socket): asked
    /// at the start and again whenever the source names another program. Nil: `caption` stays.
    public var sourceCaption: (@Sendable (SourceInfo) -> String)?
    /// Narrate each state change in a line under the panes (on in demos; `t` toggles it).
    public var narration = false
    /// What the dashboard opens on: the view (`screen`), the table's sort, whether finished
    /// operations are hidden, any other state a key would set (the config file's `view`, `sort`
    /// and `hide_finished`). Narration is `narration`'s, whatever this says.
    public var initialView = ViewState()
    /// Retention and warning thresholds of the dashboard's model.
    public var model = ModelConfiguration()
    /// For the reliability tests only: trap while drawing the second frame, to check that the
    /// terminal is given back when the process dies with the dashboard on screen.
    public var trapWhileDrawing = false

    /// The defaults.
    public init() {}
}

/// How a session ended.
public enum SessionEnding: Sendable, Equatable {
    /// `q`, F10 or `:quit`.
    case quit
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP); the terminal was restored first.
    case signal(Int32)
}
