import OperationEvents

extension OperationRecord {
    /// When it started, if that was seen: an operation first seen already executing started at
    /// an unknown earlier time, and its run time is not known.
    var knownStart: UInt64? {
        Self.knownStart(startedAt: startedAt, addedAt: addedAt, firstSeenLate: firstSeenLate)
    }

    /// `knownStart` from the fields, for a reader that loads just those in place (a call on the
    /// borrowed record inside `read` may copy it).
    @inline(__always)
    package static func knownStart(startedAt: UInt64?, addedAt: UInt64, firstSeenLate: Bool) -> UInt64? {
        guard let startedAt else { return nil }
        return firstSeenLate && startedAt == addedAt ? nil : startedAt
    }
}
