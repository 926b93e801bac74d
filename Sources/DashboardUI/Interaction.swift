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
            if let screen = KeyBindings.screen(for: key) {
                show(screen)
                return [.redraw]
            }
            guard let action = KeyBindings.action(for: key) else { return [] }
            return perform(action, model)
        }
    }

    /// Carries out one action of the key table.
    public mutating func perform(_ action: UserAction, _ model: DashboardModel) -> [Effect] {
        switch action {
        case .quit: return [.quit]
        case .help:
            state.overlay = .help(offset: 0)
            state.helpOpensAt = nil
        case .legend:
            // The legend is the help's last part: opened there, it scrolls as the help does.
            state.overlay = .help(offset: 0)
            state.helpOpensAt = Legend.heading
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
        case .cancelSelected: return sendingCommand { $0.askCancel(model) }
        case .cancelQueue: return sendingCommand { $0.askCancelQueue(model) }
        case .toggleSuspend: return sendingCommand { $0.toggleSuspend(model) }
        case .raiseConcurrency: return sendingCommand { $0.changeMaxConcurrency(by: 1, model) }
        case .lowerConcurrency: return sendingCommand { $0.changeMaxConcurrency(by: -1, model) }
        case .addWork: return sendingCommand { $0.openPicker() }
        case .commandLine: state.input = LineInput(.command)
        case .filter: state.input = LineInput(.filter, text: state.table.filter)
        case .search:
            // Over the table, where the rows are: the last search again, ready to repeat (F3).
            state.screen = .overview
            state.focus = .table
            var line = LineInput(.search, text: state.history.lines(.search).last ?? "")
            line.origin = state.selection
            state.input = line
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
        case .toggleFollow:
            state.table.follow.toggle()
            status(state.table.follow ? "following the selected operation, also when it finishes (F: keep the place instead)"
                   : "the selection keeps its place among the live rows when its operation finishes (F follows it)")
        case .toggleGraphLayout: toggleGraphLayout()
        case .toggleGraphFollow: return toggleGraphFollow(model)
        case .panLeft: return panGraph(left: true)
        case .panRight: return panGraph(left: false)
        case .toggleGraphCompact: toggleGraphCompact()
        // In a replay, the keys that move in time ask the recording: `p` plays and pauses, `.`
        // and `,` step one event, `[` `]` a second, `{` `}` to the previous or next mark (a
        // warning, or a change of the selected operation). On a live program, `.` and `,` step
        // through the retained history while the display is paused.
        case .togglePause:
            if let timeline = state.timeline { return [.playback(.setPlaying(!timeline.playing)), .redraw] }
            state.paused.toggle()
            if !state.paused { state.narration.stepped = false }
            status(state.paused ? "display paused (the queues keep running); . steps on, ',' back, p goes live"
                   : "live: the display follows the program again")
        case .stepForward:
            if state.timeline != nil { return [.playback(.step(events: 1)), .redraw] }
            guard state.paused else { return error("pause first (p), then . shows one event at a time") }
            return [.step(1), .redraw]
        case .stepBack:
            if state.timeline != nil { return [.playback(.step(events: -1)), .redraw] }
            guard state.paused else { return error("pause first (p), then , goes back one event at a time (p returns to live)") }
            return [.step(-1), .redraw]
        case .seekBack: return inRecording(.seek(seconds: -1))
        case .seekForward: return inRecording(.seek(seconds: 1))
        case .previousMark: return inRecording(.seekToMark(forward: false, operation: state.selection))
        case .nextMark: return inRecording(.seekToMark(forward: true, operation: state.selection))
        case .redraw: return [.fullRedraw]
        case .speedUp: return [.playback(.faster), .redraw]
        case .speedDown: return [.playback(.slower), .redraw]
        case .restart: return [.playback(.restart), .redraw]
        case .nextStuck: return jumpToStuck(forward: true, model)
        case .previousStuck: return jumpToStuck(forward: false, model)
        case .toggleNarration:
            state.narration.isOn.toggle()
            status(state.narration.isOn ? "narration on: one sentence per change (4 shows the log)" : "narration off")
        case .showView:
            // The key bar's `1-5 View` stands for every digit: it shows the next view, so that
            // clicking it again goes through them all (a digit names its view: `handle`).
            let screens = ViewState.Screen.allCases
            let index = screens.firstIndex(of: state.screen) ?? 0
            show(screens[(index + 1) % screens.count])
        }
        return [.redraw]
    }

    /// A key that sends a command to the program: refused at once by a source that takes none.
    private mutating func sendingCommand(_ ask: (inout Interaction) -> [Effect]) -> [Effect] {
        if let reason = commandsRefused { return error(reason) }
        return ask(&self)
    }

    /// A key that moves in a recording: asks the replay, or says where it works.
    private mutating func inRecording(_ request: PlaybackRequest) -> [Effect] {
        guard state.timeline != nil else {
            return error("[ ] { } move in a recording (opscope replay FILE); here, pause (p) and step with , and .")
        }
        return [.playback(request), .redraw]
    }

    /// Rows in a page: the visible rows of the list in use, less one for context.
    private var page: Int { max(1, (state.screen == .overview ? map.tableBody.height : map.list.body.height) - 1) }

    private mutating func cyclePane(by step: Int) {
        guard state.screen == .overview else { return }
        let count = ViewState.Pane.allCases.count
        state.focus = ViewState.Pane(rawValue: (state.focus.rawValue + step + count) % count)!
        // The focused frame's colour alone is easy to miss (and absent with --no-color): say
        // which pane has the keys and what they do there.
        status(Self.keysNote(state.focus, details: state.details != nil))
    }

    /// What the keys do in `pane` once it has them (Tab, Shift-Tab).
    static func keysNote(_ pane: ViewState.Pane, details: Bool) -> String {
        switch pane {
        case .queues: "keys: the queues (↑ ↓ choose one; s C ( ) act on it; Enter lists its operations)"
        case .table: "keys: the operations table (↑ ↓ select, Enter details, Space tag, < > sort)"
        case .graph where details: "keys: the details (↑ ↓ scroll, Esc closes)"
        case .graph: "keys: the graph, widened (↑ ↓ through the boxes, Enter opens a fold, h l pan)"
        case .lanes: "keys: the QoS lanes (↑ ↓ select; the graph keeps h l)"
        case .warnings: "keys: the warnings (↑ ↓ choose, Enter goes to its operation)"
        }
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

    // MARK: What the session tells

    /// True when arriving events should be narrated (the session skips the work otherwise).
    public var wantsNarration: Bool { state.narration.isOn }

    /// Narrates a batch of events the session just applied; `model` is the state after them
    /// (see `NarrationState.tell`).
    public mutating func narrate(_ events: [MonitorEvent], model: DashboardModel) {
        guard state.narration.isOn, !events.isEmpty else { return }
        clock = max(clock, model.now)
        state.narration.tell(events, model: model)
    }

    /// Narrates the changes that led to `model`, the state a session started from, so that the
    /// log begins where the program began (see `NarrationState.tell(startingFrom:)`).
    public mutating func narrate(startingFrom model: DashboardModel) {
        state.narration.tell(startingFrom: model)
    }

    /// Narrates one event shown by stepping (`.`), whether narration is on or not.
    public mutating func narrate(step event: MonitorEvent, model: DashboardModel) {
        clock = max(clock, model.now)
        state.narration.tell(step: event, model: model)
    }

    /// Narrates the event a step back (`,`) went back over (`model` is the state it made).
    public mutating func narrate(stepBack event: MonitorEvent, model: DashboardModel) {
        state.narration.tell(stepBack: event, model: model)
    }

    /// The display follows the program again (`p` after a pause): the status says so, stamped
    /// with the live clock `now`.
    public mutating func resumedLive(now: UInt64) {
        clock = max(clock, now)
        state.narration.steppedBack = nil
        if let status = state.status, !status.isError { state.status = ViewState.StatusLine(status.text, time: clock) }
    }

    /// Another program took the source's place (a socket served anew): a question about the
    /// old one's operations is closed unanswered, and its tags go, since ids start over.
    public mutating func forgetProgram() {
        if case .confirm = state.overlay { state.overlay = nil }
        state.table.tagged.removeAll()
        receiptNote = nil
    }

    /// The model's clock went back (a replay seeking back): narration after that moment goes.
    public mutating func rewound(to time: UInt64) {
        state.narration.forget(after: time)
    }

    /// The sentence the narration line shows, if it shows one.
    var narrationLine: NarrationEntry? { state.narration.line(paused: state.paused) }

    /// The replay's state, as the session learned it from the source (nil: not a replay). When
    /// the replay moved back in time, the clock that stamps status messages moves back with it.
    public mutating func updateTimeline(_ timeline: TimelineState?, now: UInt64) {
        let before = state.timeline
        state.timeline = timeline
        if let timeline { followPlayback(timeline, before: before) }
        guard timeline != nil, now < clock else { return }
        clock = now
        state.status?.time = now
        if let answer = playbackAnswer, answer.status.text == state.status?.text { playbackAnswer?.status.time = now }
    }

    /// The replay's answer to a key (`status` is where it left the replay): shown in the status
    /// line until playback moves on from the moment it names.
    public mutating func playbackAnswered(_ status: PlaybackStatus) {
        self.status(status.message)
        let timeline = TimelineState(status)
        if let timeline, let line = state.status { playbackAnswer = (line, timeline.position) } else { playbackAnswer = nil }
    }

    /// Playing on from where a key left the replay lets that answer go (it named a moment no
    /// longer shown); playing into the end says so, and what to do next.
    private mutating func followPlayback(_ timeline: TimelineState, before: TimelineState?) {
        if let answer = playbackAnswer {
            if state.status != answer.status {
                playbackAnswer = nil
            } else if timeline.playing, abs(timeline.position - answer.position) >= 1.5 {
                state.status = nil
                playbackAnswer = nil
            }
        }
        let atEnd = timeline.duration > 0 && timeline.position >= timeline.duration - 0.0005 && !timeline.playing
        if atEnd, before?.playing == true {
            status("end of the recording: R starts it over, [ goes back a second, :seek TIME to a moment")
        }
    }

    // MARK: Views, selection and movement

    /// Digits: switch the whole-screen view.
    mutating func show(_ screen: ViewState.Screen) {
        state.screen = screen
        screen.view.shown(&self)
    }

    /// Enter: what the view shown makes of it (in a list view: go to the operation).
    mutating func enter(_ model: DashboardModel) -> [Effect] {
        state.screen.view.enter(&self, model)
    }

    /// `n` / `N`: the next (previous) stuck operation after the selection, in the order the
    /// current view lists them.
    mutating func jumpToStuck(forward: Bool, _ model: DashboardModel) -> [Effect] {
        let stuck = model.stuckOperations()
        guard !stuck.isEmpty else { return error("nothing is stuck: no cycle, suspended queue, lost finish or missing dependency") }
        let order = state.screen.view.listedOperations(model, &self)
        let candidates = order.filter(stuck.contains)
        guard !candidates.isEmpty else {
            return error("\(stuck.count) stuck operation\(stuck.count == 1 ? " is" : "s are") hidden by the filter (Esc clears it)")
        }
        let position = state.selection.flatMap { order.firstIndex(of: $0) }
        let target: OperationID
        if let position {
            let after = forward ? order[(position + 1)...].first(where: stuck.contains) : order[..<position].last(where: stuck.contains)
            target = after ?? (forward ? candidates.first! : candidates.last!)
        } else {
            target = forward ? candidates.first! : candidates.last!
        }
        select(target, model)
        let index = candidates.firstIndex(of: target)! + 1
        status("stuck \(index) of \(candidates.count): \(Self.stuckReason(target, model))")
        return [.redraw]
    }

    /// Why `id` is stuck, short: its diagnosis when it waits; when it runs (a root cause), what
    /// its warning says is wrong.
    static func stuckReason(_ id: OperationID, _ model: DashboardModel) -> String {
        if let diagnosis = model.diagnosis(of: id) { return diagnosis.message }
        guard let record = model.operations[id] else { return id.description }
        let running = DurationText.format(record.runTime(now: model.now) ?? 0)
        let reasons = model.warnings().filter { $0.operation == id }.compactMap { warning -> String? in
            switch warning.kind {
            case .unsignalledFinish: "finish not signalled (isFinished reads true, its queue was never told)"
            case .longRunningAsynchronous: "asynchronous, executing \(running): never calls finish()?"
            case .longRunningSynchronous: "executing \(running): main() never returns?"
            case .cancelledStillExecuting: "cancelled, still executing after \(running): does it check isCancelled?"
            case .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted, .dependencyNeverEnqueued, .cycle, .suspendedQueueWithWork, .droppedEvents: nil
            }
        }
        return record.label + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
    }

    /// Keeps the selection on an operation the table shows and the selected queue on a queue
    /// the model has. A filter that hides the selection moves it to the first row, and it comes
    /// back when a later filter shows it again. Also moves the status line's clock on.
    public mutating func keepSelectionValid(_ model: DashboardModel) {
        clock = max(clock, model.now)
        if let status = state.status, !status.isShown(at: clock) { state.status = nil }
        if state.table.tagged.contains(where: { !model.operations.contains($0) }) {
            state.table.tagged = state.table.tagged.filter { model.operations.contains($0) }
        }
        if let queue = state.queue, model.queues[queue] == nil { state.queue = nil }
        let shown = OperationRows.Visibility(model, state.table)
        defer { state.table.liveSelection = state.selection.flatMap { id in model.operations[id].map { $0.state != .finished } == true ? id : nil } }
        keepPlace(model, shown)
        if let displaced = state.table.displacedSelection, shown.includes(displaced) {
            state.selection = displaced
            state.table.displacedSelection = nil
        }
        if let id = state.selection, shown.includes(id) {
            if state.queue == nil { state.queue = model.operations[id]?.queue ?? model.queues.ids.min() }
            return
        }
        if let id = state.selection, model.operations.contains(id), state.table.displacedSelection == nil {
            state.table.displacedSelection = id
        }
        let first = rows(model).first
        state.selection = first
        if state.queue == nil { state.queue = first.flatMap { model.operations[$0]?.queue } ?? model.queues.ids.min() }
    }

    /// A selected operation that finished since the last look sinks below the live rows: unless
    /// the table follows it (`F`), the selection goes to the live row after it in the last frame
    /// (before it, at the end), so the view keeps its place. Only while live work is listed
    /// first: otherwise a finish moves no row.
    private mutating func keepPlace(_ model: DashboardModel, _ shown: OperationRows.Visibility) {
        let table = state.table
        guard !table.follow, table.liveFirst, table.sort != .state, let id = state.selection, table.liveSelection == id,
              model.operations[id]?.state == .finished else { return }
        let previous = map.rows.ids
        guard let index = previous.firstIndex(of: id) else { return }
        func live(_ other: OperationID) -> Bool { shown.includes(other) && model.operations[other].map { $0.state != .finished } == true }
        let next = previous[(index + 1)...].first(where: live) ?? previous[..<index].last(where: live)
        if let next { state.selection = next }
    }

    /// The table's rows for `model`, from the last frame's when they still hold.
    mutating func rows(_ model: DashboardModel) -> [OperationID] {
        map.rows = OperationRows.rows(model, state.table, reusing: map.rows)
        return map.rows.ids
    }

    /// ↑ ↓ and the page keys, in the view shown.
    mutating func move(by delta: Int, _ model: DashboardModel) {
        state.screen.view.move(by: delta, &self, model)
    }

    /// Moves the selection through the table's rows.
    mutating func moveSelection(by delta: Int, _ model: DashboardModel) {
        let ids = rows(model)
        guard !ids.isEmpty else { return }
        let current = state.selection.flatMap { ids.firstIndex(of: $0) } ?? 0
        select(ids[min(max(0, current.addingClamped(delta)), ids.count - 1)], model)
    }

    /// ↑ ↓ in the queues pane: every queue, empty ones too.
    mutating func moveQueue(by delta: Int, _ model: DashboardModel) {
        let ids = model.queues.ids.sorted()
        guard !ids.isEmpty else { return }
        let current = state.queue.flatMap { ids.firstIndex(of: $0) } ?? 0
        state.queue = ids[min(max(0, current.addingClamped(delta)), ids.count - 1)]
    }

    /// Selects an operation; its queue becomes the selected queue. A choice the person made
    /// replaces any selection a filter moved away from.
    mutating func select(_ id: OperationID, _ model: DashboardModel) {
        state.selection = id
        state.table.displacedSelection = nil
        if state.details != nil { state.details = ViewState.ScrollState() }
        if let queue = model.operations[id]?.queue { state.queue = queue }
    }

    /// Shows `id` in the overview with its details, clearing a filter (or `H`) that hides it.
    mutating func reveal(_ id: OperationID, _ model: DashboardModel) -> [Effect] {
        guard model.operations.contains(id) else { return error("\(id) is no longer retained") }
        state.screen = .overview
        if !OperationRows.Visibility(model, state.table).includes(id) {
            state.table.filter = ""
            state.table.hideFinished = false
            status("filter cleared to show \(id)")
        }
        select(id, model)
        state.focus = .table
        state.details = ViewState.ScrollState()
        return [.redraw]
    }

    // MARK: The mouse

    /// A click selects what is under it (a row, a queue, a graph node, an operation in the QoS
    /// lanes, a pane), goes to a warning's operation (as Enter on it), and acts as the key of the
    /// key bar entry it is on; the wheel scrolls.
    mutating func handleMouse(_ event: MouseEvent, _ model: DashboardModel) -> [Effect] {
        guard mouseEnabled else { return [] }
        switch event.kind {
        case .wheelUp: move(by: -3, model)
        case .wheelDown: move(by: 3, model)
        case .press:
            if let entry = map.keyBar.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                return perform(entry.action, model)
            } else if let row = map.queueRows.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                state.queue = row.queue
                state.focus = .queues
            } else if map.list.body.contains(x: event.x, y: event.y), state.screen != .overview {
                let line = event.y - map.list.body.y
                guard map.list.rows.indices.contains(line) else { return [] }
                state.screen.view.click(map.list.rows[line], &self, model)
            } else if map.tableBody.contains(x: event.x, y: event.y) {
                let row = event.y - map.tableBody.y
                if map.tableIDs.indices.contains(row) { select(map.tableIDs[row], model) }
                state.focus = .table
            } else if let row = map.warningRows.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                state.warnings.offset = row.index
                state.focus = .warnings
                return enter(model)
            } else if let node = map.graphNodes.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(node.operation, model)
                state.focus = .graph
            } else if let entry = map.laneOperations.first(where: { $0.rect.contains(x: event.x, y: event.y) }) {
                select(entry.operation, model)
                state.focus = .lanes
            } else if let pane = map.panes.first(where: { $0.value.contains(x: event.x, y: event.y) })?.key {
                state.focus = pane
            } else {
                return []
            }
        }
        return [.redraw]
    }
}

extension Int {
    /// `self + other` without overflow (Home and End move by huge amounts).
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
