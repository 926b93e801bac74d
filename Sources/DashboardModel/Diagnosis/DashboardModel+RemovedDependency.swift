import OperationEvents

extension DashboardModel {
    /// The latest dependency removed from an operation before that dependency finished (its
    /// label), with the removal's time. Foundation on Linux counts an operation's unfinished dependencies and
    /// `removeDependency` does not take one off that count, so the operation is never made ready
    /// (only `cancel()` releases it). Nil when no such removal is in the operation's kept history,
    /// or the removed dependency is no longer retained (its finish is then unknown).
    package func unfinishedDependencyRemoval(of record: borrowing OperationRecord) -> (label: String, time: UInt64)? {
        for change in record.history.reversed() where change.key == .dependencies && !change.value {
            guard let (finished, label) = operations.read(OperationID(Int(change.detail)), { ($0.finishedAt, $0.label) }) else { continue }
            if finished.map({ $0 > change.time }) ?? true { return (label, change.time) }
        }
        return nil
    }

    /// What holds an operation that is not ready with no unfinished dependency and no removal in
    /// its history: only what is known, as the stream cannot see the condition itself.
    package static let conditionText = "isReady says false, so a condition of its own (an isReady override) or of "
        + "its framework (a dependency its dependencies override hides) holds it"

    /// Why an operation with no unfinished dependency is not ready, in words, when the stream
    /// shows the cause: the removed dependency `unfinishedDependencyRemoval(of:)` finds. Nil
    /// otherwise (see `conditionText`).
    package func notReadyExplanation(of record: borrowing OperationRecord) -> String? {
        guard let removal = unfinishedDependencyRemoval(of: record) else { return nil }
        let after = removal.time >= record.addedAt ? " \(DurationText.format(removal.time - record.addedAt)) after the add" : ""
        return "\(removal.label) was removed from its dependencies\(after), before it finished: on Linux Foundation "
            + "never takes a removed unfinished dependency off its count, so it stays not ready; only cancel() releases it"
    }
}
