import DashboardModel
import OperationEvents
import TerminalKit

extension Interaction {
    /// Keys while an overlay is open: it takes them all.
    mutating func handleOverlay(_ overlay: ViewState.Overlay, _ key: Key, _ model: DashboardModel) -> [Effect] {
        switch overlay {
        case .help:
            // Any key closes the help; q and F10 still quit.
            state.overlay = nil
            if KeyBindings.action(for: key) == .quit { return [.quit] }
            return [.redraw]
        case .confirm(let confirmation):
            switch key {
            case .character("y"), .character("Y"), .enter:
                state.overlay = nil
                if case .cancel(let ids) = confirmation.command { state.table.tagged.subtract(ids) }
                status("sent")
                return [.command(confirmation.command), .redraw]
            case .character("n"), .character("N"), .escape, .character("q"):
                state.overlay = nil
                status("nothing cancelled")
                return [.redraw]
            default:
                return []
            }
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

    /// Keys while a `:` or `/` line is being typed.
    mutating func handleLine(_ input: ViewState.LineInput, _ key: Key, _ model: DashboardModel) -> [Effect] {
        let isFilter: Bool = if case .filter = input { true } else { false }
        let text = input.text
        func replace(_ text: String) {
            state.input = isFilter ? .filter(text) : .command(text)
            if isFilter {
                state.table.filter = text
                state.selection = nil
                keepSelectionValid(model)
            }
        }
        switch key {
        case .escape:
            state.input = nil
            if isFilter { state.table.filter = "" }
            return [.redraw]
        case .backspace, .delete:
            replace(String(text.dropLast()))
            return [.redraw]
        case .enter:
            state.input = nil
            if isFilter {
                state.table.filter = text
                keepSelectionValid(model)
                return [.redraw]
            }
            return runCommandLine(text, model)
        case .character(let character):
            guard text.count < CommandLineParser.maximumLength else {
                return error("input too long (at most \(CommandLineParser.maximumLength) characters)")
            }
            replace(text + String(character))
            return [.redraw]
        default:
            return []
        }
    }
}
