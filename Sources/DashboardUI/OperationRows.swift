import DashboardModel
import OperationEvents

/// The table's rows: the model's operations, filtered and sorted as the view state says. Sorting
/// works on small keys, not on records, so that 10,000 rows sort in well under a millisecond;
/// the result is kept (`RowCache`) and reused while the model, the sort and the filter stay the
/// same, and a filter typed further is matched over the previous result only.
public enum OperationRows {
    /// Ids in display order (no reuse; tests and one-off callers).
    public static func ids(_ model: DashboardModel, _ state: ViewState) -> [OperationID] {
        rows(model, state.table, reusing: RowCache()).ids
    }

    /// The rows for `table`, reusing `cache` when it still holds.
    public static func rows(_ model: DashboardModel, _ table: ViewState.TableState, reusing cache: RowCache) -> RowCache {
        let query = FilterQuery.parse(table.filter)
        let key = RowCache.Key(model, table, query: try? query.get())
        if cache.key == key { return cache }
        var result = RowCache()
        result.key = key
        result.evaluations = cache.evaluations + 1
        switch query {
        case .failure(let failure):
            result.error = failure.message
            return result
        case .success(let query):
            let matcher = query.isEmpty ? nil : FilterQuery.Matcher(query, model: model)
            // Typed further: the rows can only get fewer, in the same order. Worth it while they
            // are few: looking each one up costs more per row than the pass over all of them.
            if let matcher, let previous = cache.key, let previousQuery = cache.query, previous.sameExceptFilter(key),
               query.narrows(previousQuery), cache.ids.count * 2 <= model.operations.count {
                result.ids = cache.ids.filter { id in
                    model.operations.read(id) { record in withUnsafePointer(to: record) { matcher.matches($0) } } ?? false
                }
                result.incremental = true
            } else {
                result.ids = sorted(model, table, matcher)
            }
            result.query = query
            return result
        }
    }

    private static func sorted(_ model: DashboardModel, _ table: ViewState.TableState, _ matcher: FilterQuery.Matcher?) -> [OperationID] {
        let now = model.now
        var keyed: [(Int64, Int64, OperationID)] = []
        keyed.reserveCapacity(model.operations.count)
        // Borrowed, not copied: this runs over every operation on every frame that changed.
        model.operations.forEach { record in
            let finished = record.pointee.state == .finished
            if finished, table.hideFinished { return }
            if let matcher, !matcher.matches(record) { return }
            let key: Int64
            switch table.sort {
            case .id: key = Int64(record.pointee.id.rawValue)
            // First characters packed into an integer: enough to order names on screen.
            case .name: key = nameKey(record.pointee.name ?? record.pointee.typeName)
            case .queue: key = Int64(record.pointee.queue?.rawValue ?? -1)
            case .state: key = Int64(stateRank(record.pointee.state))
            case .priority: key = Int64(record.pointee.effectivePriority.rawValue)
            case .qos: key = Int64(record.pointee.qualityOfService.laneIndex)
            case .dependencies: key = Int64(record.pointee.dependencies.count)
            case .wait: key = Int64(truncatingIfNeeded: record.pointee.waitTime(now: now))
            case .run: key = Int64(truncatingIfNeeded: record.pointee.runTime(now: now) ?? 0)
            }
            // Live work first: finished operations sink below, whatever the column (sorting by
            // state orders them itself, and inverted puts them first).
            let group: Int64 = table.liveFirst && table.sort != .state && finished ? 1 : 0
            keyed.append((group, table.descending ? -key : key, record.pointee.id))
        }
        keyed.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2 < b.2
        }
        return keyed.map(\.2)
    }

    /// Which operations the table shows (the filter and `H`), for one operation at a time.
    struct Visibility {
        private let model: DashboardModel
        private let hideFinished: Bool
        private let matcher: FilterQuery.Matcher?
        private let failed: Bool

        init(_ model: DashboardModel, _ table: ViewState.TableState) {
            self.model = model
            hideFinished = table.hideFinished
            switch FilterQuery.parse(table.filter) {
            case .success(let query):
                matcher = query.isEmpty ? nil : FilterQuery.Matcher(query, model: model)
                failed = false
            case .failure:
                matcher = nil
                failed = true
            }
        }

        func includes(_ id: OperationID) -> Bool {
            guard !failed else { return false }
            return model.operations.read(id) { record in
                if hideFinished, record.state == .finished { return false }
                guard let matcher else { return true }
                return withUnsafePointer(to: record) { matcher.matches($0) }
            } ?? false
        }
    }

    static func stateRank(_ state: OperationState) -> Int {
        switch state {
        case .executing: 0
        case .ready: 1
        case .pending: 2
        case .finished: 3
        }
    }

    private static func nameKey(_ name: String) -> Int64 {
        var key: Int64 = 0
        var count = 0
        for byte in name.utf8.prefix(7) {
            key = key << 8 | Int64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            count += 1
        }
        return key << (8 * Int64(7 - count))
    }
}

/// The table's rows as last computed, and what they were computed from.
public struct RowCache: Sendable {
    /// What the rows depend on: the model's versions (and its clock where the order or the
    /// filter depends on time), the sort, the filter.
    struct Key: Equatable, Sendable {
        var stateVersion: Int
        var structureVersion: Int
        var operations: Int
        var time: UInt64
        var sort: ViewState.SortColumn
        var descending: Bool
        var liveFirst: Bool
        var hideFinished: Bool
        var filter: String

        init(_ model: DashboardModel, _ table: ViewState.TableState, query: FilterQuery?) {
            stateVersion = model.stateVersion
            structureVersion = model.structureVersion
            operations = model.operations.count
            let timed = table.sort == .wait || table.sort == .run || (query?.needsDiagnoses ?? false)
            time = timed ? model.now : 0
            sort = table.sort
            descending = table.descending
            liveFirst = table.liveFirst
            hideFinished = table.hideFinished
            filter = table.filter
        }

        func sameExceptFilter(_ other: Key) -> Bool {
            var copy = other
            copy.filter = filter
            return copy == self
        }
    }

    var key: Key?
    var query: FilterQuery?
    /// The rows, in display order.
    public internal(set) var ids: [OperationID] = []
    /// Why the filter was refused, if it was (then there are no rows).
    public internal(set) var error: String?
    /// How many times rows were computed rather than reused (tests check the debounce with it).
    public internal(set) var evaluations = 0
    /// The last computation narrowed the previous rows instead of going over every operation.
    public internal(set) var incremental = false

    /// Nothing computed yet.
    public init() {}
}
