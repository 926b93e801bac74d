import DashboardModel
import OperationEvents
import TerminalKit

extension Interaction {
    /// Keys while an overlay is open: it takes them all.
    mutating func handleOverlay(_ overlay: ViewState.Overlay, _ key: Key, _ model: DashboardModel) -> [Effect] {
        if case .resize = key { return [.redraw] }
        switch overlay {
        case .help(let offset):
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
                return KeyBindings.action(for: key) == .quit ? [.quit] : [.redraw]
            }
            let last = max(0, map.overlayLines - map.overlayBody.height)
            state.overlay = .help(offset: min(max(0, offset.addingClamped(delta)), last))
            return [.redraw]
        case .legend:
            state.overlay = nil
            return KeyBindings.action(for: key) == .quit ? [.quit] : [.redraw]
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
            switch line.edit(key, history: state.history.lines(line.kind), maximumLength: CommandLineParser.maximumLength) {
            case .ignored: return []
            case .full: return error("input too long (at most \(CommandLineParser.maximumLength) characters)")
            case .changed: break
            }
            state.input = line
            if line.kind == .filter { state.table.filter = line.text }
            return [.redraw]
        }
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
}
