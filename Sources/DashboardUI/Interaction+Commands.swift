import DashboardModel
import OperationEvents

extension Interaction {
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
            let running = "\(record.executing) running now"
            guard delta < 0 else {
                return error("\(queue) has no concurrency limit (∞): nothing to raise; ( sets one at the number running now "
                             + "(\(max(1, record.executing))), :max \(queue) N any other")
            }
            next = max(1, record.executing)
            receiptNote = "\(next): \(running)"
            status("max concurrency of \(queue) '\(record.name)': no limit (∞) → \(next), \(running)")
        } else {
            next = current + delta
            guard next >= 1 else { return error("\(queue) is already serial (max 1)") }
            status("max concurrency of \(queue) '\(record.name)': \(record.limitText) → \(next)")
        }
        return [.command(.setMaxConcurrency(queue: queue, count: next)), .redraw]
    }

    /// The keys that send a command to the program (the source takes commands).
    mutating func performCommand(_ action: UserAction, _ model: DashboardModel) -> [Effect] {
        switch action {
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
            return [.redraw]
        default: return []
        }
    }

    /// Runs a `:` line.
    mutating func runCommandLine(_ text: String, _ model: DashboardModel) -> [Effect] {
        if let effects = runTimelineCommand(text) { return effects }
        if let reason = commandsRefused, CommandLineParser.sendsCommand(text) { return error(reason) }
        switch CommandLineParser.parse(text, model: model, templates: templates, queue: state.queue) {
        case .success(.command(let command, let summary)):
            status(summary)
            return [.command(command), .redraw]
        case .success(.quit): return [.quit]
        case .success(.help):
            state.overlay = .help(offset: 0)
            return [.redraw]
        case .failure(let failure): return error(failure.message)
        }
    }
}
