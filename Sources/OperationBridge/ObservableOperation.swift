import Foundation
import OperationEvents
import Synchronization

/// A synchronous `Operation` whose key changes (`isReady`, `isExecuting`, `isFinished`,
/// `isCancelled`, dependencies, priority) an `OperationMonitor` reports exactly and cheaply.
///
/// Subclass it as you would subclass `Operation` for synchronous work: override `main()` and
/// check `isCancelled` between steps. The monitor starts reporting once the operation is added
/// to an `ObservedOperationQueue`; added to any other queue it behaves like a plain `Operation`.
///
/// Why it is exact: on Linux Foundation has no KVO, but it reads `isExecuting`, `isFinished`
/// and `isReady` itself at the moment each changes. This class overrides those getters, so the
/// first read that sees a new value reports it, from the thread making the change.
/// `isReady` cannot be overridden by subclasses: readiness is "all dependencies finished";
/// gate work with dependencies instead.
open class ObservableOperation: Operation, @unchecked Sendable {
    // Safety: `linkCore`, `linkHandle` and `linkID` are written once, before `.registered` is
    // set with a releasing store, and read only after an acquiring load has seen `.registered`.
    /// Starts "ready": Foundation's waiting count starts at 0, and Foundation reads `isReady`
    /// at every change of that count, which keeps the bit current from then on.
    let linkFlags = Atomic<UInt32>(LinkFlags.ready.rawValue)
    /// Keeps the monitor's core alive while this operation may report.
    var linkCore: MonitorCore?
    /// The same core, for reporting without reference counting on every key change.
    var linkHandle: Unmanaged<MonitorCore>?
    var linkID = 0

    /// Creates an operation.
    public override init() {
        super.init()
    }

    /// The id the monitor gave this operation, once it is observed.
    public var monitorID: OperationID? {
        LinkFlags(rawValue: linkFlags.load(ordering: .acquiring)).contains(.registered) ? OperationID(linkID) : nil
    }

    /// Foundation's readiness (all dependencies finished, or cancelled before starting),
    /// reported whenever it changes. Not overridable: gate work with dependencies instead.
    public final override var isReady: Bool {
        let ready = super.isReady
        let flags = LinkFlags(rawValue: linkFlags.load(ordering: .acquiring))
        if flags.contains(.ready) != ready, !flags.contains(.finished) {
            if flags.contains(.cancelling) { noteCancelIfSet() }
            refreshReady()
        }
        return ready
    }

    /// Foundation reads this right after it marks the operation executing; the first `true` is reported.
    public override var isExecuting: Bool {
        let executing = super.isExecuting
        if executing { noteStarted() }
        return executing
    }

    /// Foundation reads this first when it processes the finish; the first `true` is reported.
    public override var isFinished: Bool {
        let finished = super.isFinished
        if finished { noteFinished() }
        return finished
    }

    /// Cancels and reports the cancellation. Overrides must call `super.cancel()`.
    open override func cancel() {
        // Foundation ignores a cancel that finds the operation finished, and a finish on another
        // thread can come between any check made here and Foundation's own: so the cancel is
        // reported only once Foundation's flag is set. Foundation's cancel makes a pending
        // operation ready and reads `isReady` (reporting it) before it returns; `.cancelling`
        // makes that report look at the flag first, so the cancel precedes the readiness it
        // causes (readiness reported alone would look like finished dependencies).
        setFlags(.cancelling)
        super.cancel()
        linkFlags.bitwiseAnd(~LinkFlags.cancelling.rawValue, ordering: .acquiringAndReleasing)
        noteCancelIfSet()
    }

    /// The quality of service; remembered so that the monitor need not read it under Foundation's lock.
    open override var qualityOfService: QualityOfService {
        get { super.qualityOfService }
        set {
            super.qualityOfService = newValue
            replaceFlags(mask: .qosMask, with: .qos(QoSClass(foundation: newValue)))
        }
    }

    /// Adds a dependency and, once observed, reports it.
    open override func addDependency(_ operation: Operation) {
        setFlags(.hasDependencies)
        super.addDependency(operation)
        if let core = registeredCore {
            core.dependencyChanged(of: OperationID(linkID), on: operation, added: true)
        }
    }

    /// Removes a dependency and, once observed, reports it.
    open override func removeDependency(_ operation: Operation) {
        super.removeDependency(operation)
        if let core = registeredCore {
            core.dependencyChanged(of: OperationID(linkID), on: operation, added: false)
        }
    }

    /// The queue priority; setting it is remembered as explicit (Foundation cannot tell) and reported.
    open override var queuePriority: Operation.QueuePriority {
        get { super.queuePriority }
        set {
            super.queuePriority = newValue
            // An explicit priority is also what the queue schedules by from now on.
            let priority = OperationPriority(foundation: super.queuePriority)
            replaceFlags(mask: LinkFlags.priorityMask, with: LinkFlags.effective(priority).union(.priorityExplicit))
            if let core = registeredCore {
                core.emit(.priorityChanged(operation: OperationID(linkID), priority: priority, effective: priority))
            }
        }
    }

    // MARK: Reporting (module-internal; used by the async subclass and the monitor)

    var registeredCore: MonitorCore? {
        LinkFlags(rawValue: linkFlags.load(ordering: .acquiring)).contains(.registered) ? linkCore : nil
    }

    /// Links the operation to a monitor; the caller sets `.registered` afterwards.
    func attach(to core: MonitorCore, id: OperationID) {
        linkCore = core
        linkHandle = Unmanaged.passUnretained(core)
        linkID = id.rawValue
    }

    var currentFlags: LinkFlags { LinkFlags(rawValue: linkFlags.load(ordering: .acquiring)) }

    func setFlags(_ flags: LinkFlags) {
        linkFlags.bitwiseOr(flags.rawValue, ordering: .acquiringAndReleasing)
    }

    /// Clears the bits of `mask`, then sets `flags`, atomically.
    func replaceFlags(mask: LinkFlags, with flags: LinkFlags) {
        var current = linkFlags.load(ordering: .relaxed)
        while true {
            let next = (current & ~mask.rawValue) | flags.rawValue
            let (won, seen) = linkFlags.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
            if won { return }
            current = seen
        }
    }

    /// Sets `flag` if it was clear; true when this call set it (so this caller reports).
    /// Foundation reads the state getters many times per operation: a plain load answers
    /// the repeated reads without a read-modify-write on a shared cache line.
    func claim(_ flag: LinkFlags) -> Bool {
        let seen = LinkFlags(rawValue: linkFlags.load(ordering: .acquiring))
        guard seen.contains(.registered), !seen.contains(flag) else { return false }
        let before = LinkFlags(rawValue: linkFlags.bitwiseOr(flag.rawValue, ordering: .acquiringAndReleasing).oldValue)
        return !before.contains(flag)
    }

    /// Keeps the ready bit current (registered or not) and reports a change once registered.
    ///
    /// Several threads read `isReady` at once (the adding thread, the thread finishing the last
    /// dependency, the queue's scheduler). A reader holding a value read before a change must
    /// not report it after the change: that left a dependent "not ready" in the report after its
    /// dependency finished. So the value is re-read, set and reported under a one-bit lock; the
    /// last holder always reports what Foundation says at that moment.
    func refreshReady() {
        withReadyLock {
            let ready = super.isReady
            var flags = currentFlags
            while flags.contains(.ready) != ready, !flags.contains(.finished) {
                let next = ready ? flags.union(.ready) : flags.subtracting(.ready)
                let (won, current) = linkFlags.compareExchange(
                    expected: flags.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
                if won {
                    if flags.contains(.registered) {
                        linkHandle?._withUnsafeGuaranteedRef { $0.emit(.ready(operation: OperationID(linkID), isReady: ready)) }
                    }
                    return
                }
                flags = LinkFlags(rawValue: current)
            }
        }
    }

    /// Runs `body` holding the `readyChanging` bit. Held for a few instructions and one
    /// Foundation getter (which never calls back into this operation), so a spin suffices.
    private func withReadyLock(_ body: () -> Void) {
        var flags = LinkFlags(rawValue: linkFlags.load(ordering: .relaxed))
        while true {
            if flags.contains(.readyChanging) {
                sched_yield()
                flags = LinkFlags(rawValue: linkFlags.load(ordering: .relaxed))
                continue
            }
            let (won, current) = linkFlags.compareExchange(
                expected: flags.rawValue, desired: flags.union(.readyChanging).rawValue, ordering: .acquiringAndReleasing)
            if won { break }
            flags = LinkFlags(rawValue: current)
        }
        body()
        linkFlags.bitwiseAnd(~LinkFlags.readyChanging.rawValue, ordering: .acquiringAndReleasing)
    }

    /// Publishes the link: sets `.registered` (with `extra`) over `announced`, the flags the
    /// announcement was made from. If readiness changed meanwhile, the change is reported now
    /// (under the ready lock, so that it cannot land after a newer one).
    func register(announced: LinkFlags, adding extra: LinkFlags) {
        withReadyLock {
            var expected = LinkFlags(rawValue: linkFlags.load(ordering: .acquiring))
            while true {
                let next = expected.subtracting(.priorityMask).union(extra).union(.registered)
                let (won, current) = linkFlags.compareExchange(
                    expected: expected.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
                if won { break }
                expected = LinkFlags(rawValue: current)
            }
            // A cancel that took effect after the announcement was read (and before the link
            // could report it) is reported now, before the readiness it caused.
            if expected.contains(.cancelSet), !announced.contains(.cancelSet), claim(.cancelled) {
                linkHandle?._withUnsafeGuaranteedRef { $0.emit(.cancelled(operation: OperationID(linkID))) }
            }
            if expected.contains(.ready) != announced.contains(.ready) {
                let ready = expected.contains(.ready)
                linkHandle?._withUnsafeGuaranteedRef { $0.emit(.ready(operation: OperationID(linkID), isReady: ready)) }
            }
        }
    }

    func noteStarted() {
        guard claim(.started), let handle = linkHandle else { return }
        handle._withUnsafeGuaranteedRef { $0.emit(.started(operation: OperationID(linkID))) }
    }

    /// Reports the cancel if Foundation's flag is set and the finish was not reported yet: a
    /// cancel that takes effect after the finish was reported is one the finish did not see
    /// (Foundation checks `isFinished` a moment before it sets the flag), and the stream keeps
    /// what held at the finish.
    func noteCancelIfSet() {
        guard super.isCancelled else { return }
        setFlags(.cancelSet)
        var flags = currentFlags
        while true {
            guard flags.contains(.registered), flags.isDisjoint(with: [.cancelled, .finished]) else { return }
            let (won, current) = linkFlags.compareExchange(
                expected: flags.rawValue, desired: flags.union(.cancelled).rawValue, ordering: .acquiringAndReleasing)
            if won { break }
            flags = LinkFlags(rawValue: current)
        }
        linkHandle?._withUnsafeGuaranteedRef { $0.emit(.cancelled(operation: OperationID(linkID))) }
    }

    func noteFinished() {
        guard claim(.finished), let handle = linkHandle else { return }
        // Foundation's flag at the finish: a cancel still under way either sets it before the
        // finish (reported here) or finds the operation finished and does nothing.
        let cancelled = super.isCancelled
        if cancelled { setFlags(.cancelSet) }
        let id = OperationID(linkID)
        let reportCancel = cancelled && claim(.cancelled)
        handle._withUnsafeGuaranteedRef { core in
            if reportCancel { core.emit(.cancelled(operation: id)) }
            core.operationFinished(id, cancelled: cancelled, source: .exact)
        }
        // Held until its unfinished dependencies are done with it (see `CancelledShield`).
        // Foundation's own list (`super`): a subclass that hides dependencies from its
        // `dependencies` override still has them in Foundation's.
        if cancelled, currentFlags.contains(.hasDependencies) {
            CancelledShield.protect(self, dependencies: super.dependencies)
        }
    }
}
