import OperationEvents
import TerminalKit

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
    /// Operations drawn in the graph pane (or as the timeline's bars), with their cells.
    public var graphNodes: [OperationArea] = []
    /// The graph pane's layouts, scroll and pan, kept from frame to frame so that boxes do not move.
    public var graph = GraphPaneMemory()
    /// The table's rows as last computed: reused while nothing they depend on changed.
    public var rows = RowCache()
    /// The queue lines of the header and the queue on each.
    public var queueRows: [QueueArea] = []
    /// The warnings pane's lines and the warning each belongs to.
    public var warningRows: [WarningArea] = []
    /// The list view's body, its rows and its scroll (views 2 to 4).
    public var list = ListScreenArea()
    /// The inside of the open overlay, and how many lines its content has (help scrolls by it).
    public var overlayBody = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Lines of the overlay's content.
    public var overlayLines = 0
    /// The first line of the overlay's content shown: scrolling goes on from it.
    public var overlayFirst = 0
    /// The key bar's entries as shown (a click acts as the entry's key).
    public var keyBar: [KeyBarArea] = []
    /// The operations shown in the QoS lanes, with their cells.
    public var laneOperations: [OperationArea] = []

    /// An empty map (before the first frame).
    public init() {}
}

/// One operation's cells: a box of the graph, a bar of the timeline, an entry of the QoS lanes.
public struct OperationArea: Sendable, Equatable {
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
