import DashboardModel
import OperationEvents

/// What the person is looking at and doing: everything the keys change. The model is the
/// program's state; this is the viewer's.
public struct ViewState: Sendable, Equatable {
    /// The panes Tab cycles through.
    public enum Pane: Int, Sendable, CaseIterable {
        case table, graph, lanes, warnings
        var title: String {
            switch self {
            case .table: "Operations"
            case .graph: "Graph"
            case .lanes: "QoS lanes"
            case .warnings: "Warnings"
            }
        }
    }

    /// Columns the table sorts by (`<` `>` choose, `I` inverts).
    public enum SortColumn: Int, Sendable, CaseIterable {
        case id, name, queue, state, priority, qos, dependencies, wait, run
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

    /// The graph pane's two layouts (`g` toggles).
    public enum GraphMode: Sendable { case focused, lanes }

    /// A question or an input line at the bottom.
    public enum Prompt: Sendable, Equatable {
        /// "Cancel 3 operations? y/n", with the command to send on yes.
        case confirm(question: String, command: MonitorCommand)
        /// `:` command line being typed.
        case commandLine(String)
        /// `/` filter being typed.
        case filter(String)
        /// The work template picker (`a`), with the highlighted row.
        case picker(Int)
    }

    public var pane: Pane = .table
    /// The selected operation (kept by id, so it follows the operation as rows move).
    public var selection: OperationID?
    /// The selected queue when no operation is selected (or the selection's queue).
    public var queue: QueueID?
    public var sort: SortColumn = .id
    public var sortDescending = false
    public var filter = ""
    public var tagged: Set<OperationID> = []
    public var graphMode: GraphMode = .focused
    /// The graph follows the selection (`f` toggles; off: the critical path).
    public var graphFollowsSelection = true
    /// Display paused (`p`): the queues keep running, the screen holds still.
    public var paused = false
    public var showHelp = false
    public var showDetail = false
    public var prompt: Prompt?
    /// The last message for the status line (results and errors).
    public var status: String = ""
    public var statusIsError = false
    /// Rows scrolled in the detail / warnings panes.
    public var detailOffset = 0
    public var warningsOffset = 0

    public init() {}
}
