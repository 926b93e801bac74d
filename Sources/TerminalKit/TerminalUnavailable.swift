/// Why the dashboard cannot start in this terminal; the message is one line with a hint.
public struct TerminalUnavailable: Error, CustomStringConvertible, Sendable {
    /// What is wrong with the terminal, and what would make it work.
    public let problem: String
    /// A command that gives the same facts without a terminal (a report), when one applies:
    /// the caller that knows what was asked for (a demo, a file) can name a better one.
    public let alternative: String?

    /// One line: the problem, then the command to try instead.
    public var description: String {
        guard let alternative else { return problem }
        return "\(problem) (for a report, try: \(alternative))"
    }

    /// An error with its one-line problem and, optionally, the command to try instead.
    package init(_ problem: String, alternative: String? = nil) {
        self.problem = problem
        self.alternative = alternative
    }

    /// The same error suggesting `alternative` instead (kept absent when there was none).
    public func suggesting(_ alternative: String) -> TerminalUnavailable {
        TerminalUnavailable(problem, alternative: self.alternative == nil ? nil : alternative)
    }
}
