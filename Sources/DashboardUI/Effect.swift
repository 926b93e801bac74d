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
    /// The graph pane's layouts, scroll and pan, kept from frame to frame so that boxes do not move.
    public var graph = GraphPaneMemory()
    /// The table's rows as last computed: reused while nothing they depend on changed.
    public var rows = RowCache()
    /// The queue lines of the header and the queue on each.
    public var queueRows: [QueueArea] = []
    /// The warnings pane's lines and the warning each belongs to.
    public var warningRows: [WarningArea] = []
    /// A list view's body (views 2 to 4) and what is on each of its rows.
    public var listBody = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The list view's visible rows, top to bottom.
    public var listRows: [ListRowArea] = []
    /// The list view's first visible row (the next frame scrolls from there).
    public var listOffset = 0
    /// The inside of the open overlay, and how many lines its content has (help scrolls by it).
    public var overlayBody = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Lines of the overlay's content.
    public var overlayLines = 0
    /// The key bar's entries as shown (a click acts as the entry's key).
    public var keyBar: [KeyBarArea] = []
    /// The operations shown in the QoS lanes, with their cells.
    public var laneOperations: [LaneOperationArea] = []

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

/// One queue line of the header.
public struct QueueArea: Sendable, Equatable {
    /// The cells.
    public var rect: Rect
    /// The queue on it.
    public var queue: QueueID
}

/// One line of the warnings pane.
public struct WarningArea: Sendable, Equatable {
    /// The cells.
    public var rect: Rect
    /// The warning's index in the model's warnings.
    public var index: Int
}

/// One visible row of a list view.
public struct ListRowArea: Sendable, Equatable {
    /// The operation on the row, if any.
    public var operation: OperationID?
    /// The narration entry on the row (the narration view).
    public var entry: Int?

    /// A row.
    public init(operation: OperationID? = nil, entry: Int? = nil) {
        self.operation = operation
        self.entry = entry
    }
}
