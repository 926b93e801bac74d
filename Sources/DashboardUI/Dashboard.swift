import DashboardModel
import OperationEvents

/// The dashboard's controller: view state plus the rules that turn keys into view changes and
/// bridge commands. It reads the model and never draws.
public struct Dashboard: Sendable {
    public var state = ViewState()
    /// The work templates the program registered (for `a` and `:add`).
    public var templates: [WorkTemplateInfo]
    /// Mouse handling (off with `--no-mouse`).
    public var mouseEnabled: Bool
    /// Where the last frame put things.
    public var map = ScreenMap()

    public init(templates: [WorkTemplateInfo] = [], mouseEnabled: Bool = true) {
        self.templates = templates
        self.mouseEnabled = mouseEnabled
    }

    /// Handles one key against the current model.
    public mutating func handle(_ key: Key, model: DashboardModel) -> Action {
        keepSelectionValid(model)
        if state.showHelp {
            // Any key closes the help; q and F10 still quit.
            state.showHelp = false
            if key == .character("q") || key == .function(10) { return Action(quit: true) }
            return .redraw
        }
        if let prompt = state.prompt { return handlePrompt(prompt, key, model) }
        switch key {
        case .character("q"), .function(10): return Action(quit: true)
        case .character("?"), .function(1):
            state.showHelp = true
        case .up, .character("k"): moveSelection(by: -1, model)
        case .down, .character("j"): moveSelection(by: 1, model)
        case .pageUp: moveSelection(by: -max(1, map.tableBody.height - 1), model)
        case .pageDown: moveSelection(by: max(1, map.tableBody.height - 1), model)
        case .home: moveSelection(to: 0, model)
        case .end: moveSelection(to: Int.max, model)
        case .enter: state.showDetail = true
        case .escape:
            if state.showDetail { state.showDetail = false }
            else if !state.filter.isEmpty { state.filter = ""; status("filter cleared") }
            else if !state.tagged.isEmpty { state.tagged = []; status("tags cleared") }
            else { return .none }
        case .tab: state.pane = ViewState.Pane(rawValue: (state.pane.rawValue + 1) % ViewState.Pane.allCases.count)!
        case .backTab:
            let count = ViewState.Pane.allCases.count
            state.pane = ViewState.Pane(rawValue: (state.pane.rawValue + count - 1) % count)!
        case .character(" "):
            guard let id = state.selection else { return .none }
            if state.tagged.remove(id) == nil { state.tagged.insert(id) }
            moveSelection(by: 1, model)
        case .character("c"), .function(9): return askCancel(model)
        case .character("C"): return askCancelAll(model)
        case .character("s"): return toggleSuspend(model)
        case .character("+"): return changeMaxConcurrency(by: 1, model)
        case .character("-"): return changeMaxConcurrency(by: -1, model)
        case .character("a"):
            guard !templates.isEmpty else { return error("no work templates registered: the program adds them with monitor.catalog.register") }
            state.prompt = .picker(0)
        case .character(":"): state.prompt = .commandLine("")
        case .character("/"): state.prompt = .filter(state.filter)
        case .character("<"), .character(","):
            state.sort = ViewState.SortColumn(rawValue: max(0, state.sort.rawValue - 1))!
            status("sorted by \(state.sort.title)")
        case .character(">"), .character("."):
            state.sort = ViewState.SortColumn(rawValue: min(ViewState.SortColumn.allCases.count - 1, state.sort.rawValue + 1))!
            status("sorted by \(state.sort.title)")
        case .character("I"):
            state.sortDescending.toggle()
            status("sorted by \(state.sort.title), \(state.sortDescending ? "descending" : "ascending")")
        case .character("g"):
            state.graphMode = state.graphMode == .focused ? .lanes : .focused
            state.pane = .graph
        case .character("f"):
            state.graphFollowsSelection.toggle()
            status(state.graphFollowsSelection ? "graph follows the selection" : "graph shows the critical path")
        case .character("p"):
            state.paused.toggle()
            status(state.paused ? "display paused (the queues keep running); p resumes" : "display resumed")
        case .control("l"): return Action(fullRedraw: true)
        case .resize: return .redraw
        case .mouse(let event): return handleMouse(event, model)
        default: return .none
        }
        return .redraw
    }

    // MARK: Selection

    /// Keeps the selection on an operation the table shows (the first row when it vanished).
    public mutating func keepSelectionValid(_ model: DashboardModel) {
        if let id = state.selection, model.operations.contains(id) {
            state.queue = model.operations[id]?.queue ?? state.queue
            return
        }
        let ids = OperationRows.ids(model, state)
        state.selection = ids.first
        if let first = ids.first { state.queue = model.operations[first]?.queue }
        else if state.queue == nil || model.queues[state.queue!] == nil { state.queue = model.queues.ids.min() }
        state.tagged = state.tagged.filter { model.operations.contains($0) }
    }

    private mutating func moveSelection(by delta: Int, _ model: DashboardModel) {
        if state.pane == .warnings {
            state.warningsOffset = max(0, state.warningsOffset + delta)
            return
        }
        if state.showDetail, state.pane != .table {
            state.detailOffset = max(0, state.detailOffset + delta)
            return
        }
        let ids = OperationRows.ids(model, state)
        guard !ids.isEmpty else { return }
        let current = state.selection.flatMap { ids.firstIndex(of: $0) } ?? 0
        select(ids[min(max(0, current + delta), ids.count - 1)], model)
    }

    private mutating func moveSelection(to index: Int, _ model: DashboardModel) {
        let ids = OperationRows.ids(model, state)
        guard !ids.isEmpty else { return }
        select(ids[min(max(0, index), ids.count - 1)], model)
    }

    mutating func select(_ id: OperationID, _ model: DashboardModel) {
        state.selection = id
        state.detailOffset = 0
        if let queue = model.operations[id]?.queue { state.queue = queue }
    }

    // MARK: Commands

    private mutating func askCancel(_ model: DashboardModel) -> Action {
        let targets = (state.tagged.isEmpty ? [state.selection].compactMap { $0 } : state.tagged.sorted())
            .filter { model.operations[$0].map { $0.state != .finished } ?? false }
        guard !targets.isEmpty else { return error("nothing to cancel: select or tag unfinished operations") }
        let names = targets.prefix(3).map { model.operations[$0]?.label ?? $0.description }.joined(separator: ", ")
        let more = targets.count > 3 ? " and \(targets.count - 3) more" : ""
        state.prompt = .confirm(question: "Cancel \(names)\(more)? (y/n)", command: .cancel(operations: targets))
        return .redraw
    }

    private mutating func askCancelAll(_ model: DashboardModel) -> Action {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        state.prompt = .confirm(question: "Cancel all \(record.waiting + record.executing) operations of \(queue) '\(record.name)'? (y/n)",
                                command: .cancelAll(queue: queue))
        return .redraw
    }

    private mutating func toggleSuspend(_ model: DashboardModel) -> Action {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        guard record.observation == .observed else { return error("\(queue) '\(record.name)' is only sampled: OpScope can watch it but not change it") }
        status("\(record.isSuspended ? "resuming" : "suspending") \(queue) '\(record.name)'")
        return Action(command: .setSuspended(queue: queue, suspended: !record.isSuspended))
    }

    private mutating func changeMaxConcurrency(by delta: Int, _ model: DashboardModel) -> Action {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        guard record.observation == .observed else { return error("\(queue) '\(record.name)' is only sampled: OpScope can watch it but not change it") }
        let current = record.maxConcurrentOperationCount
        let next: Int
        if current < 0 {
            guard delta < 0 else { return error("\(queue) has no concurrency limit; - sets one") }
            next = max(1, record.executing)
        } else {
            next = current + delta
            guard next >= 1 else { return error("\(queue) is already serial (max 1)") }
        }
        status("max concurrency of \(queue) '\(record.name)': \(record.limitText) → \(next)")
        return Action(command: .setMaxConcurrency(queue: queue, count: next))
    }

    // MARK: Prompts

    private mutating func handlePrompt(_ prompt: ViewState.Prompt, _ key: Key, _ model: DashboardModel) -> Action {
        switch prompt {
        case .confirm(_, let command):
            switch key {
            case .character("y"), .character("Y"), .enter:
                state.prompt = nil
                if case .cancel(let ids) = command { state.tagged.subtract(ids) }
                status("sent")
                return Action(command: command)
            case .character("n"), .character("N"), .escape, .character("q"):
                state.prompt = nil
                status("nothing cancelled")
                return .redraw
            default:
                return .none
            }
        case .commandLine(let text), .filter(let text):
            let isFilter: Bool = if case .filter = prompt { true } else { false }
            switch key {
            case .escape:
                state.prompt = nil
                if isFilter { state.filter = "" }
                return .redraw
            case .backspace, .delete:
                let shorter = String(text.dropLast())
                state.prompt = isFilter ? .filter(shorter) : .commandLine(shorter)
                if isFilter { state.filter = shorter }
                return .redraw
            case .enter:
                state.prompt = nil
                if isFilter {
                    state.filter = text
                    keepSelectionValid(model)
                    return .redraw
                }
                return runCommandLine(text, model)
            case .character(let character):
                guard text.count < CommandLineParser.maximumLength else {
                    return error("input too long (at most \(CommandLineParser.maximumLength) characters)")
                }
                let longer = text + String(character)
                state.prompt = isFilter ? .filter(longer) : .commandLine(longer)
                if isFilter {
                    state.filter = longer
                    state.selection = nil
                    keepSelectionValid(model)
                }
                return .redraw
            default:
                return .none
            }
        case .picker(let row):
            switch key {
            case .up, .character("k"): state.prompt = .picker(max(0, row - 1))
            case .down, .character("j"): state.prompt = .picker(min(templates.count - 1, row + 1))
            case .escape, .character("q"): state.prompt = nil
            case .enter:
                state.prompt = nil
                guard templates.indices.contains(row) else { return .redraw }
                let template = templates[row]
                status("adding \(template.name)")
                return Action(command: .addWork(WorkRequest(template: template.name, queue: template.queue)))
            default: return .none
            }
            return .redraw
        }
    }

    private mutating func runCommandLine(_ text: String, _ model: DashboardModel) -> Action {
        switch CommandLineParser.parse(text, model: model, templates: templates, queue: state.queue) {
        case .success(.command(let command, let summary)):
            status(summary)
            return Action(command: command)
        case .success(.quit): return Action(quit: true)
        case .success(.help):
            state.showHelp = true
            return .redraw
        case .failure(let failure): return error(failure.message)
        }
    }

    // MARK: Mouse

    private mutating func handleMouse(_ event: MouseEvent, _ model: DashboardModel) -> Action {
        guard mouseEnabled else { return .none }
        switch event.kind {
        case .wheelUp: moveSelection(by: -3, model)
        case .wheelDown: moveSelection(by: 3, model)
        case .press:
            if map.tableBody.contains(x: event.x, y: event.y) {
                let row = event.y - map.tableBody.y
                if map.tableIDs.indices.contains(row) { select(map.tableIDs[row], model) }
                state.pane = .table
            } else if let node = map.graphNodes.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(node.operation, model)
                state.pane = .graph
            } else if let pane = map.panes.first(where: { $0.value.contains(x: event.x, y: event.y) })?.key {
                state.pane = pane
            } else {
                return .none
            }
        }
        return .redraw
    }

    // MARK: Status

    /// Shows a message in the status line.
    public mutating func status(_ message: String) {
        state.status = message
        state.statusIsError = false
    }

    private mutating func error(_ message: String) -> Action {
        state.status = message
        state.statusIsError = true
        return .redraw
    }

    /// Reports the bridge's answer to a command in the status line.
    public mutating func commandFinished(_ result: Result<CommandReceipt, CommandError>) {
        switch result {
        case .success(let receipt): status(receipt.message)
        case .failure(let failure):
            state.status = failure.message
            state.statusIsError = true
        }
    }
}
