import OperationEvents

extension OperationRecord {
    /// When it started, if that was seen: an operation first seen already executing started at
    /// an unknown earlier time, and its run time is not known.
    var knownStart: UInt64? {
        guard let startedAt else { return nil }
        return firstSeenLate && startedAt == addedAt ? nil : startedAt
    }
}
