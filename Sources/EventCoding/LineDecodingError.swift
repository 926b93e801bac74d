/// Why one line could not be decoded. A reader adds the file (or connection) and the line number.
public struct LineDecodingError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem it is: readers answer each differently.
    public enum Problem: Equatable, Sendable {
        /// The line is broken: not JSON, a field missing, of the wrong type or with an unknown value.
        case corrupt(String)
        /// The line is not the header of an OpScope stream (wrong or missing `format`).
        case notAHeader(String)
        /// The line is an OpScope header, but one of its fields is missing or wrong.
        case corruptHeader(String)
        /// A header of a format version newer than this reader knows.
        case newerVersion(Int)
    }

    /// The problem.
    public var problem: Problem
    /// The 1-based byte column where the text stops making sense, for syntax errors.
    public var column: Int?

    /// Creates an error.
    public init(_ problem: Problem, column: Int? = nil) {
        self.problem = problem
        self.column = column
    }

    static func corrupt(_ reason: String, column: Int? = nil) -> Self { Self(.corrupt(reason), column: column) }

    /// What is wrong, without where.
    public var reason: String {
        switch problem {
        case .corrupt(let reason), .notAHeader(let reason), .corruptHeader(let reason): reason
        case .newerVersion(let version):
            "format version \(version) is newer than this reader's (\(EventCoding.currentVersion))"
        }
    }

    /// One sentence: what is wrong, and where in the line.
    public var description: String {
        reason + (column.map { " (column \($0))" } ?? "")
    }
}
