/// Dependencies named before they were announced: for each such id, the operations that named
/// it, linked to it as its dependents once it is announced.
///
/// Entries of operations trimmed meanwhile are dropped by `rebuild(from:)`, which the stream
/// state runs when the entries grow well past its table (amortised O(1) per link).
struct AwaitedDependencies: Sendable {
    private var dependents: [OperationID: [OperationID]] = [:]
    /// Entries in all, to know when rebuilding pays.
    private(set) var entries = 0

    var isEmpty: Bool { dependents.isEmpty }

    /// Notes that `dependent` named `dependency`, which is not announced yet.
    mutating func add(_ dependent: OperationID, awaiting dependency: OperationID) {
        dependents[dependency, default: []].append(dependent)
        entries += 1
    }

    /// Removes and returns the operations that named `id`, now announced.
    mutating func take(_ id: OperationID) -> [OperationID]? {
        guard let named = dependents.removeValue(forKey: id) else { return nil }
        entries -= named.count
        return named
    }

    /// Forgets that `dependent` named `dependency` (the dependency was removed before it was
    /// announced).
    mutating func remove(_ dependent: OperationID, awaiting dependency: OperationID) {
        guard dependents[dependency] != nil, let at = dependents[dependency]!.firstIndex(of: dependent) else { return }
        dependents[dependency]!.remove(at: at)
        entries -= 1
        if dependents[dependency]!.isEmpty { dependents[dependency] = nil }
    }

    /// Rebuilds the entries from the retained operations: what each names that `operations`
    /// does not hold.
    mutating func rebuild(from operations: OperationRecords) {
        var rebuilt: [OperationID: [OperationID]] = [:]
        var entries = 0
        operations.forEach { record in
            for dependency in record.pointee.dependencies where !operations.contains(dependency) {
                rebuilt[dependency, default: []].append(record.pointee.id)
                entries += 1
            }
        }
        dependents = rebuilt
        self.entries = entries
    }
}
