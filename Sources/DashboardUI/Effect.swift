import OperationEvents
import TerminalKit

/// What handling input asks of the session, beyond the view changes it already made.
public enum Effect: Sendable, Equatable {
    /// Send a command to the source (the monitor, or a recording, which refuses it).
    case command(MonitorCommand)
    /// Ask the source to play differently (speed, restart, seek); refused by a live program.
    case playback(PlaybackRequest)
    /// Move the paused display by this many events (negative: back), narrating each.
    case step(Int)
    /// Draw the next frame.
    case redraw
    /// Repaint every cell (Ctrl-L), not only the changed ones.
    case fullRedraw
    /// End the session.
    case quit
}

/// Where things were drawn in the last frame, for the mouse and for paging.
public struct ScreenMap: Sendable {
    /// The table's body rows and the operation on each.
    public var tableBody = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The operations on the table's visible rows, top to bottom.
    public var tableIDs: [OperationID] = []
    /// The table's first visible row: the next frame scrolls from there, so the selection moves
    /// within the view instead of the view jumping.
    public var tableOffset = 0
    /// Each pane's area.
    public var panes: [ViewState.Pane: Rect] = [:]
    /// Operations drawn in the graph pane, with their cells.
    public var graphNodes: [GraphNodeArea] = []
    /// The graph pane's layout, kept from frame to frame so that boxes do not move.
    public var graphLayout = GraphLayoutMemory<FocusedGraph.NodeKey>()

    /// An empty map (before the first frame).
    public init() {}
}

/// One operation's cells in the graph pane.
public struct GraphNodeArea: Sendable, Equatable {
    /// The cells.
    public var rect: Rect
    /// The operation drawn there.
    public var operation: OperationID

    /// An entry.
    public init(rect: Rect, operation: OperationID) {
        self.rect = rect
        self.operation = operation
    }
}
