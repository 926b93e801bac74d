import DashboardModel
import OperationEvents

/// The report as text for people (`opscope report DEMO` without `--json`).
public enum ReportText {
    /// The report as lines of text, problems first named, then the verdict.
    public static func render(_ report: OpScopeReport) -> String {
        var lines: [String] = []
        lines.append("Queues")
        for queue in report.queues {
            lines.append("  \(QueueID(queue.id.rawValue)) \(queue.name): \(queue.suspended ? "SUSPENDED, " : "")running \(queue.executing)/\(queue.maxConcurrent < 0 ? "∞" : String(queue.maxConcurrent)), waiting \(queue.pending), finished \(queue.finished)\(queue.observation == .sampled ? " (sampled)" : "")")
        }
        let counts = Dictionary(grouping: report.operations, by: \.state).mapValues(\.count)
        lines.append("Operations: \(report.operations.count) retained (" + OperationState.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ") + ")")
        if !report.cycles.isEmpty {
            lines.append("Cycles")
            for cycle in report.cycles { lines.append("  " + cycle.map(\.description).joined(separator: " -> ")) }
        }
        if !report.diagnoses.isEmpty {
            lines.append("Not running, and why")
            for diagnosis in report.diagnoses.prefix(40) { lines.append("  " + diagnosis.message) }
            if report.diagnoses.count > 40 { lines.append("  ... and \(report.diagnoses.count - 40) more (--json has all)") }
        }
        if !report.warnings.isEmpty {
            lines.append("Warnings")
            for warning in report.warnings { lines.append("  ! " + warning.message) }
        }
        if report.droppedEvents > 0 { lines.append("\(report.droppedEvents) events were dropped (the view re-synchronised)") }
        lines.append(report.hasProblem ? "Result: problems found (exit status 1)" : "Result: no cycle, no stuck operation")
        return lines.joined(separator: "\n")
    }
}
