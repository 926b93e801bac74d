import DashboardModel
import OperationEvents

extension Interaction {
    /// `c`: asks before cancelling the tagged operations, or the selected one.
    mutating func askCancel(_ model: DashboardModel) -> [Effect] {
        let chosen = state.table.tagged.isEmpty ? [state.selection].compactMap { $0 } : state.table.tagged.sorted()
        let targets = chosen.filter { model.operations[$0].map { $0.state != .finished } ?? false }
        guard !targets.isEmpty else { return error("nothing to cancel: select or tag unfinished operations") }
        let names = targets.prefix(3).map { model.operations[$0]?.label ?? $0.description }.joined(separator: ", ")
        let more = targets.count > 3 ? " and \(targets.count - 3) more" : ""
        state.overlay = .confirm(.init(question: "Cancel \(names)\(more)? (y/n)", command: .cancel(operations: targets)))
        return [.redraw]
    }

    /// `C`: asks before cancelling every operation of the selected queue.
    mutating func askCancelQueue(_ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        let count = record.waiting + record.executing
        state.overlay = .confirm(.init(question: "Cancel all \(count) operations of \(queue) '\(record.name)'? (y/n)",
                                       command: .cancelAll(queue: queue)))
        return [.redraw]
    }

    /// `s`: suspends or resumes the selected queue.
    mutating func toggleSuspend(_ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        guard record.observation == .observed else { return refuseSampled(queue, record) }
        status("\(record.isSuspended ? "resuming" : "suspending") \(queue) '\(record.name)'")
        return [.command(.setSuspended(queue: queue, suspended: !record.isSuspended)), .redraw]
    }

    /// `+` / `-`: changes the selected queue's max concurrency by one.
    mutating func changeMaxConcurrency(by delta: Int, _ model: DashboardModel) -> [Effect] {
        guard let queue = state.queue, let record = model.queues[queue] else { return error("no queue selected") }
        guard record.observation == .observed else { return refuseSampled(queue, record) }
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
        return [.command(.setMaxConcurrency(queue: queue, count: next)), .redraw]
    }

    private mutating func refuseSampled(_ queue: QueueID, _ record: QueueRecord) -> [Effect] {
        error("\(queue) '\(record.name)' is only sampled: OpScope can watch it but not change it")
    }

    /// Runs a `:` line.
    mutating func runCommandLine(_ text: String, _ model: DashboardModel) -> [Effect] {
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
