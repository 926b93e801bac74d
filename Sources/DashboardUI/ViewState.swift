import DashboardModel
import OperationEvents

/// What the person is looking at and doing: everything input changes. The model is the observed
/// program's state; this is the viewer's, grouped by the part of the screen it belongs to.
public struct ViewState: Sendable, Equatable {
    /// The pane that receives movement keys (Tab cycles).
    public var focus: Pane = .table
    /// The selected operation, kept by id so that it follows the operation as rows move.
    public var selection: OperationID?
    /// The selected queue (the selection's queue, or one chosen without an operation).
    public var queue: QueueID?
    /// The operations table: sort, filter, tags.
    public var table = TableState()
    /// The graph pane.
    public var graph = GraphState()
    /// The details of the selection, when open (Enter), with their scroll position.
    public var details: ScrollState?
    /// The warnings pane's scroll position.
    public var warnings = ScrollState()
    /// A modal layer over the panes: help, the work picker, a confirmation.
    public var overlay: Overlay?
    /// A line being typed at the bottom (`:` or `/`).
    public var input: LineInput?
    /// Display paused (`p`): the queues keep running, the screen holds still.
    public var paused = false
    /// The last message for the status line (results and errors).
    public var status: StatusLine?

    /// The starting view.
    public init() {}

    /// The panes Tab cycles through.
    public enum Pane: Int, Sendable, CaseIterable {
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
        /// Layers around one operation, or the whole graph as a list (`g`).
        public var layout: GraphLayout = .focused
        /// The focused layout follows the selection (`f` toggles; off: the critical path).
        public var followsSelection = true

        /// The default graph pane.
        public init() {}
    }

    /// The graph pane's two layouts.
    public enum GraphLayout: Sendable, Equatable {
        /// The selection's ancestors and descendants in layers.
        case focused
        /// Every operation, one row each, edges in lanes on the left.
        case all
    }

    /// A scroll position (rows from the top).
    public struct ScrollState: Sendable, Equatable {
        /// Rows scrolled.
        public var offset = 0

        /// At the top.
        public init(offset: Int = 0) { self.offset = offset }
    }

    /// A modal layer: it takes every key until closed.
    public enum Overlay: Sendable, Equatable {
        /// Every key (`?`), scrolled by `offset` rows.
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

    /// A line being typed.
    public enum LineInput: Sendable, Equatable {
        /// `:` command line.
        case command(String)
        /// `/` filter (applied as it is typed).
        case filter(String)

        /// The text typed so far.
        public var text: String {
            switch self {
            case .command(let text), .filter(let text): text
            }
        }
    }

    /// A message in the status line.
    public struct StatusLine: Sendable, Equatable {
        /// The text.
        public var text: String
        /// Shown as an error.
        public var isError: Bool

        /// A message.
        public init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }
}
