/// Why the dashboard cannot start in this terminal; the message is one line with a hint.
public struct TerminalUnavailable: Error, CustomStringConvertible, Sendable {
    /// One line saying what is wrong and what to try.
    public let description: String
    /// An error with its one-line message.
    package init(_ description: String) { self.description = description }
}
