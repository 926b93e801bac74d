import DequeModule
import Foundation
import OperationEvents

/// The monitor's bookkeeping, guarded by `MonitorCore.registryLock`.
///
/// Instrumented operations carry their own id and flags and are not listed here at all, which
/// keeps their cost near zero; commands find them by walking the queues, which is rare.
struct Registry {
    /// Every queue the monitor knows, observed, reported or tracked. Changed only through
    /// `file(_:)` and `forget(_:)`, which keep `queueIDs` in step.
    private(set) var queues: [QueueID: QueueEntry] = [:]
    /// The queues by identity: a program that reports its adds (`willAdd`) finds its queue's
    /// entry with one lookup per add, not a walk of every queue.
    private var queueIDs: [ObjectIdentifier: QueueID] = [:]
    /// Foreign operations by identity: armed sentinels of those in observed queues (by target),
    /// and those seen by sampling (of tracked queues, dependencies in no observed queue).
    /// Finished ones stay (weakly) until released, so that they keep their id if seen again.
    var objects = ObjectTable()
    /// Per observed queue: its foreign operations in the order the queue will start them, for the sampler.
    var windows: [QueueID: SamplingWindow] = [:]
    /// Sampled operations in no queue, read every tick.
    var unqueued: [ObjectIdentifier] = []
    /// Instrumented operations first seen as a dependency in no queue (held weakly), so that a
    /// snapshot still lists them: a dependency never added to a queue is what a person looks for.
    var detachedInstrumented: [WeakOperation] = []
    /// Sampled entries in `objects` of finished operations, until they are released.
    var retired = RetiredEntries()
    /// Foreign operations waiting for dependencies: dependency -> dependents.
    var waiters: [OperationID: [OperationID]] = [:]
    /// Foreign operations waiting for dependencies: how many unfinished dependencies remain.
    var remaining: [OperationID: Int] = [:]
    /// Whether the sampler thread runs.
    var samplerStarted = false
}

/// One queue the monitor knows.
final class QueueEntry {
    let id: QueueID
    weak var queue: OperationQueue?
    /// The queue's identifier, so that a lookup by queue under the registry lock compares
    /// identifiers and loads the weak reference of the one entry that matches. Loading every
    /// entry's would retain each queue for a moment, and when the app let go of one meanwhile,
    /// the release under the lock would run its deinit there (an observed queue's deinit takes
    /// the lock: a deadlock).
    let object: ObjectIdentifier
    /// A tracked queue becomes reported when the program starts reporting its adds.
    var observation: QueueObservation
    let isMainQueue: Bool
    /// Last values reported, so that sampling reports only changes.
    var info: QueueInfo
    /// Barrier blocks added and not yet finished, oldest first (observed queues).
    var pendingBarriers: [OperationID] = []
    /// Tracked queues: when the next `operations` walk may run (monitor clock), and ops seen.
    var nextWalk: UInt64 = 0
    var members: Set<ObjectIdentifier> = []
    /// The depth last reported.
    var depth = 0

    init(id: QueueID, queue: OperationQueue, observation: QueueObservation, info: QueueInfo) {
        self.id = id
        self.queue = queue
        object = ObjectIdentifier(queue)
        self.observation = observation
        self.isMainQueue = queue === OperationQueue.main
        self.info = info
    }
}

/// An operation known only by sampling.
final class SampledEntry {
    let id: OperationID
    weak var operation: Operation?
    var queue: QueueID?
    /// The keys as last reported.
    var keys: SampledKeys
    var startedReported = false
    var finishedReported = false
    /// Its dependencies as last read (ids, and the objects' identities to tell a change
    /// without resolving them again); `dependenciesRead` false until they were read once.
    var dependencies: [OperationID] = []
    var dependencyObjects: [ObjectIdentifier] = []
    var dependenciesRead = false
    /// Consecutive walks that found the operation still in its queue with `isFinished` true.
    var unsignalledWalks = 0
    var reportedUnsignalled = false

    init(id: OperationID, operation: Operation, queue: QueueID?, keys: SampledKeys) {
        self.id = id
        self.operation = operation
        self.queue = queue
        self.keys = keys
    }
}

/// The four state keys and the queue priority, as read at one moment.
struct SampledKeys: Equatable {
    var isReady: Bool
    var isExecuting: Bool
    var isFinished: Bool
    var isCancelled: Bool
    /// `queuePriority`: an app may set it after the add, and Foundation then schedules by it.
    var priority: OperationPriority

    /// Reads the keys. Calls the operation's getters, which may be app code: never under a lock.
    init(reading operation: Operation) {
        isCancelled = operation.isCancelled
        isFinished = operation.isFinished
        isExecuting = operation.isExecuting
        isReady = operation.isReady
        priority = OperationPriority(foundation: operation.queuePriority)
    }

    init(isReady: Bool, isExecuting: Bool, isFinished: Bool, isCancelled: Bool, priority: OperationPriority = .normal) {
        self.isReady = isReady
        self.isExecuting = isExecuting
        self.isFinished = isFinished
        self.isCancelled = isCancelled
        self.priority = priority
    }
}

/// Foreign operations of one observed queue in the queue's own scheduling order (one FIFO per
/// priority, scanned barrier first), so that a sampling tick reads the operations most likely to
/// start next and never walks a deep queue. Entries are removed lazily.
struct SamplingWindow {
    /// A reference to one armed sentinel, valid while `Registry.isCurrent` says so.
    struct Entry {
        let sentinel: FinishSentinel
        let generation: Int
        let object: ObjectIdentifier
        let target: Unmanaged<Operation>
        let id: OperationID
    }

    var lists: [Deque<Entry>] = Array(repeating: Deque(), count: OperationPriority.schedulingOrder.count)
    /// Operations seen executing, watched for a cancel or a finish the queue was never told of.
    var executing: [Entry] = []

    mutating func append(_ entry: Entry, priority: OperationPriority) {
        lists[priority.schedulingIndex].append(entry)
    }

    var isEmpty: Bool { executing.isEmpty && lists.allSatisfy(\.isEmpty) }
}

extension Registry {
    /// The entry of a live queue the caller holds. Only the entry filed under its identifier has
    /// its weak reference loaded, and that load yields the caller's own queue or nil (an entry
    /// of a released queue that had the same address), so no release under the lock is the last.
    func entry(of queue: OperationQueue) -> QueueEntry? {
        guard let id = queueIDs[ObjectIdentifier(queue)], let entry = queues[id], entry.queue === queue else { return nil }
        return entry
    }

    /// Files a queue's entry (replacing one of a released queue at the same address).
    mutating func file(_ entry: QueueEntry) {
        queues[entry.id] = entry
        queueIDs[entry.object] = entry.id
    }

    /// Forgets a queue; returns its entry if it was filed.
    @discardableResult
    mutating func forget(_ id: QueueID) -> QueueEntry? {
        guard let entry = queues.removeValue(forKey: id) else { return nil }
        if queueIDs[entry.object] == id { queueIDs[entry.object] = nil }
        return entry
    }

    /// True while the entry's sentinel still watches the operation the entry was made for; then
    /// the target is alive (Foundation and the sentinel both hold it), so it may be retained.
    func isCurrent(_ entry: SamplingWindow.Entry) -> Bool {
        objects[hooked: entry.object] === entry.sentinel && entry.sentinel.registryGeneration == entry.generation
    }
}

/// A weak reference to an operation.
struct WeakOperation {
    weak var operation: Operation?
}
