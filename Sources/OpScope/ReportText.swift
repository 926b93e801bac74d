import DashboardModel
import OperationEvents
import TerminalKit

/// The report as text for people (`opscope report DEMO` without `--json`).
public enum ReportText {
    /// The report as lines of text, problems first named, then the verdict.
    ///
    /// Names and messages are shown as the dashboard shows them (`TerminalText.visible`): a name
    /// holding a line break, a tab or a terminal escape stays on its line, inert, so it can
    /// neither break the one-line-per-item layout nor pass for a `! ...` warning line.
    public static func render(_ report: OpScopeReport) -> String {
        render(report, forCommand: false)
    }

    /// The same; `forCommand` (the `opscope report` command) adds the exit status it ends with to
    /// the verdict: that status belongs to the command, not to a program that renders a report.
    package static func render(_ report: OpScopeReport, forCommand: Bool) -> String {
        var lines: [String] = []
        lines.append("Queues")
        for queue in report.queues {
            let limit = queue.maxConcurrent < 0 ? "∞" : String(queue.maxConcurrent)
            let cancelled = queue.cancelled > 0 ? " (\(queue.cancelled) cancelled)" : ""
            lines.append("  \(QueueID(queue.id.rawValue)) \(shown(queue.name)): \(queue.suspended ? "SUSPENDED, " : "")running \(queue.executing)/\(limit), "
                         + "ready \(queue.ready), pending \(queue.pending - queue.ready), finished \(queue.finished)\(cancelled)\(queue.observation == .sampled ? " (sampled)" : "")")
        }
        let counts = Dictionary(grouping: report.operations, by: \.state).mapValues(\.count)
        lines.append("Operations: \(report.operations.count) retained (" + OperationState.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ") + ")")
        if !report.cycles.isEmpty {
            let names = Dictionary(report.operations.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            lines.append("Cycles")
            for cycle in report.cycles {
                lines.append("  " + cycle.map { id in names[id].map { "\(id) \(shown($0))" } ?? id.description }.joined(separator: " -> "))
            }
        }
        if !report.diagnoses.isEmpty {
            lines.append("Not running, and why")
            for diagnosis in report.diagnoses.prefix(40) { lines.append("  " + shown(diagnosis.message)) }
            if report.diagnoses.count > 40 { lines.append("  ... and \(report.diagnoses.count - 40) more (--json has all)") }
        }
        if !report.warnings.isEmpty {
            lines.append("Warnings")
            for warning in report.warnings { lines.append("  ! " + shown(warning.message)) }
        }
        if report.droppedEvents > 0 { lines.append("\(report.droppedEvents) events were dropped (the view re-synchronised)") }
        lines.append(verdict(report, forCommand: forCommand))
        return lines.joined(separator: "\n")
    }

    /// The last line. Work held by a suspended queue is named whatever the verdict: the dashboard
    /// counts it as stuck (`n` visits it), though it is not a problem by itself (programs suspend
    /// queues on purpose; resumed, it runs).
    static func verdict(_ report: OpScopeReport, forCommand: Bool) -> String {
        let held = report.queues.filter { $0.suspended && $0.pending > 0 }.map { queue in
            "\(queue.pending) operation\(queue.pending == 1 ? "" : "s") held by suspended queue \(QueueID(queue.id.rawValue)) '\(shown(queue.name))'"
        }
        let heldText = held.joined(separator: ", ")
        if report.hasProblem {
            return "Result: problems found" + (held.isEmpty ? "" : "; also \(heldText)") + (forCommand ? " (exit status 1)" : "")
        }
        if held.isEmpty { return "Result: no cycle, no stuck operation" }
        return "Result: no cycle, no operation that cannot progress on its own; \(heldText) (they start once it is resumed)"
    }

    private static func shown(_ text: String) -> String { TerminalText.visible(text) }
}
