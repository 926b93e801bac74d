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
    /// Why the source takes no commands (a recording), nil when it does: the keys and lines that
    /// would send one say so at once, before asking for a confirmation or a template.
    public var commandsRefused: String?
    /// What the next command's receipt must add (operations a confirmed cancel left out because
    /// they finished while the question was open).
    var receiptNote: String?
    /// A replay's answer in the status line and the position it named: it goes once playback
    /// has moved on from there (it would name a moment no longer shown).
    var playbackAnswer: (status: ViewState.StatusLine, position: Double)?
    /// Where the last frame put things.
    public var map = ScreenMap()
    /// The model's clock as last seen: status messages are stamped with it and expire by it
    /// (views never read a wall clock).
    public internal(set) var clock: UInt64 = 0

    /// A fresh view.
    public init(templates: [WorkTemplateInfo] = [], mouseEnabled: Bool = true) {
        self.templates = templates
        self.mouseEnabled = mouseEnabled
    }

    /// Handles one key against the model on screen; returns what the session must do.
    public mutating func handle(_ key: Key, model: DashboardModel) -> [Effect] {
        clock = max(clock, model.now)
        // While a line is typed, keys only edit it: the filter is applied once per frame, so a
        // paste costs one evaluation, not one per character.
        if let input = state.input { return handleLine(input, key, model) }
        keepSelectionValid(model)
        if let overlay = state.overlay {
            if case .mouse(let event) = key, let effects = handleOverlayMouse(event, overlay) { return effects }
            return handleOverlay(overlay, key, model)
        }
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
        if let effects = replayAction(action, model) { return effects }
        switch action {
        case .quit: return [.quit]
        case .help: state.overlay = .help(offset: 0)
        case .legend: state.overlay = .legend
        case .moveUp: move(by: -1, model)
        case .moveDown: move(by: 1, model)
        case .pageUp: move(by: -page, model)
        case .pageDown: move(by: page, model)
        case .first: move(by: -Int.max / 2, model)
        case .last: move(by: Int.max / 2, model)
        case .openDetails: return enter(model)
        case .back: return back()
        case .nextPane: cyclePane(by: 1)
        case .previousPane: cyclePane(by: -1)
        case .tag:
            guard let id = state.selection else { return [] }
            if state.table.tagged.remove(id) == nil { state.table.tagged.insert(id) }
            moveSelection(by: 1, model)
        case .cancelSelected, .cancelQueue, .toggleSuspend, .raiseConcurrency, .lowerConcurrency, .addWork:
            if let reason = commandsRefused { return error(reason) }
            return performCommand(action, model)
        case .commandLine: state.input = LineInput(.command)
        case .filter: state.input = LineInput(.filter, text: state.table.filter)
        case .sortLeft, .sortRight:
            let step = action == .sortLeft ? -1 : 1
            let columns = ViewState.SortColumn.allCases
            state.table.sort = columns[min(max(0, state.table.sort.rawValue + step), columns.count - 1)]
            status("sorted by \(state.table.sort.title)")
        case .invertSort:
            state.table.descending.toggle()
            status("sorted by \(state.table.sort.title), \(state.table.descending ? "descending" : "ascending")")
        case .toggleHideFinished:
            state.table.hideFinished.toggle()
            status(state.table.hideFinished ? "finished operations hidden (H shows them)" : "finished operations shown")
        case .toggleGraphLayout, .toggleGraphFollow, .panLeft, .panRight, .toggleGraphCompact:
            return performGraph(action, model)
        case .togglePause:
            state.paused.toggle()
            if !state.paused { state.narration.stepped = false }
            status(state.paused ? "display paused (the queues keep running); . steps on, ',' back, p goes live"
                   : "live: the display follows the program again")
        case .redraw: return [.fullRedraw]
        case .speedUp: return [.playback(.faster), .redraw]
        case .speedDown: return [.playback(.slower), .redraw]
        case .restart: return [.playback(.restart), .redraw]
        case .stepForward:
            guard state.paused else { return error("pause first (p), then . shows one event at a time") }
            return [.step(1), .redraw]
        case .nextStuck: return jumpToStuck(forward: true, model)
        case .previousStuck: return jumpToStuck(forward: false, model)
        case .toggleNarration:
            state.narration.isOn.toggle()
            status(state.narration.isOn ? "narration on: one sentence per change (4 shows the log)" : "narration off")
        case .showOverview: show(.overview)
        case .showStuck: show(.stuck)
        case .showStartOrder: show(.startOrder)
        case .showNarration: show(.narration)
        case .showTimeline: show(.timeline)
        case .stepBack, .seekBack, .seekForward, .previousMark, .nextMark: return moveInTime(action, model)
        }
        return [.redraw]
    }

    /// Rows in a page: the visible rows of the list in use, less one for context.
    private var page: Int { max(1, (state.screen == .overview ? map.tableBody.height : map.listBody.height) - 1) }

    private mutating func cyclePane(by step: Int) {
        guard state.screen == .overview else { return }
        let count = ViewState.Pane.allCases.count
        state.focus = ViewState.Pane(rawValue: (state.focus.rawValue + step + count) % count)!
    }

    /// Esc: back to the overview, close details, then clear the filter, then the tags.
    private mutating func back() -> [Effect] {
        if state.screen != .overview {
            state.screen = .overview
        } else if state.details != nil {
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

    /// Shows a message in the status line (it expires a few seconds later, by the model's clock).
    public mutating func status(_ message: String) {
        state.status = ViewState.StatusLine(message, time: clock)
    }

    /// Shows an error in the status line.
    mutating func error(_ message: String) -> [Effect] {
        state.status = ViewState.StatusLine(message, isError: true, time: clock)
        return [.redraw]
    }

    /// Reports the source's answer to a command in the status line.
    public mutating func commandFinished(_ result: Result<CommandReceipt, CommandError>) {
        let note = receiptNote
        receiptNote = nil
        switch result {
        case .success(let receipt): status(receipt.message + (note.map { "; " + $0 } ?? ""))
        case .failure(let failure): state.status = ViewState.StatusLine(failure.message, isError: true, time: clock)
        }
    }
}
