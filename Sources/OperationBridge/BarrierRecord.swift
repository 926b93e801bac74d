import OperationEvents
import Synchronization

/// A barrier block the monitor announced and has not yet seen finish.
///
/// `cancelAllOperations()` also cancels pending barriers, whose blocks then never run; the
/// record lets exactly one side report the barrier's end: the block if it runs, or the
/// cancel-all if it got there first.
final class BarrierRecord: Sendable {
    let id: OperationID
    private let state = Atomic<UInt8>(0)

    init(id: OperationID) {
        self.id = id
    }

    /// The block is about to run; false if a cancel-all already reported the barrier.
    func claimRun() -> Bool {
        state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// A cancel-all reached the barrier before its block ran.
    func claimCancel() -> Bool {
        state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }
}
