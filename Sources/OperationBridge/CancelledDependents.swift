import Foundation

/// Takes a cancelled operation that finished out of the lists its unfinished dependencies keep
/// of their dependents, so that releasing it cannot crash the program later.
///
/// swift-corelibs-foundation (up to 6.3 at least) keeps an operation's dependents *unretained*
/// and drops them only when it finishes or on `removeDependency`. A cancelled operation does not
/// wait for its dependencies: it finishes at once and the program may release it; when one of
/// its dependencies finishes later, Foundation walks the list, locks and reads the freed
/// operation and retains it, which crashes (in `Operation.observeValue`) or corrupts the heap
/// (then a later read of some `dependencies` array crashes anywhere, the monitor included). The
/// same program crashes with plain `OperationQueue`s; observed queues remove the dangling entry
/// while the operation is still alive, at its finish, so no lifetime changes.
///
/// Removing a dependency and adding it again does it with public API only: removing takes the
/// dependent out of the dependency's list, and adding it back to a *cancelled* operation does not
/// put it back in (Foundation links only dependents that are not cancelled, and leaves their
/// readiness alone). `dependencies` then names the same operations, the unfinished ones last.
/// This trusts `isCancelled` to be Foundation's flag. A dependency that completes its finish
/// between the check and the removal leaves the finished operation's `isReady` false (Foundation
/// counts that removal); nothing schedules by it any more.
///
/// Not covered: operations of tracked queues and dependencies in no queue (their finish is only
/// sampled, too late), and pending barrier blocks (Foundation hides them from `dependencies`).
enum CancelledDependents {
    /// The most unfinished dependencies handled for one operation: each removal and addition is
    /// a linear search in Foundation, so beyond this the cost (quadratic) would fall on the
    /// finishing thread; such operations keep Foundation's own behaviour.
    static let limit = 1_024

    /// Unlinks `operation`, which has just finished cancelled, from its unfinished dependencies,
    /// through `relink` (remove, then add again). Calls the operation's getters: never under a lock.
    static func unlink(_ operation: Operation, relink: (Operation) -> Void) {
        let unfinished = operation.dependencies.filter { !$0.isFinished }
        guard !unfinished.isEmpty, unfinished.count <= limit else { return }
        for dependency in unfinished { relink(dependency) }
    }
}
