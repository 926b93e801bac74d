import DashboardModel
import OperationEvents

/// The table's rows: the model's operations, filtered and sorted as the view state says. Sorting
/// works on small keys, not on records, so that 10,000 rows sort in well under a millisecond.
public enum OperationRows {
    /// Ids in display order.
    public static func ids(_ model: DashboardModel, _ state: ViewState) -> [OperationID] {
        let filter = state.table.filter.lowercased()
        let now = model.now
        var keyed: [(Int64, Int, OperationID)] = []
        keyed.reserveCapacity(model.operations.count)
        // Borrowed, not copied: this runs over every operation on every frame.
        model.operations.forEach { record in
            if !filter.isEmpty, !matches(record, filter, model) { return }
            let key: Int64
            var text = 0
            switch state.table.sort {
            case .id: key = Int64(record.pointee.id.rawValue)
            case .name:
                // First characters packed into an integer: enough to order names on screen.
                key = nameKey(record.pointee.displayName)
                text = 1
            case .queue: key = Int64(record.pointee.queue?.rawValue ?? -1)
            case .state: key = Int64(stateRank(record.pointee.state))
            case .priority: key = Int64(record.pointee.effectivePriority.rawValue)
            case .qos: key = Int64(qosRank(record.pointee.qualityOfService))
            case .dependencies: key = Int64(record.pointee.dependencies.count)
            case .wait: key = Int64(truncatingIfNeeded: record.pointee.waitTime(now: now))
            case .run: key = Int64(truncatingIfNeeded: record.pointee.runTime(now: now) ?? 0)
            }
            keyed.append((key, text, record.pointee.id))
        }
        keyed.sort { state.table.descending ? ($0.0, $1.2) > ($1.0, $0.2) : ($0.0, $0.2) < ($1.0, $1.2) }
        return keyed.map(\.2)
    }

    /// `/` filter: a word matches the name, the type, the queue's name, `#id`, or the state;
    /// `state:executing` style terms match that field only.
    static func matches(_ pointer: UnsafePointer<OperationRecord>, _ filter: String, _ model: DashboardModel) -> Bool {
        // Only a filtered table gets here: copying the record for the string work is fine.
        let record = pointer.pointee
        for term in filter.split(separator: " ") {
            let term = String(term)
            if let colon = term.firstIndex(of: ":") {
                let field = term[..<colon]
                let value = String(term[term.index(after: colon)...])
                let matched: Bool
                switch field {
                case "state": matched = stateName(record).hasPrefix(value)
                case "queue": matched = (record.queue.flatMap { model.queues[$0]?.name.lowercased() } ?? "").contains(value)
                case "qos": matched = record.qualityOfService.rawValue.lowercased().hasPrefix(value)
                case "name": matched = record.displayName.lowercased().contains(value)
                default: matched = false
                }
                if !matched { return false }
            } else if !(record.displayName.lowercased().contains(term) || record.typeName.lowercased().contains(term)
                        || record.id.description == term || stateName(record).hasPrefix(term)
                        || (record.queue.flatMap { model.queues[$0]?.name.lowercased() } ?? "").contains(term)) {
                return false
            }
        }
        return true
    }

    static func stateName(_ record: borrowing OperationRecord) -> String {
        record.isCancelled && record.state != .finished ? "cancelled" : record.state.rawValue
    }

    private static func stateRank(_ state: OperationState) -> Int {
        switch state {
        case .executing: 0
        case .ready: 1
        case .pending: 2
        case .finished: 3
        }
    }

    private static func qosRank(_ qos: QoSClass) -> Int {
        switch qos {
        case .userInteractive: 0
        case .userInitiated: 1
        case .default: 2
        case .utility: 3
        case .background: 4
        }
    }

    private static func nameKey(_ name: String) -> Int64 {
        var key: Int64 = 0
        var count = 0
        for byte in name.lowercased().utf8.prefix(7) {
            key = key << 8 | Int64(byte)
            count += 1
        }
        return key << (8 * Int64(7 - count))
    }
}
