import DashboardModel
import OperationEvents
import TerminalKit

/// The person's side of the dashboard: the view state, and the rules that turn keys and mouse
/// events into view changes and effects. It reads the model and never draws.
public struct Interaction: Sendable {
    /// What the person is looking at.
    public var state = ViewState()
    /// The work templates the program registered (for `a` and `:add`).
    public var templates: [WorkTemplateInfo]
    /// Mouse handling (off with `--no-mouse`).
    public var mouseEnabled: Bool
    /// Where the last frame put things.
    public var map = ScreenMap()

    /// A fresh view.
    public init(templates: [WorkTemplateInfo] = [], mouseEnabled: Bool = true) {
        self.templates = templates
        self.mouseEnabled = mouseEnabled
    }

    /// Handles one key against the model on screen; returns what the session must do.
    public mutating func handle(_ key: Key, model: DashboardModel) -> [Effect] {
        keepSelectionValid(model)
        if let overlay = state.overlay { return handleOverlay(overlay, key, model) }
        if let input = state.input { return handleLine(input, key, model) }
        switch key {
        case .resize: return [.redraw]
        case .mouse(let event): return handleMouse(event, model)
        default:
            guard let action = KeyBindings.action(for: key) else { return [] }
            return perform(action, model)
        }
    }

    /// Carries out one action of the key table.
    public mutating func perform(_ action: UserAction, _ model: DashboardModel) -> [Effect] {
        switch action {
        case .quit: return [.quit]
        case .help: state.overlay = .help(offset: 0)
        case .moveUp: moveSelection(by: -1, model)
        case .moveDown: moveSelection(by: 1, model)
        case .pageUp: moveSelection(by: -page, model)
        case .pageDown: moveSelection(by: page, model)
        case .first: moveSelection(to: 0, model)
        case .last: moveSelection(to: Int.max, model)
        case .openDetails: state.details = ViewState.ScrollState()
        case .back: return back()
        case .nextPane: cyclePane(by: 1)
        case .previousPane: cyclePane(by: -1)
        case .tag:
            guard let id = state.selection else { return [] }
            if state.table.tagged.remove(id) == nil { state.table.tagged.insert(id) }
            moveSelection(by: 1, model)
        case .cancelSelected: return askCancel(model)
        case .cancelQueue: return askCancelQueue(model)
        case .toggleSuspend: return toggleSuspend(model)
        case .raiseConcurrency: return changeMaxConcurrency(by: 1, model)
        case .lowerConcurrency: return changeMaxConcurrency(by: -1, model)
        case .addWork:
            guard !templates.isEmpty else {
                return error("no work templates registered: the program adds them with monitor.catalog.register")
            }
            state.overlay = .picker(row: 0)
        case .commandLine: state.input = .command("")
        case .filter: state.input = .filter(state.table.filter)
        case .sortLeft, .sortRight:
            let step = action == .sortLeft ? -1 : 1
            let columns = ViewState.SortColumn.allCases
            state.table.sort = columns[min(max(0, state.table.sort.rawValue + step), columns.count - 1)]
            status("sorted by \(state.table.sort.title)")
        case .invertSort:
            state.table.descending.toggle()
            status("sorted by \(state.table.sort.title), \(state.table.descending ? "descending" : "ascending")")
        case .toggleGraphLayout:
            state.graph.layout = state.graph.layout == .focused ? .all : .focused
            state.focus = .graph
        case .toggleGraphFollow:
            state.graph.followsSelection.toggle()
            status(state.graph.followsSelection ? "graph follows the selection" : "graph shows the critical path")
        case .togglePause:
            state.paused.toggle()
            status(state.paused ? "display paused (the queues keep running); p resumes" : "display resumed")
        case .redraw: return [.fullRedraw]
        case .speedUp: return [.playback(.faster), .redraw]
        case .speedDown: return [.playback(.slower), .redraw]
        case .restart: return [.playback(.restart), .redraw]
        case .stepForward:
            guard state.paused else { return error("pause first (p), then . shows one event at a time") }
            return [.step(1), .redraw]
        }
        return [.redraw]
    }

    /// Rows in a page: the table's visible rows, less one for context.
    private var page: Int { max(1, map.tableBody.height - 1) }

    private mutating func cyclePane(by step: Int) {
        let count = ViewState.Pane.allCases.count
        state.focus = ViewState.Pane(rawValue: (state.focus.rawValue + step + count) % count)!
    }

    /// Esc: close details, then clear the filter, then the tags.
    private mutating func back() -> [Effect] {
        if state.details != nil {
            state.details = nil
        } else if !state.table.filter.isEmpty {
            state.table.filter = ""
            status("filter cleared")
        } else if !state.table.tagged.isEmpty {
            state.table.tagged = []
            status("tags cleared")
        } else {
            return []
        }
        return [.redraw]
    }

    // MARK: Status

    /// Shows a message in the status line.
    public mutating func status(_ message: String) {
        state.status = ViewState.StatusLine(message)
    }

    /// Shows an error in the status line.
    mutating func error(_ message: String) -> [Effect] {
        state.status = ViewState.StatusLine(message, isError: true)
        return [.redraw]
    }

    /// Reports the source's answer to a command in the status line.
    public mutating func commandFinished(_ result: Result<CommandReceipt, CommandError>) {
        switch result {
        case .success(let receipt): status(receipt.message)
        case .failure(let failure): state.status = ViewState.StatusLine(failure.message, isError: true)
        }
    }
}
