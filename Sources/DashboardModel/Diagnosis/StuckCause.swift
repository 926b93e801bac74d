import OperationEvents

/// Why work cannot go on without someone's help: the one classification the warnings, the
/// diagnoses, the graph's root marks, the report's exit status, view 2's groups and the
/// filter's `why:` words read. Each warning and diagnosis kind says which cause it shows
/// (`Warning.Kind.stuckCause`, `Diagnosis.Kind.stuckCause`); everything else about a cause is
/// in the tables below, one switch per question, so that a new cause is decided everywhere at
/// once (the compiler asks for every column).
///
/// Worst first: the declaration order is the order the graph and view 2 rank causes in.
public enum StuckCause: String, Codable, Sendable, CaseIterable {
    /// In a dependency cycle: it can never become ready.
    case cycle
    /// Never added to an observed queue (known only as a dependency, or its queue released):
    /// nothing starts it unless the app does.
    case notInAnyQueue
    /// Asynchronous and executing past the long-running threshold: does its work call `finish()`?
    case neverFinishes
    /// Synchronous and executing past the long-running threshold: `main()` has not returned.
    case neverReturns
    /// `isFinished` reads true but the queue was never told: it holds the operation forever.
    case unsignalledFinish
    /// Cancelled, and still executing past the cancellation threshold: it ignores `isCancelled`.
    case ignoresCancellation
    /// Not ready after a dependency was removed before it finished (Foundation on Linux never
    /// takes it off its count; only `cancel()` releases it).
    case notReadyWithoutDependencies
    /// Not ready with no unfinished dependency it lists and no removal that explains it: a
    /// condition of its own or of its framework holds it.
    case heldByCondition
    /// Ready with a free slot in a running queue, and not started past the grace period: the
    /// queue does not see it ready.
    case readyNotStarted
    /// Ready (or cancelled) in a suspended queue: it starts once the queue is resumed.
    case queueSuspended

    /// When a cause makes `opscope report` fail (`OpScopeReport.hasProblem`).
    public enum ReportVerdict: Sendable {
        /// Never: the program may mean it (programs suspend queues on purpose; resumed, the
        /// work runs). The dashboard still counts it as stuck.
        case never
        /// Once its warning is raised: the warning waits out a grace period (a gate of its own
        /// often holds an operation a moment), its diagnosis does not, and a report taken in
        /// that moment would fail a run that is fine.
        case whenWarned
        /// As soon as it is diagnosed or warned about.
        case whenDiagnosed
    }

    /// Whether, and from when, the cause is a problem of the program (the report's exit status).
    ///
    /// An operation cancelled but still executing is a problem like one that runs too long: the
    /// program asked it to stop and it did not look (`isCancelled` unchecked), it keeps its
    /// queue's slot, and its dependents wait for its finish, cancelled or not. The dashboard's
    /// `n` visits it; the exit status says the same.
    public var reportVerdict: ReportVerdict {
        switch self {
        case .queueSuspended: .never
        case .notReadyWithoutDependencies, .heldByCondition: .whenWarned
        case .neverFinishes, .neverReturns, .unsignalledFinish, .ignoresCancellation: .whenWarned
        case .cycle, .notInAnyQueue, .readyNotStarted: .whenDiagnosed
        }
    }

    /// The rank of a group with this root cause in view 2 (lower is worse; the groups that are
    /// not stuck, a queue at its limit or a turn, rank after every cause: 5 and above).
    public var groupRank: Int {
        switch self {
        case .cycle: 0
        case .notInAnyQueue: 1
        case .neverFinishes, .neverReturns, .unsignalledFinish, .ignoresCancellation: 2
        case .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted, .queueSuspended: 3
        }
    }

    /// What to check about an executing root cause, after its state in view 2's group title;
    /// nil for a cause of an operation that has not started (its diagnosis says it).
    public var executingAdvice: String? {
        switch self {
        case .neverFinishes: Diagnosis.unfinishedAsynchronousAdvice
        case .neverReturns: Diagnosis.unreturnedSynchronousAdvice
        case .unsignalledFinish: "finish not signalled (no didChangeValue(forKey: \"isFinished\"))"
        case .ignoresCancellation: "does it check isCancelled? Its dependents wait until it finishes"
        case .cycle, .notInAnyQueue, .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted, .queueSuspended: nil
        }
    }

    /// The cause of an executing operation that was warned about, by the fact that explains it
    /// best: a lost finish, else (not cancelled) its long run, else the cancellation it ignores.
    public static func ofExecuting(unsignalledFinish: Bool, cancelled: Bool, asynchronous: Bool) -> StuckCause {
        if unsignalledFinish { return .unsignalledFinish }
        if cancelled { return .ignoresCancellation }
        return asynchronous ? .neverFinishes : .neverReturns
    }

    /// The words of the filter's `why:` that find operations diagnosed with this cause (`why:`
    /// matches diagnoses, so a cause only warned about, an executing one, has none). `notready`
    /// finds both kinds of not ready.
    public var filterWords: [String] {
        switch self {
        case .cycle: ["cycle"]
        case .notInAnyQueue: ["noqueue"]
        case .queueSuspended: ["suspended"]
        case .notReadyWithoutDependencies: ["notready"]
        case .heldByCondition: ["notready", "condition"]
        case .readyNotStarted: ["notstarted"]
        case .neverFinishes, .neverReturns, .unsignalledFinish, .ignoresCancellation: []
        }
    }
}

extension Warning.Kind {
    /// The cause of stuck work the warning shows; nil for one about the stream (dropped events).
    public var stuckCause: StuckCause? {
        switch self {
        case .longRunningAsynchronous: .neverFinishes
        case .longRunningSynchronous: .neverReturns
        case .unsignalledFinish: .unsignalledFinish
        case .cancelledStillExecuting: .ignoresCancellation
        case .cycle: .cycle
        case .notReadyWithoutDependencies: .notReadyWithoutDependencies
        case .heldByCondition: .heldByCondition
        case .readyNotStarted: .readyNotStarted
        case .dependencyNeverEnqueued: .notInAnyQueue
        case .suspendedQueueWithWork: .queueSuspended
        case .droppedEvents: nil
        }
    }
}

extension Diagnosis.Kind {
    /// The cause of stuck work the diagnosis names; nil when the operation waits for something
    /// that goes on by itself (dependencies, a slot, its turn). A cancelled operation waiting for
    /// a slot is stuck only when its queue is suspended (`DashboardModel.stuckOperations`).
    public var stuckCause: StuckCause? {
        switch self {
        case .queueSuspended: .queueSuspended
        case .notInAnyQueue: .notInAnyQueue
        case .cycle: .cycle
        case .notReadyWithoutDependencies: .notReadyWithoutDependencies
        case .heldByCondition: .heldByCondition
        case .readyNotStarted: .readyNotStarted
        case .waitingOnDependencies, .concurrencyLimit, .waitingForTurn, .cancelledWaitingForSlot: nil
        }
    }
}

extension StuckCause {
    /// The operations that cannot go on without someone's help (those `n` and `N` visit and
    /// `why:stuck` finds), each with the cause that holds it: every operation a warning names
    /// for a stuck cause, every operation diagnosed with one (a cancelled one waiting in a
    /// suspended queue too), one waiting for a slot a stuck operation holds (that one's cause),
    /// and one whose dependency chain ends at any of them (its root's cause).
    static func stuckOperations(in model: DashboardModel, now: UInt64) -> [OperationID: StuckCause] {
        var troubled: [OperationID: StuckCause] = [:]
        for warning in model.warnings(now: now) {
            guard let cause = warning.kind.stuckCause, let operation = warning.operation else { continue }
            switch cause {
            case .cycle, .queueSuspended:
                // The warning names one operation for a whole cycle or queue: their members are
                // found by their diagnoses, and none of them holds a slot.
                continue
            case .notInAnyQueue, .neverFinishes, .neverReturns, .unsignalledFinish, .ignoresCancellation,
                 .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted:
                if troubled[operation] == nil { troubled[operation] = cause }
            }
        }
        let diagnoses = model.diagnoses(now: now)
        var hopeless: [OperationID: StuckCause] = [:]
        for diagnosis in diagnoses {
            if let cause = diagnosis.kind.stuckCause { hopeless[diagnosis.operation] = cause }
        }
        var result = hopeless.merging(troubled) { _, warned in warned }
        for diagnosis in diagnoses {
            let suspendedQueue = diagnosis.queue.flatMap { model.queues[$0]?.isSuspended } ?? false
            switch diagnosis.kind {
            case .cancelledWaitingForSlot:
                if suspendedQueue { result[diagnosis.operation] = .queueSuspended }
            case .concurrencyLimit:
                if let cause = diagnosis.blockers.lazy.compactMap({ troubled[$0] }).first { result[diagnosis.operation] = cause }
            case .waitingOnDependencies:
                guard let root = diagnosis.rootCause, root != diagnosis.operation else { continue }
                if let cause = troubled[root] ?? hopeless[root] ?? (suspendedQueue ? .queueSuspended : nil) {
                    result[diagnosis.operation] = cause
                }
            case .queueSuspended, .notInAnyQueue, .cycle, .notReadyWithoutDependencies, .heldByCondition, .readyNotStarted,
                 .waitingForTurn:
                break
            }
        }
        return result
    }
}
