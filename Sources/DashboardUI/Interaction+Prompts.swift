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
}
