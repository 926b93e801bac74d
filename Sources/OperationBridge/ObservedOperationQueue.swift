import Foundation
import OperationEvents
import Synchronization

/// An `OperationQueue` that reports everything that happens to it and to its operations to an
/// `OperationMonitor`. Use it wherever you would create an `OperationQueue`; it schedules
/// exactly as its superclass does (the conformance suite runs every behaviour on both).
///
/// Every way of adding work is seen once: `addOperation(_:)`, `addOperation(_ block:)`,
/// `addOperations(_:waitUntilFinished:)` and `addBarrierBlock(_:)`; so are suspend/resume,
/// changes of `maxConcurrentOperationCount`, `name`, `qualityOfService`, and `cancelAllOperations()`.
/// Operations keep their class: a block becomes a `BlockOperation`, as Foundation makes it, whose
/// start the block itself reports (exactly). `ObservableOperation` subclasses are observed
/// exactly; every other operation is hooked (exact add, readiness and finish; sampled start).
open class ObservedOperationQueue: OperationQueue, @unchecked Sendable {
    // Safety: `barriers` is guarded by `barrierLock`; the rest is immutable or atomic.

    /// The monitor this queue reports to.
    public let monitor: OperationMonitor
    let core: MonitorCore
    /// The queue's id in the monitor.
    public let queueID: QueueID
    /// `maxConcurrentOperationCount == 1`, kept here so every add need not take Foundation's lock.
    private let serial = Atomic<Bool>(false)
    /// `qualityOfService` was set: Foundation then gives it to the blocks it wraps.
    private let qosExplicit = Atomic<Bool>(false)
    private let barrierCount = Atomic<Int>(0)
    /// Adds announced to the monitor and not yet handed to Foundation (see `settleAdds`).
    private let addsInFlight = Atomic<Int>(0)
    /// Resumes counted, so that a hooked operation's finish can tell it was never started.
    let suspension = QueueSuspension()
    private let barrierLock = NSLock()
    private var barriers: [BarrierRecord] = []

    /// Creates a queue observed by `monitor`.
    public init(
        monitor: OperationMonitor,
        name: String? = nil,
        maxConcurrentOperationCount: Int = OperationQueue.defaultMaxConcurrentOperationCount,
        qualityOfService: QoSClass? = nil
    ) {
        self.monitor = monitor
        core = monitor.core
        queueID = core.allocateQueueID()
        super.init()
        if let name { super.name = name }
        if maxConcurrentOperationCount != OperationQueue.defaultMaxConcurrentOperationCount {
            super.maxConcurrentOperationCount = maxConcurrentOperationCount
            serial.store(maxConcurrentOperationCount == 1, ordering: .relaxed)
        }
        if let qualityOfService {
            qosExplicit.store(true, ordering: .relaxed)
            super.qualityOfService = qualityOfService.foundation
        }
        core.queueAppeared(self)
    }

    deinit {
        core.queueReleased(queueID)
    }

    // MARK: Adding work

    /// The mark of an add made now, if the queue is suspended (see `QueueSuspension`).
    func suspensionMark() -> SuspensionMark? {
        suspension.mark { super.isSuspended }
    }

    /// Adds an operation; the monitor sees it before Foundation does.
    open override func addOperation(_ op: Operation) {
        addsInFlight.wrappingAdd(1, ordering: .relaxed)
        core.willEnqueue(op, in: self)
        super.addOperation(op)
        addsInFlight.wrappingSubtract(1, ordering: .releasing)
    }

    /// Adds operations; the monitor sees them before Foundation does.
    @available(*, noasync, message: "Use addBarrierBlock or a dependent Operation instead")
    open override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
        addsInFlight.wrappingAdd(1, ordering: .relaxed)
        core.willEnqueue(ops, in: self)
        super.addOperations(ops, waitUntilFinished: false)
        addsInFlight.wrappingSubtract(1, ordering: .releasing)
        if wait { for op in ops { op.waitUntilFinished() } }
    }

    /// Adds operations for a command and returns the ids the monitor gave them.
    func addOperationsReportingIDs(_ ops: [Operation]) -> [OperationID] {
        addsInFlight.wrappingAdd(1, ordering: .relaxed)
        let ids = core.willEnqueue(ops, in: self)
        super.addOperations(ops, waitUntilFinished: false)
        addsInFlight.wrappingSubtract(1, ordering: .releasing)
        return ids
    }

    /// Adds a block as Foundation does (a `BlockOperation`, given the queue's quality of service
    /// if one was set), whose first act is to report its start: the queue made the operation, so
    /// the program holds nothing that could tell the difference, and the start is exact.
    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let cell = BlockStartCell()
        let operation = BlockOperation { [core] in
            core.blockStarted(cell.object)
            block()
        }
        cell.object = ObjectIdentifier(operation)
        if qosExplicit.load(ordering: .relaxed) {
            operation.qualityOfService = super.qualityOfService
        }
        addOperation(operation)
    }

    /// Adds a barrier block; it is reported as an operation with the `barrier` priority.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let wrapped = core.registerBarrier(in: self, block: barrier)
        super.addBarrierBlock(wrapped)
    }

    /// Waits (briefly, at most `limit`) until no add is between its announcement and Foundation.
    ///
    /// A snapshot reads the event sequence first and the queue's operations after; an add
    /// announced before that sequence but not yet in Foundation's list would be in neither,
    /// and the model would never learn of the operation. Once the count has been zero at some
    /// moment after the sequence was read, every earlier add is in the list.
    func settleAdds(limit: Duration = .milliseconds(20)) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while addsInFlight.load(ordering: .acquiring) > 0, clock.now < deadline {
            sched_yield()
        }
    }

    /// Cancels every operation in the queue and reports it.
    open override func cancelAllOperations() {
        core.emit(.queueCancelledAll(queue: queueID))
        super.cancelAllOperations()
        core.didCancelAll(in: self)
    }

    // MARK: Queue state (reported before the change takes effect, so that work started by
    // the change is never reported ahead of it)

    /// `isSuspended`, reported on change.
    open override var isSuspended: Bool {
        get { super.isSuspended }
        set {
            core.emit(.queueSuspended(queue: queueID, suspended: newValue))
            if !newValue { suspension.willResume() }
            super.isSuspended = newValue
        }
    }

    /// `maxConcurrentOperationCount`, reported on change.
    open override var maxConcurrentOperationCount: Int {
        get { super.maxConcurrentOperationCount }
        set {
            core.emit(.queueMaxConcurrency(queue: queueID, count: newValue))
            super.maxConcurrentOperationCount = newValue
            serial.store(newValue == 1, ordering: .relaxed)
        }
    }

    /// `name`, reported on change.
    open override var name: String? {
        get { super.name }
        set {
            core.emit(.queueRenamed(queue: queueID, name: newValue ?? ""))
            super.name = newValue
        }
    }

    /// `qualityOfService`, reported on change.
    open override var qualityOfService: QualityOfService {
        get { super.qualityOfService }
        set {
            qosExplicit.store(true, ordering: .relaxed)
            core.emit(.queueQualityOfService(queue: queueID, qos: QoSClass(foundation: newValue)))
            super.qualityOfService = newValue
        }
    }

    /// Whether the queue runs one operation at a time (then Foundation ignores QoS priorities).
    var isSerial: Bool { serial.load(ordering: .relaxed) }

    // MARK: Barriers

    /// Barrier blocks added and not finished, oldest first. Lock-free when there are none.
    func pendingBarrierIDs() -> [OperationID] {
        pendingBarriers().map(\.id)
    }

    func pendingBarriers() -> [BarrierRecord] {
        guard barrierCount.load(ordering: .acquiring) > 0 else { return [] }
        barrierLock.lock()
        defer { barrierLock.unlock() }
        return barriers
    }

    func barrierAdded(_ record: BarrierRecord) {
        barrierLock.lock()
        barriers.append(record)
        barrierCount.store(barriers.count, ordering: .releasing)
        barrierLock.unlock()
    }

    func barrierEnded(_ record: BarrierRecord) {
        barrierLock.lock()
        barriers.removeAll { $0 === record }
        barrierCount.store(barriers.count, ordering: .releasing)
        barrierLock.unlock()
    }

    /// The queue as the monitor describes it.
    func currentInfo() -> QueueInfo {
        QueueInfo(
            id: queueID, name: super.name ?? "", maxConcurrentOperationCount: super.maxConcurrentOperationCount,
            isSuspended: super.isSuspended, qualityOfService: QoSClass(foundation: super.qualityOfService),
            isMainQueue: false, observation: .observed)
    }
}

/// The identity of a block operation the queue made, for the block to name itself when it runs.
/// Written once before the add (which publishes it to the thread that runs the block).
final class BlockStartCell: @unchecked Sendable {
    var object = ObjectIdentifier(BlockStartCell.self)
}
