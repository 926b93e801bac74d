import Foundation
import Synchronization

/// Keeps a cancelled operation alive until Foundation is done with it, without touching it.
///
/// swift-corelibs-foundation (up to 6.3 at least) keeps an operation's dependents *unretained*
/// and drops them only when it finishes (or on `removeDependency`). A cancelled operation does not
/// wait for its dependencies: it finishes at once and the program may release it; when one of its
/// dependencies finishes later, Foundation walks its list of dependents, locks the freed operation
/// and retains it, which crashes (in `Operation.observeValue`) or corrupts the heap. The same
/// program crashes with plain `OperationQueue`s.
///
/// The shield changes nothing of the program's objects (no `removeDependency`, no
/// `addDependency` on them: a framework may refuse either once an operation started). It holds
/// the cancelled operation a little longer instead: one `DependencyKeeper` per dependency that
/// had not finished, each holding the operation until that dependency's finish walk is over.
/// Foundation's finish goes through every dependent under the finishing operation's lock first
/// and calls the `isReady` of those it made ready (the keeper among them) only after that walk,
/// so when the last keeper lets go, nothing refers to the operation unretained any more.
///
/// Not covered: dependencies hidden from `dependencies` (a framework's conditions, which its own
/// override filters out; pending barrier blocks, which Foundation filters out): they cannot be
/// read. A dependency that never finishes keeps the cancelled operation (and itself, through the
/// operation's own list) alive as long as the dependency lives in Foundation's eyes, which is what
/// Foundation's own list requires.
enum CancelledShield {
    /// Holds `operation`, which is cancelled (or about to be, for a command), until each of
    /// `dependencies` that has not finished has. Calls Foundation's dependency methods on keepers
    /// only, never on `operation` or its dependencies. Returns how many keepers hold it now.
    @discardableResult
    static func protect(_ operation: Operation, dependencies: [Operation]) -> Int {
        guard !dependencies.isEmpty else { return 0 }
        var armed = 0
        var spare: DependencyKeeper?
        for dependency in dependencies {
            let keeper = spare ?? DependencyKeeper()
            spare = nil
            if keeper.arm(holding: operation, until: dependency) {
                armed += 1
            } else {
                // Finished already: the same keeper serves the next dependency (allocating an
                // Operation costs more than the two lock round trips of a failed arming).
                spare = keeper
            }
        }
        return armed
    }

    /// Keepers armed now, for tests and statistics.
    static var armedKeepers: Int { DependencyKeeper.armedCount.load(ordering: .relaxed) }
}

/// A private operation that depends on one operation and holds another until the first one's
/// finish walk is over. Never enqueued: Foundation only calls its `isReady`, from the walk.
final class DependencyKeeper: Operation, @unchecked Sendable {
    // Safety: `held` and `keepAlive` are written by the arming thread before `armed` is set
    // (releasing) and taken by the one thread that wins the exchange of `armed` (acquiring).
    static let armedCount = Atomic<Int>(0)
    private let armed = Atomic<Bool>(false)
    private var held: Operation?
    private var keepAlive: DependencyKeeper?

    override init() {
        super.init()
    }

    /// Starts holding `operation` until `dependency` has finished. False, holding nothing, when
    /// it finished already (its walk is then over: Foundation marks an operation finished, under
    /// its lock, only after the walk).
    func arm(holding operation: Operation, until dependency: Operation) -> Bool {
        held = operation
        keepAlive = self
        // Linked only if `dependency` is not finished; then its finish walk meets this keeper
        // and calls `isReady` after it went through every dependent. `addDependency` itself
        // asks `isReady` once: the keeper is not armed yet and says nothing.
        addDependency(dependency)
        DependencyKeeper.armedCount.add(1, ordering: .relaxed)
        armed.store(true, ordering: .releasing)
        // Not linked (finished before), or finished between the link and the arming: the
        // count is 0 once the walk has made the keeper ready. Whoever takes `armed` first lets go.
        if super.isReady {
            guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return true }
            release(answerLater: false)
            // Its own list holds the dependency: emptied, so that a reused keeper holds nothing.
            removeDependency(dependency)
            return false
        }
        return true
    }

    /// While armed, the only caller is the dependency's finish walk, once it is over.
    override var isReady: Bool {
        if armed.load(ordering: .relaxed), armed.exchange(false, ordering: .acquiringAndReleasing) {
            release(answerLater: true)
        }
        return true
    }

    /// Lets go of the held operation. From the walk, the release (which may run the program's
    /// deinit) is sent to another thread: the finishing thread is inside Foundation's finish, and
    /// may hold locks of the program's own (a framework that finishes under its state lock).
    private func release(answerLater: Bool) {
        DependencyKeeper.armedCount.subtract(1, ordering: .relaxed)
        let operation = held
        held = nil
        let survivor = keepAlive
        keepAlive = nil
        if answerLater {
            DispatchQueue.global().async { withExtendedLifetime((operation, survivor)) {} }
        } else {
            withExtendedLifetime((operation, survivor)) {}
        }
    }
}
