import DashboardModel
import OperationEvents

/// What the person is looking at and doing: everything input changes. The model is the observed
/// program's state; this is the viewer's, grouped by the part of the screen it belongs to.
public struct ViewState: Sendable, Equatable {
    /// The whole-screen view (digits switch): the overview, or one of the lists.
    public var screen: Screen = .overview
    /// The pane that receives movement keys (Tab cycles).
    public var focus: Pane = .table
    /// The selected operation, kept by id so that it follows the operation as rows move.
    public var selection: OperationID?
    /// The selected queue (the selection's queue, or one chosen in the queues pane).
    public var queue: QueueID?
    /// The operations table: sort, filter, tags.
    public var table = TableState()
    /// The graph pane.
    public var graph = GraphState()
    /// The details of the selection, when open (Enter), with their scroll position.
    public var details: ScrollState?
    /// The selected warning in the warnings pane (an index into the model's warnings).
    public var warnings = ScrollState()
    /// A modal layer over the panes: help (the legend is its last part), the work picker, a confirmation.
    public var overlay: Overlay?
    /// A line being typed at the bottom (`:` or `/`).
    public var input: LineInput?
    /// Lines entered before, for ↑ and ↓ on the `:` and `/` lines.
    public var history = LineHistory()
    /// Display paused (`p`): the queues keep running, the screen holds still.
    public var paused = false
    /// The last message for the status line (results and errors); it expires.
    public var status: StatusLine?
    /// One sentence per state change, when narration is on (`t`).
    public var narration = NarrationState()
    /// What the source says about itself while it is not delivering (a remote program that
    /// exited): shown in the title until it clears.
    public var sourceStatus: String?
    /// Where a replay is (nil: the source is not a recording): the timeline bar, and the keys
    /// that move in it.
    public var timeline: TimelineState?
    /// The help's heading to open at (`:help` opens at the commands), until it is scrolled:
    /// where that heading falls depends on the caption and the width, known when it is drawn.
    var helpOpensAt: String?

    /// The starting view.
    public init() {}

    /// The panes Tab cycles through, top to bottom.
    public enum Pane: Int, Sendable, CaseIterable {
        /// The queue lines under the title (↑↓ choose the queue that `s`, `C`, `(` `)` act on).
        case queues
        /// The operations table.
        case table
        /// The dependency graph (or the details, when open).
        case graph
        /// The QoS lanes.
        case lanes
        /// The warnings list.
        case warnings
    }

    /// The table's state.
    public struct TableState: Sendable, Equatable {
        /// The column the rows are sorted by (`<` `>` choose).
        public var sort: SortColumn = .id
        /// Descending order (`I` inverts).
        public var descending = false
        /// The `/` filter (empty: every operation).
        public var filter = ""
        /// Tagged operations (Space); `c` cancels them all.
        public var tagged: Set<OperationID> = []
        /// Unfinished operations above finished ones, whatever the sort column.
        public var liveFirst = true
        /// Finished operations left out (`H`).
        public var hideFinished = false
        /// The selection follows its operation when it finishes and sinks below the live work
        /// (`F`). Off, the default, a selected operation that finishes hands the selection to the
        /// live row after it, so that a monitor keeps live work in view.
        public var follow = false
        /// The selected operation, when it was unfinished at the last look: that operation
        /// finishing is what moves the selection (when `follow` is off), not a finished one
        /// chosen on purpose.
        var liveSelection: OperationID?
        /// The selection a filter change moved away from: it comes back as soon as a later
        /// filter shows it again, so that narrowing and widening a filter does not lose it.
        public var displacedSelection: OperationID?

        /// The default table.
        public init() {}
    }

    /// Columns the table sorts by.
    public enum SortColumn: Int, Sendable, CaseIterable {
        /// The table's columns, left to right.
        case id, name, queue, state, priority, qos, dependencies, wait, run

        /// The column's heading.
        public var title: String {
            switch self {
            case .id: "ID"
            case .name: "NAME"
            case .queue: "QUEUE"
            case .state: "STATE"
            case .priority: "PRIORITY"
            case .qos: "QOS"
            case .dependencies: "DEPS"
            case .wait: "WAIT"
            case .run: "RUN"
            }
        }
    }

    /// The graph pane's state.
    public struct GraphState: Sendable, Equatable {
        /// The selection's group, or every group (`g`).
        public var layout: GraphLayout = .focused
        /// `f`: the pane stays on this operation's blocking chain, whatever is selected and
        /// however the model changes, until `f` again (nil: it follows the selection).
        public var pinned: OperationID?
        /// `z`: one cell per box (the shape of a large graph), or labelled boxes.
        public var compact = false
        /// The cursor on an item that is not an operation (a fold, a count of hidden edges);
        /// it holds while the selection is `cursorSelection`. Otherwise the cursor is the
        /// selection's box.
        public var cursor: GraphItemKey?
        /// The selection when the cursor was put on `cursor`.
        public var cursorSelection: OperationID?
        /// Folds and counts opened with Enter.
        public var expanded: Set<GraphItemKey> = []
        /// Times Enter on "+N edges to hidden operations" doubled the boxes a group may draw.
        public var budgetLevel = 0

        /// The default graph pane.
        public init() {}

        /// Where the cursor is: `cursor` while the selection has not moved, else the selection's box.
        public func cursorKey(selection: OperationID?) -> GraphItemKey? {
            if let cursor, cursorSelection == selection { return cursor }
            return selection.map { .node(.operation($0)) }
        }
    }

    /// The graph pane's two layouts.
    public enum GraphLayout: Sendable, Equatable {
        /// The selection's group (its component): dependencies left of their dependents.
        case focused
        /// Every group, stuck first, then running, then waiting; finished groups in one line.
        case all
    }

    /// A scroll position (rows from the top), or a selected entry of a list.
    public struct ScrollState: Sendable, Equatable {
        /// Rows scrolled, or the selected entry.
        public var offset = 0

        /// At the top.
        public init(offset: Int = 0) { self.offset = offset }
    }

    /// A modal layer: it takes every key until closed.
    public enum Overlay: Sendable, Equatable {
        /// Every key, the commands, the filter syntax and the legend (`?`), scrolled by `offset` rows.
        case help(offset: Int)
        /// The work template picker (`a`) with the highlighted row.
        case picker(row: Int)
        /// A question that only `y` answers yes.
        case confirm(Confirmation)
    }

    /// A destructive action waiting for a yes: the exact command that `y` sends.
    public struct Confirmation: Sendable, Equatable {
        /// The question, naming what will be acted on.
        public var question: String
        /// Sent on `y`, and nothing else.
        public var command: MonitorCommand

        /// A confirmation.
        public init(question: String, command: MonitorCommand) {
            self.question = question
            self.command = command
        }
    }

    /// A message in the status line.
    public struct StatusLine: Sendable, Equatable {
        /// The text.
        public var text: String
        /// Shown as an error.
        public var isError: Bool
        /// When it was set (the model's clock): it disappears a few seconds later.
        public var time: UInt64

        /// A message set at `time`.
        public init(_ text: String, isError: Bool = false, time: UInt64 = 0) {
            self.text = text
            self.isError = isError
            self.time = time
        }

        /// How long a message stays (errors stay longer: they explain what went wrong).
        public var lifetime: UInt64 { isError ? 10_000_000_000 : 5_000_000_000 }

        /// True while the message is still to be shown at `now`.
        public func isShown(at now: UInt64) -> Bool { now < time || now - time < lifetime }
    }
}
