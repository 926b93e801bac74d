import OperationEvents
import TerminalKit

/// What handling a key asks of the program: a command for the bridge, a redraw, or quitting.
/// Handling a key never draws.
public struct Action: Sendable, Equatable {
    public var command: MonitorCommand?
    /// Repaint every cell (Ctrl-L), not only the changed ones.
    public var fullRedraw = false
    public var quit = false
    /// Something visible changed.
    public var redraw = true

    public init(command: MonitorCommand? = nil, fullRedraw: Bool = false, quit: Bool = false, redraw: Bool = true) {
        self.command = command
        self.fullRedraw = fullRedraw
        self.quit = quit
        self.redraw = redraw
    }

    public static let none = Action(redraw: false)
    public static let redraw = Action()
}

/// Where things were drawn in the last frame, for the mouse.
public struct ScreenMap: Sendable, Equatable {
    /// The table's body rows and the operation on each.
    public var tableBody = Rect(x: 0, y: 0, width: 0, height: 0)
    public var tableIDs: [OperationID] = []
    /// The table's first visible row: the next frame scrolls from there, so the selection moves
    /// within the view instead of the view jumping.
    public var tableOffset = 0
    /// Each pane's area.
    public var panes: [ViewState.Pane: Rect] = [:]
    /// Operations drawn in the graph pane: cell ranges per row.
    public var graphNodes: [(rect: Rect, operation: OperationID)] = []

    public init() {}

    public static func == (lhs: ScreenMap, rhs: ScreenMap) -> Bool {
        lhs.tableBody == rhs.tableBody && lhs.tableIDs == rhs.tableIDs && lhs.tableOffset == rhs.tableOffset && lhs.panes == rhs.panes
            && lhs.graphNodes.map(\.operation) == rhs.graphNodes.map(\.operation)
            && lhs.graphNodes.map(\.rect) == rhs.graphNodes.map(\.rect)
    }
}
