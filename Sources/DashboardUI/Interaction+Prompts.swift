import DashboardModel
import OperationEvents
import TerminalKit

/// The prompts: the overlays (help, the work picker, a question), the `:` and `/` lines,
/// and the confirmations and commands they lead to.
extension Interaction {
    /// Keys while an overlay is open: it takes them all.
    mutating func handleOverlay(_ overlay: ViewState.Overlay, _ key: Key, _ model: DashboardModel) -> [Effect] {
        if case .resize = key { return [.redraw] }
        switch overlay {
        case .help:
            // Movement keys scroll; any other key closes the help (q and F10 still quit).
            let page = max(1, map.overlayBody.height - 1)
            let delta: Int? = switch key {
            case .up, .character("k"): -1
            case .down, .character("j"): 1
            case .pageUp: -page
            case .pageDown, .character(" "): page
            case .home: Int.min / 2
            case .end: Int.max / 2
            default: nil
            }
            guard let delta else {
                state.overlay = nil
                state.helpOpensAt = nil
                return KeyBindings.action(for: key) == .quit ? [.quit] : [.redraw]
            }
            scrollHelp(by: delta)
            return [.redraw]
        case .confirm(let confirmation):
            // Only y is a yes: Enter, Esc and everything else keep things as they are.
            if case .mouse(let event) = key, event.kind != .press { return [] }
            return answer(confirmation, yes: key == .character("y") || key == .character("Y"), model)
        case .picker(let row):
            switch key {
            case .up, .character("k"): state.overlay = .picker(row: max(0, row - 1))
            case .down, .character("j"): state.overlay = .picker(row: min(templates.count - 1, row + 1))
            case .escape, .character("q"): state.overlay = nil
            case .enter:
                state.overlay = nil
                guard templates.indices.contains(row) else { return [.redraw] }
                let template = templates[row]
                status("adding \(template.name)")
                return [.command(.addWork(WorkRequest(template: template.name, queue: template.queue))), .redraw]
            default: return []
            }
            return [.redraw]
        }
    }

    /// Keys while a `:` or `/` line is being typed. They only edit the text; the filter is
    /// applied by the next frame.
    mutating func handleLine(_ input: LineInput, _ key: Key, _ model: DashboardModel) -> [Effect] {
        if input.kind == .search { return handleSearch(input, key, model) }
        var line = input
        switch key {
        case .escape:
            state.input = nil
            if line.kind == .filter { state.table.filter = "" }
            return [.redraw]
        case .enter:
            state.input = nil
            state.history.add(line.text, line.kind)
            if line.kind == .filter {
                state.table.filter = line.text
                if let note = Self.goneNote(line.text, model) { status(note) }
                return [.redraw]
            }
            return runCommandLine(line.text, model)
        case .resize:
            return [.redraw]
        default:
            switch line.edit(key, history: state.history.lines(line.kind), maximumLength: CommandPrompt.maximumLength) {
            case .ignored: return []
            case .full: return error("input too long (at most \(CommandPrompt.maximumLength) characters)")
            case .changed: break
            }
            state.input = line
            if line.kind == .filter { state.table.filter = line.text }
            return [.redraw]
        }
    }

    /// Keys on the find line: typing jumps to the first match from where it opened, F3 and
    /// Ctrl-N to the next, Ctrl-P to the one before; Enter stays there, Esc goes back.
    private mutating func handleSearch(_ input: LineInput, _ key: Key, _ model: DashboardModel) -> [Effect] {
        var line = input
        let step: (forward: Bool, inclusive: Bool)?
        switch key {
        case .escape:
            state.input = nil
            if let origin = input.origin, model.operations.contains(origin) { select(origin, model) }
            status("find: back where it started")
            return [.redraw]
        case .enter:
            state.input = nil
            state.history.add(line.text, .search)
            return [.redraw]
        case .resize:
            return [.redraw]
        case .function(3), .control("n"): step = (true, false)
        case .control("p"): step = (false, false)
        default:
            switch line.edit(key, history: state.history.lines(.search), maximumLength: CommandPrompt.maximumLength) {
            case .ignored: return []
            case .full: return error("input too long (at most \(CommandPrompt.maximumLength) characters)")
            case .changed: break
            }
            state.input = line
            step = nil
        }
        let from = step == nil ? line.origin : state.selection
        switch TableSearch.find(line.text, in: rows(model), from: from, inclusive: step == nil, forward: step?.forward ?? true, model) {
        case .failure(let problem):
            return error(problem.message)
        case .success(nil):
            if !line.text.isEmpty { status("find '\(line.text)': no operation listed matches (Esc goes back)") }
        case .success(let match?):
            select(match.operation, model)
            status(TableSearch.describe(match, text: line.text, model))
        }
        return [.redraw]
    }

    /// A filter for one id (`#2`, `id:2`) that matches nothing because the operation is no longer
    /// retained: what the model can truthfully say about it. Only finished operations are
    /// dropped, so an id below one still held, with drops counted, finished and was dropped.
    /// Nil for other filters, and when the id is held.
    static func goneNote(_ filter: String, _ model: DashboardModel) -> String? {
        let words = filter.lowercased().split(whereSeparator: \.isWhitespace)
        guard words.count == 1 else { return nil }
        var text = words[0]
        if text.hasPrefix("id:") { text = text.dropFirst(3) }
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard let number = Int(text), number > 0 else { return nil }
        let id = OperationID(number)
        guard !model.operations.contains(id) else { return nil }
        let dropped = model.expired.values.reduce(0, +)
        let highest = model.operations.ids.max()
        guard dropped > 0, let highest, id < highest else {
            return "no operation \(id) is held" + (highest.map { " (ids held go up to \($0))" } ?? "")
        }
        let seconds = model.configuration.finishedRetention / 1_000_000_000
        return "\(id) finished and was dropped from the list: finished operations stay \(seconds) s "
            + "(at most \(model.configuration.maximumRetainedFinished)); \(dropped) dropped so far"
    }

    /// Scrolls the open help by `delta` lines: from its offset, or, while it is open at a heading
    /// (`:help`), from that heading's line as last drawn.
    private mutating func scrollHelp(by delta: Int) {
        guard case .help(let offset) = state.overlay else { return }
        let from = state.helpOpensAt == nil ? offset : map.overlayFirst
        let last = max(0, map.overlayLines - map.overlayBody.height)
        state.overlay = .help(offset: min(max(0, from.addingClamped(delta)), last))
        state.helpOpensAt = nil
    }

    /// The mouse over an overlay: the wheel scrolls the help, a click inside it does nothing and
    /// one outside closes it. Nil: the
    /// overlay takes the event as a key (the picker, a question).
    mutating func handleOverlayMouse(_ event: MouseEvent, _ overlay: ViewState.Overlay) -> [Effect]? {
        let inside = map.overlayBody.inset(by: -1).contains(x: event.x, y: event.y)
        switch (overlay, event.kind) {
        case (.help, .wheelUp), (.help, .wheelDown):
            guard mouseEnabled else { return [] }
            scrollHelp(by: event.kind == .wheelUp ? -3 : 3)
            return [.redraw]
        case (.help, .press):
            guard mouseEnabled, !inside else { return [] }
            state.overlay = nil
            state.helpOpensAt = nil
            return [.redraw]
        case (.picker, _), (.confirm, _):
            return nil
        }
    }

    // MARK: Questions and commands to the program

    /// What a confirmation says after the question, so that nobody takes Enter for a yes.
    static func confirmHint(_ count: Int) -> String {
        "  only y cancels; Enter or any other key keeps \(count == 1 ? "it" : "them")"
    }

    /// `c`: asks before cancelling the tagged operations, or the selected one.
    mutating func askCancel(_ model: DashboardModel) -> [Effect] {
        let chosen = state.table.tagged.isEmpty ? [state.selection].compactMap { $0 } : state.table.tagged.sorted()
        let targets = chosen.filter { model.operations[$0].map { $0.state != .finished } ?? false }
        guard !targets.isEmpty else { return error("nothing to cancel: select or tag unfinished operations") }
        state.overlay = .confirm(.init(question: "Cancel \(Self.names(targets, model))? (y/n)" + Self.confirmHint(targets.count),
                                       command: .cancel(operations: targets)))
        return [.redraw]
    }

    /// `C`: asks before cancelling the selected queue's unfinished operations: exactly those
    /// the question counts, not whatever the queue holds when the answer comes.
    mutating func askCancelQueue(_ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        var targets: [OperationID] = []
        model.operations.forEach { pointer in
            if pointer.pointee.queue == queue, pointer.pointee.state != .finished { targets.append(pointer.pointee.id) }
        }
        targets.sort()
        guard !targets.isEmpty else { return error("\(queue) '\(record.name)' has no unfinished operation to cancel") }
        let count = targets.count == 1 ? "its 1 unfinished operation" : "its \(targets.count) unfinished operations"
        state.overlay = .confirm(.init(question: "Cancel \(count) of \(queue) '\(record.name)': \(Self.names(targets, model))? (y/n)"
                                           + Self.confirmHint(targets.count),
                                       command: .cancel(operations: targets)))
        return [.redraw]
    }

    /// `#4 parse-a, #5 parse-b, #6 update and 3 more`.
    static func names(_ ids: [OperationID], _ model: DashboardModel) -> String {
        let names = ids.prefix(3).map { model.operations[$0]?.label ?? $0.description }.joined(separator: ", ")
        return names + (ids.count > 3 ? " and \(ids.count - 3) more" : "")
    }

    /// The answer to a confirmation: only `y` acts, and on the operations asked about that have
    /// not finished since (never on more).
    mutating func answer(_ confirmation: ViewState.Confirmation, yes: Bool, _ model: DashboardModel) -> [Effect] {
        state.overlay = nil
        guard yes else {
            status("nothing cancelled")
            return [.redraw]
        }
        guard case .cancel(let asked) = confirmation.command else { return [.command(confirmation.command), .redraw] }
        state.table.tagged.subtract(asked)
        let open = asked.filter { model.operations[$0].map { $0.state != .finished } ?? false }
        guard !open.isEmpty else { return error("nothing cancelled: \(asked.count == 1 ? "it" : "they all") finished meanwhile") }
        if open.count < asked.count {
            let gone = asked.filter { !open.contains($0) }.map(\.description).joined(separator: " ")
            status("\(asked.count - open.count) of them finished meanwhile; cancelling the rest")
            // The receipt replaces this line: it says so too, or the count would not add up.
            receiptNote = "\(gone) had finished meanwhile"
        }
        return [.command(.cancel(operations: open)), .redraw]
    }

    /// `s`: suspends or resumes the selected queue (a tracked one too: the program refuses it
    /// only on the main queue, whose setters Foundation ignores, and says so).
    mutating func toggleSuspend(_ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        status("\(record.isSuspended ? "resuming" : "suspending") \(queue) '\(record.name)'")
        return [.command(.setSuspended(queue: queue, suspended: !record.isSuspended)), .redraw]
    }

    /// `)` / `(`: changes the selected queue's max concurrency by one.
    mutating func changeMaxConcurrency(by delta: Int, _ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        let current = record.maxConcurrentOperationCount
        let next: Int
        if current < 0 {
            // The first limit is the number running now: the queue goes on as it is, and the
            // next ( holds one more back. (The program's processor count is not known here.)
            guard delta < 0 else {
                return error("\(queue) has no concurrency limit (∞): nothing to raise; ( sets one at the number running now "
                             + "(\(max(1, record.executing))), :max \(queue) N any other")
            }
            next = max(1, record.executing)
            // Says why this number: the one running now, or the least limit when none runs.
            let why = record.executing >= 1 ? "the number running now" : "the least limit, as none is running"
            receiptNote = why
            status("max concurrency of \(queue) '\(record.name)': no limit (∞) → \(next), \(why)")
        } else {
            next = current + delta
            guard next >= 1 else { return error("\(queue) is already serial (max 1)") }
            status("max concurrency of \(queue) '\(record.name)': \(record.limitText) → \(next)")
        }
        return [.command(.setMaxConcurrency(queue: queue, count: next)), .redraw]
    }

    /// `a`: the work picker, when the program registered templates.
    mutating func openPicker() -> [Effect] {
        guard !templates.isEmpty else {
            return error("no work templates registered: the program adds them with monitor.catalog.register")
        }
        state.overlay = .picker(row: 0)
        return [.redraw]
    }

    /// Runs a `:` line.
    mutating func runCommandLine(_ text: String, _ model: DashboardModel) -> [Effect] {
        switch TimelineState.seekLine(text) {
        case nil: break
        case _ where state.timeline == nil: return error(":seek moves in a recording (opscope replay FILE)")
        case .unreadable?: return error("usage: :seek TIME, e.g. :seek 12.5s, :seek 1:30, :seek +5s, :seek -2s")
        case .request(let request)?: return [.playback(request), .redraw]
        }
        if let reason = commandsRefused, CommandPrompt.sendsCommand(text) { return error(reason) }
        switch CommandPrompt.parse(text, model: model, templates: templates, queue: state.queue) {
        case .success(.command(let command, let summary)):
            status(summary)
            return [.command(command), .redraw]
        case .success(.quit): return [.quit]
        case .success(.help):
            // `:help` is asked on the command line: it opens where the commands are.
            state.overlay = .help(offset: 0)
            state.helpOpensAt = HelpOverlay.commandsHeading
            return [.redraw]
        case .failure(let failure): return error(failure.message)
        }
    }
}
