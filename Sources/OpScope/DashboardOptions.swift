import DashboardModel

/// How the dashboard looks and behaves; the `opscope` command's flags map onto these.
public struct DashboardOptions: Sendable {
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
    /// Retention and warning thresholds.
    public var model = ModelConfiguration()

    public init() {}
}
