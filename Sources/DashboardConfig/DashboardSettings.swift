import DashboardSession
import DashboardUI

/// What the config file or the command line set, each nil where it said nothing: the file's
/// settings are applied over a command's defaults, and the flags' over those.
public struct DashboardSettings: Sendable, Equatable {
    /// `view`: the view the dashboard opens on.
    public var view: ViewState.Screen?
    /// `sort`: the table's sort column.
    public var sort: ViewState.SortColumn?
    /// `sort_descending`.
    public var sortDescending: Bool?
    /// `hide_finished`.
    public var hideFinished: Bool?
    /// `narration`.
    public var narration: Bool?
    /// `color` (`--color`, `--no-color`).
    public var color: Bool?
    /// `ascii` (`--ascii`, `--unicode`).
    public var ascii: Bool?
    /// `mouse` (`--mouse`, `--no-mouse`).
    public var mouse: Bool?
    /// `fps` (`--fps`).
    public var fps: Int?

    /// Nothing set.
    public init() {}

    /// `options` with every setting made here put over it.
    public func applied(to options: SessionOptions) -> SessionOptions {
        var options = options
        for key in ConfigKey.all { key.apply(self, &options) }
        return options
    }
}
