import Foundation
@testable import OperationBridge
import OperationEvents
import Synchronization
import Testing
import OpScopeTestSupport

/// The hub under pressure: producers that refill the ring faster than it drains, and a hub's
/// thread that cannot run (as when it waits for a core on a busy machine).
@Suite("Hub under pressure", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct HubPressureTests {
    /// A monitor with a ring of 256 whose pump thread never starts (stopped before its first
    /// wake: only producers can make room), and a suspended queue on it.
    private func heldQueue(assist: Bool) -> (OperationMonitor, ObservedOperationQueue) {
        let monitor = OperationMonitor { configuration in
            configuration.bufferCapacity = 256
            configuration.samplesAutomatically = false
            configuration.producersAssist = assist
        }
        monitor.core.hub.pump.stopAndWait()
        let queue = ObservedOperationQueue(monitor: monitor, name: "held", maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        return (monitor, queue)
    }

    @Test("while the hub's thread cannot run, producers drain a nearly full ring themselves: nothing dropped, nothing repaired")
    func producersAssist() throws {
        let (monitor, queue) = heldQueue(assist: true)
        let operations = (0..<2_000).map { _ in ObservableBlockOperation {} }
        // One producer, this thread: every event is an announcement into a ring of 256.
        for operation in operations { queue.addOperation(operation) }
        let events = monitor.core.ring.nextPosition
        #expect(events >= 2_000)
        #expect(monitor.droppedEvents == 0)
        let statistics = monitor.hubStatistics
        // The first when the ring is three quarters full (192), then one per quarter (64) drained.
        #expect(statistics.assists >= (events - 192) / 64, "\(statistics.assists) assists for \(events) events")
        #expect(statistics.repairs == 0 && statistics.pumpRuns == 0)
        let reader = HubTests.Reader(monitor)
        reader.read()
        #expect(reader.dropped == 0)
        let ids = try operations.map { try #require($0.monitorID) }
        #expect(ids.allSatisfy { reader.state.operations[$0] != nil })
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("one service takes what the ring held when it started, however fast producers refill it: a reader's own buffer never overflows with what its read published")
    func serviceIsBounded() {
        let monitor = OperationMonitor { configuration in
            configuration.bufferCapacity = 4_096
            configuration.samplesAutomatically = false
            configuration.pumpsAutomatically = false
        }
        let ring = monitor.core.ring
        // Room for one ring's worth, and the few corrections a repair adds.
        let reader = HubTests.Reader(monitor, capacity: ring.capacity + 64)
        let stop = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        // A producer refilling the ring as fast as it can, as a burst of adds does.
        Thread {
            var index = 0
            while !stop.load(ordering: .relaxed) {
                ring.push(MonitorEvent(time: 0, change: .queueDepth(queue: QueueID(1), operations: index)))
                index += 1
            }
            done.signal()
        }.start()
        var reads = 0
        while reads < 200 || ring.nextPosition < 16 * ring.capacity {
            reader.read()
            reads += 1
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        let statistics = monitor.hubStatistics
        #expect(statistics.largestDrain > 0 && statistics.largestDrain <= ring.capacity, "\(statistics.largestDrain)")
        // Its buffer, about as large as the ring, never overflowed: whatever the ring dropped is the
        // ring's loss (repaired), not the reader's.
        #expect(statistics.subscriptions.first?.lost == 0)
    }

    @Test("with producers' assist off, the same ring overflows")
    func producersAssistOff() {
        let (monitor, queue) = heldQueue(assist: false)
        for _ in 0..<2_000 { queue.addOperation(ObservableBlockOperation {}) }
        #expect(monitor.droppedEvents > 0)
        #expect(monitor.hubStatistics.assists == 0)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test("while a repair reads the live state, nobody drains past its mark: an operation added meanwhile is not taken for one that vanished")
    func repairMarkHolds() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.lossy(clock)
        let reader = HubTests.Reader(monitor)
        // Queues are read in the order they were made: `first` before `second`.
        let first = ObservedOperationQueue(monitor: monitor, name: "first")
        first.isSuspended = true
        let second = ObservedOperationQueue(monitor: monitor, name: "second")
        second.isSuspended = true
        let trigger = NameReadHook()
        second.addOperation(trigger)
        let waiting = (0..<40).map { _ in ObservableBlockOperation {} }
        second.addOperations(waiting, waitUntilFinished: false)
        #expect(monitor.droppedEvents > 0, "a ring of 16 cannot hold 41 announcements")
        reader.read()
        // While the repair reads `second` (after `first`), app code adds an operation to `first`
        // and reads the monitor again on the same thread: the live state does not list the new
        // operation, and its announcement is in the ring after the repair's mark.
        let late = ObservableBlockOperation {}
        trigger.onNameRead = {
            first.addOperation(late)
            reader.read()
        }
        clock.advance(by: .milliseconds(25))
        reader.read()
        #expect(monitor.hubStatistics.repairs == 1)
        reader.read()
        let id = try #require(late.monitorID)
        #expect(reader.state[id]?.state == .pending || reader.state[id]?.state == .ready,
                "\(String(describing: reader.state[id]?.state))")
        #expect(monitor.history[id]?.state != .finished)
        first.isSuspended = false
        second.isSuspended = false
        second.waitUntilAllOperationsAreFinished()
        first.waitUntilAllOperationsAreFinished()
    }
}

/// A foreign operation that runs `onNameRead` once, the first time its name is read after it
/// was set (the monitor reads names when it takes a live snapshot).
private final class NameReadHook: BlockOperation, @unchecked Sendable {
    // Safety: set and run on the test's thread only (the repair runs there).
    var onNameRead: (() -> Void)?

    override var name: String? {
        get {
            let hook = onNameRead
            onNameRead = nil
            hook?()
            return super.name
        }
        set { super.name = newValue }
    }
}
