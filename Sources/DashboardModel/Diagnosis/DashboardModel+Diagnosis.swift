import OperationEvents

extension DashboardModel {
    /// Why `id` is not running: the root cause, the length of the chain to it and the next link;
    /// nil when it is executing or finished (or not retained). Linear in the part of the graph
    /// below `id`, without recursion: a chain 100,000 deep is diagnosed like a short one.
    public func diagnosis(of id: OperationID, now: UInt64? = nil) -> Diagnosis? {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return context.diagnosis(of: id)
    }

    /// The diagnosis of every operation that is neither executing nor finished, in id order.
    /// Each operation's cause is computed once and shared by everything that waits on it, so the
    /// pass is O(operations + edges), and each diagnosis has a bounded size.
    public func diagnoses(now: UInt64? = nil) -> [Diagnosis] {
        var context = DiagnosisContext(model: self, now: now ?? self.now, expected: operations.count)
        var waiting: [OperationID] = []
        operations.forEach { record in
            if record.pointee.state < .executing { waiting.append(record.pointee.id) }
        }
        return waiting.sorted().compactMap { context.diagnosis(of: $0) }
    }

    /// The whole path from `id` to its root cause (`[C, B, A]` for "C waits on B waits on A"),
    /// the one a diagnosis names by its next link and length; `[id]` when its cause is its own
    /// situation, empty when it has no diagnosis.
    public func dependencyChain(of id: OperationID, now: UInt64? = nil) -> [OperationID] {
        var context = DiagnosisContext(model: self, now: now ?? self.now)
        return context.chain(from: id)
    }
}
