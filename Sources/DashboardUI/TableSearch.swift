import DashboardModel
import OperationEvents

/// The find line's search through the table (htop's F3 beside its filter): the rows that match
/// the words, in the filter's own syntax, with none of the others hidden.
struct TableSearch {
    /// Where a search lands.
    struct Match: Equatable {
        /// The operation to select.
        var operation: OperationID
        /// Its place among the matches (1 is the first row that matches) and how many match.
        var position: Int
        var count: Int
        /// The search went past the last row (or the first, backwards) to find it.
        var wrapped: Bool
    }

    /// The match in `rows` at or after `start` (`inclusive`), else after it; before it when
    /// not `forward`. Wraps around the ends. Nil when nothing matches; an error for words the
    /// filter would refuse.
    static func find(_ text: String, in rows: [OperationID], from start: OperationID?, inclusive: Bool, forward: Bool,
                     _ model: DashboardModel) -> Result<Match?, FilterQuery.ParseError> {
        let query: FilterQuery
        switch FilterQuery.parse(text) {
        case .success(let parsed): query = parsed
        case .failure(let error): return .failure(error)
        }
        guard !query.isEmpty, !rows.isEmpty else { return .success(nil) }
        let matcher = FilterQuery.Matcher(query, model: model)
        let matching = rows.indices.filter { index in model.operations.withRecord(rows[index]) { matcher.matches($0) } ?? false }
        guard !matching.isEmpty else { return .success(nil) }
        let here = start.flatMap { rows.firstIndex(of: $0) } ?? (forward ? 0 : rows.count - 1)
        let found: Int?
        if forward {
            found = matching.first { inclusive ? $0 >= here : $0 > here }
        } else {
            found = matching.last { inclusive ? $0 <= here : $0 < here }
        }
        let index = found ?? (forward ? matching[0] : matching[matching.count - 1])
        let position = matching.firstIndex(of: index)! + 1
        return .success(Match(operation: rows[index], position: position, count: matching.count, wrapped: found == nil))
    }

    /// The status line for a match.
    static func describe(_ match: Match, text: String, _ model: DashboardModel) -> String {
        let label = model.operations[match.operation]?.label ?? match.operation.description
        let wrapped = match.wrapped ? " (wrapped around)" : ""
        return "find '\(text)': \(label), \(match.position) of \(match.count)\(wrapped); F3 the next, Ctrl-P the one before"
    }
}
