import Foundation
@testable import OperationBridge
import OperationEvents
import Testing
import OpScopeTestSupport

/// The monitor's hub: history for every consumer, fan-out with a buffer and a drop count per
/// subscription, the ring's losses repaired in the stream, and a pump that keeps the history
/// with no consumer at all.
@Suite("Hub: history, fan-out, losses", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct HubTests {
    /// Reads a subscription until it has nothing more; folds what it gets into a state.
    final class Reader {
        let subscription: any EventSubscription
        private(set) var state = StreamState(retention: StreamRetention(maximumFinished: 1_000_000))
        private(set) var events: [MonitorEvent] = []
        private(set) var keyframes = 0
        private(set) var dropped = 0

        init(_ monitor: OperationMonitor, capacity: Int? = nil, consumer: String = "reader") {
            subscription = monitor.subscribe(SubscriptionRequest(consumer: consumer, bufferCapacity: capacity))
        }

        @discardableResult
        func read() -> EventBatch {
            let batch = subscription.next(limit: .max)
            if case .keyframe(let keyframe) = batch.start {
                state.adopt(keyframe)
                keyframes += 1
            }
            for event in batch.events { state.apply(event) }
            state.noteEventsLost(total: batch.droppedTotal)
            events += batch.events
            dropped = batch.droppedTotal
            return batch
        }
    }

    @Test("a consumer that subscribes after the work finished gets the past in its first keyframe, with times")
    func lateConsumerGetsThePast() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.manual(clock)
        let log = EventLog(monitor)
        var queue: ObservedOperationQueue? = ObservedOperationQueue(monitor: monitor, name: "gone")
        let first = ObservableBlockOperation {}
        let second = BlockOperation {}
        second.addDependency(first)
        queue!.addOperations([first, second], waitUntilFinished: true)
        queue!.waitUntilAllOperationsAreFinished()
        let firstID = try #require(first.monitorID)
        let queueID = queue!.queueID
        queue = nil
        // Foundation's queue lives until its last operation let go of it, on that operation's
        // thread, a moment after the wait above returned: wait for the release to be reported.
        #expect(waitUntil {
            _ = log.drain()
            return log.events.contains { $0.change == .queueReleased(queue: queueID) }
        })

        let reader = Reader(monitor)
        let batch = reader.read()
        guard case .keyframe(let keyframe) = batch.start else {
            Issue.record("the first batch does not start with a keyframe")
            return
        }
        #expect(keyframe.operations.count == 2)
        for record in keyframe.operations.values {
            #expect(record.state == .finished, "\(record.id)")
            #expect(record.startedAt != nil && record.finishedAt != nil && record.finishedAt! >= record.startedAt!)
            #expect(!record.finishWasInferred, "\(record.id)'s finish was seen exactly")
            #expect(record.queue == queueID)
        }
        #expect(keyframe[firstID]?.history.contains { $0.key == .isFinished } == true)
        #expect(keyframe[queue: queueID]?.isReleased == true, "the released queue stays while its operations do")
        #expect(keyframe[queue: queueID]?.finished == 2)

        // Live events follow the keyframe without a gap.
        let next = ObservedOperationQueue(monitor: monitor, name: "next")
        next.addOperation {}
        next.waitUntilAllOperationsAreFinished()
        let later = reader.read()
        #expect(later.start == nil)
        #expect(later.events.first?.sequence == keyframe.nextSequence)
        #expect(later.events.map(\.sequence) == Array(keyframe.nextSequence..<(keyframe.nextSequence + UInt64(later.events.count))))
        #expect(reader.state.counters.sequenceGaps == 0)
    }

    @Test("two consumers each get every event; reading one takes nothing from the other")
    func fanOut() {
        let monitor = OperationMonitor()
        let one = Reader(monitor, consumer: "one")
        let two = Reader(monitor, consumer: "two")
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        for round in 0..<5 {
            queue.addOperations((0..<100).map { _ in BlockOperation {} }, waitUntilFinished: true)
            queue.waitUntilAllOperationsAreFinished()
            one.read()
            if round % 2 == 0 { two.read() }
        }
        one.read()
        two.read()
        #expect(one.events.count > 1_000)
        #expect(one.events == two.events)
        #expect(one.events.map(\.sequence) == Array(0..<UInt64(one.events.count)))
        #expect(one.dropped == 0 && two.dropped == 0)
        #expect(one.state.operations.count == 500)
        #expect(one.state.operations.values.allSatisfy { $0.state == .finished })
        // A third, later consumer starts from a keyframe equal to what the others folded.
        let late = Reader(monitor, consumer: "late")
        late.read()
        #expect(late.keyframes == 1)
        #expect(late.state.nextSequence == one.state.nextSequence)
        #expect(late.state.operations.count == one.state.operations.count)
    }

    @Test("a consumer that never reads loses events and counts them; the app and another consumer are unaffected; memory stays bounded")
    func slowConsumer() {
        let monitor = OperationMonitor()
        let slow = Reader(monitor, capacity: 64, consumer: "slow")
        let fast = Reader(monitor, consumer: "fast")
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let ran = DeinitCounter()
        for _ in 0..<20 {
            queue.addOperations((0..<100).map { _ in BlockOperation { ran.increment() } }, waitUntilFinished: true)
            queue.waitUntilAllOperationsAreFinished()
            fast.read()
            let buffered = monitor.hubStatistics.subscriptions.first { $0.consumer == "slow" }?.buffered ?? -1
            #expect(buffered >= 0 && buffered <= 64, "the slow consumer's buffer holds \(buffered) events")
        }
        #expect(ran.value == 2_000, "the app's work ran")
        #expect(fast.dropped == 0)
        #expect(fast.events.map(\.sequence) == Array(0..<UInt64(fast.events.count)))
        let lost = monitor.hubStatistics.subscriptions.first { $0.consumer == "slow" }?.lost ?? 0
        #expect(lost > 0)
        // Its next read starts afresh, says how much it lost, and agrees with the fast one.
        let batch = slow.read()
        if case .keyframe = batch.start {} else { Issue.record("no fresh keyframe after the overflow") }
        #expect(batch.droppedTotal == lost)
        #expect(slow.state.counters.eventsLost == lost)
        #expect(slow.state.nextSequence == fast.state.nextSequence)
        #expect(slow.state.operations.values.filter { $0.state == .finished }.count == 2_000)
        // Afterwards it is served normally again.
        queue.addOperation {}
        queue.waitUntilAllOperationsAreFinished()
        #expect(slow.read().start == nil)
    }

    @Test("a subscription's books balance: every event numbered while it is open is handed out, or counted lost or discarded, and the next keyframe stands for it")
    func booksBalance() {
        let monitor = OperationMonitor.manual(ManualClock(step: 1_000))
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.addOperation {}
        queue.waitUntilAllOperationsAreFinished()
        // A past before it subscribes, then a script of work, reads and requests for a fresh
        // start that makes its buffer of 64 overflow and discard, several times.
        let reader = Reader(monitor, capacity: 64, consumer: "books")
        var expected: UInt64 = 0
        var past = 0
        var received = 0
        var covered = 0
        var keyframes = 0
        var gaps = 0
        func read() {
            let batch = reader.read()
            if case .keyframe(let keyframe) = batch.start {
                let next = Int(keyframe.nextSequence)
                if keyframes == 0 { past = next } else { covered += next - Int(expected) }
                expected = keyframe.nextSequence
                keyframes += 1
            }
            for event in batch.events {
                if event.sequence != expected { gaps += 1 }
                expected = event.sequence &+ 1
            }
            received += batch.events.count
        }
        for round in 0..<60 {
            let count = (round * 37) % 50 + 1
            queue.addOperations((0..<count).map { _ in ObservableBlockOperation {} }, waitUntilFinished: true)
            if round % 3 == 0 { read() }
            if round % 7 == 0 { reader.subscription.resynchronize() }
        }
        queue.waitUntilAllOperationsAreFinished()
        read()
        let accepted = monitor.acceptedEvents
        read()
        let books = monitor.hubStatistics.subscriptions.first { $0.consumer == "books" }
        #expect(books != nil && books!.lost > 0 && books!.discarded > 0, "the script was meant to overflow and to discard")
        #expect(gaps == 0)
        #expect(past > 0 && Int(expected) >= accepted)
        #expect(past + received + covered == Int(expected), "past \(past) + received \(received) + covered \(covered)")
        #expect(covered == (books?.lost ?? 0) + (books?.discarded ?? 0))
        #expect(reader.dropped == books?.lost, "the subscription's losses are its drop count")
        #expect(books?.keyframes == keyframes)
        #expect(reader.state.nextSequence == monitor.history.nextSequence)
        #expect(reader.state.operations.count == monitor.history.operations.count)
        #expect(reader.state[queue: queue.queueID]?.finished == monitor.history[queue: queue.queueID]?.finished)
    }

    @Test("resynchronize() makes the next batch start with a fresh keyframe")
    func resynchronize() {
        let monitor = OperationMonitor()
        let reader = Reader(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.addOperation {}
        queue.waitUntilAllOperationsAreFinished()
        reader.read()
        #expect(reader.keyframes == 1)
        reader.subscription.resynchronize()
        queue.addOperation {}
        queue.waitUntilAllOperationsAreFinished()
        let batch = reader.read()
        guard case .keyframe(let keyframe) = batch.start else {
            Issue.record("no keyframe after resynchronize()")
            return
        }
        #expect(batch.events.isEmpty, "the keyframe covers what happened since")
        #expect(keyframe.operations.count == 2)
        #expect(reader.state.counters.sequenceGaps == 0)
    }

    @Test("the ring overflowing is repaired in the stream: corrections from the live state, the loss counted for every consumer")
    func ringLossRepaired() throws {
        let clock = ManualClock(step: 1_000)
        let monitor = OperationMonitor.lossy(clock)
        let reader = Reader(monitor)
        let queue = ObservedOperationQueue(monitor: monitor, name: "busy", maxConcurrentOperationCount: 2)
        queue.isSuspended = true
        let instrumented = (0..<50).map { _ in ObservableBlockOperation {} }
        let foreign = (0..<50).map { _ in BlockOperation {} }
        for (a, b) in zip(instrumented, foreign) { b.addDependency(a) }
        queue.addOperations(instrumented + foreign, waitUntilFinished: false)
        #expect(monitor.droppedEvents > 0, "a ring of 16 cannot hold 100 announcements")

        // A routine read repairs only once the drops have stopped for a while (monitor time):
        // reading every live operation while they go on would be wasted.
        #expect(reader.read().droppedTotal == 0)
        #expect(monitor.hubStatistics.repairs == 0)
        clock.advance(by: .milliseconds(25))
        let batch = reader.read()
        #expect(batch.droppedTotal == monitor.droppedEvents)
        #expect(batch.events.contains { $0.origin == .sampled }, "corrections read from the live state")
        #expect(reader.state.counters.eventsLost == monitor.droppedEvents)
        #expect(reader.state.operations.count == 100)
        for (a, b) in zip(instrumented, foreign) {
            let id = try #require(a.monitorID)
            #expect(reader.state[id]?.state == .ready)
            let dependent = reader.state.operations.values.first { $0.dependencies == [id] }
            #expect(dependent?.state == .pending)
            _ = b
        }
        #expect(causalViolations(reader.events).isEmpty, "\(causalViolations(reader.events).prefix(3))")

        // The work runs (dropping again: nobody serves the ring meanwhile). A consumer that
        // subscribes now starts from a repaired keyframe at once; the first one converges too.
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        let late = Reader(monitor, consumer: "late")
        late.read()
        #expect(late.state.operations.count == 100 && late.state.operations.values.allSatisfy { $0.state == .finished })
        #expect(late.state.counters.eventsLost == monitor.droppedEvents)
        reader.read()
        #expect(reader.state.operations.values.allSatisfy { $0.state == .finished },
                "\(reader.state.operations.values.filter { $0.state != .finished }.map(\.id).prefix(5))")
        #expect(reader.state.counters.eventsLost == monitor.droppedEvents)
        #expect(monitor.history.counters.eventsLost == monitor.droppedEvents)
        #expect(causalViolations(reader.events).isEmpty, "\(causalViolations(reader.events).prefix(3))")
        #expect(monitor.hubStatistics.repairs >= 2)
    }

    @Test("with no consumer the hub's thread keeps the history, so nothing is lost; a late consumer sees it all")
    func pumpKeepsHistoryWithoutConsumers() {
        let monitor = OperationMonitor { configuration in
            configuration.bufferCapacity = 4_096
        }
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        // About 12,000 events: three times the ring. Each batch waits until its work is done and
        // until the hub's thread has drained the ring below its threshold, so the producers can
        // never outrun it (the test decides by events, not by how fast the thread is).
        for _ in 0..<8 {
            queue.addOperations((0..<500).map { _ in ObservableBlockOperation {} }, waitUntilFinished: true)
            queue.waitUntilAllOperationsAreFinished()
            #expect(waitUntil { monitor.core.ring.nextPosition - monitor.core.ring.drainedPosition < 1_024 },
                    "the hub's thread never drained the ring")
        }
        #expect(monitor.hubStatistics.pumpRuns > 0)
        #expect(monitor.droppedEvents == 0)
        let reader = Reader(monitor)
        reader.read()
        #expect(reader.keyframes == 1)
        #expect(reader.state.operations.values.filter { $0.state == .finished && $0.finishedAt != nil }.count == 4_000)
    }

    @Test("the history is bounded by its retention: the oldest finished operations are trimmed and counted")
    func retention() {
        let monitor = OperationMonitor { configuration in
            configuration.history = StreamRetention(maximumFinished: 10)
        }
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.addOperations((0..<50).map { _ in BlockOperation {} }, waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        let history = monitor.history
        #expect(history.retainedFinished == 10)
        #expect(history.counters.trimmed == 40)
        #expect(history[queue: queue.queueID]?.finished == 50)
        #expect(history[queue: queue.queueID]?.trimmed == 40)
    }

    @Test("the history folded on the hub's thread, each event taken from its log, equals the same events applied one by one by a reader")
    func historyEqualsEventsAppliedOneByOne() throws {
        let retention = StreamRetention(maximumFinished: 300, maximumAge: nil, historyLimit: 12)
        let monitor = OperationMonitor { configuration in
            configuration.history = retention
            // The pump is woken every 256 events, so it folds the log many times.
            configuration.bufferCapacity = 1_024
        }
        // Open before any work: the reader's first keyframe is the history before it.
        let reader = Reader(monitor)
        let first = reader.read()
        guard case .keyframe(let start) = first.start else {
            Issue.record("the first batch does not start with a keyframe")
            return
        }
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        for round in 0..<10 {
            // Chains, a cancelled operation and its dependent, and plain operations: starts and
            // finishes with and without dependencies, and trimming past the retention.
            var operations: [Operation] = []
            for index in 0..<120 {
                let operation = index % 3 == 0 ? BlockOperation {} : ObservableBlockOperation {}
                if index % 4 != 0, let previous = operations.last { operation.addDependency(previous) }
                operations.append(operation)
            }
            operations[7].cancel()
            queue.addOperations(operations, waitUntilFinished: true)
            queue.waitUntilAllOperationsAreFinished()
            // A round's events fit in the ring; served here, none is lost however busy the
            // machine is (the comparison below is about the fold, not about losses).
            _ = monitor.acceptedEvents
            if round % 3 == 0 { reader.read() }
        }
        #expect(waitUntil { monitor.hubStatistics.pumpFolds > 0 }, "the hub's thread never folded the log")
        // The history first, then everything published up to it and after it.
        let history = monitor.history
        reader.read()
        #expect(reader.keyframes == 1 && reader.dropped == 0 && monitor.droppedEvents == 0)
        #expect(history.counters.trimmed > 0, "the retention was never reached")
        #expect(monitor.hubStatistics.foldCopies == 0, "a fold copied a batch of the log: it was shared")
        // The reader's events up to where the history stands, applied one by one to its keyframe.
        var folded = start
        for event in reader.events where event.sequence < history.nextSequence { folded.apply(event) }
        // At the time the history was served at (the events carry the times they happened).
        folded.trim(now: history.time)
        #expect(folded.nextSequence == history.nextSequence)
        #expect(folded.retainedFinished == history.retainedFinished)
        let differing = history.operations.values.filter { folded[$0.id] != $0 }.map(\.id)
        #expect(differing.isEmpty, "records that differ: \(differing.prefix(5))")
        #expect(folded.counters == history.counters)
        // The whole comparison as a value: a failing `#expect(a == b)` would print both states.
        let same = folded == history
        #expect(same, "the two states differ beyond their records")
    }
}

extension OperationMonitor {
    /// A monitor with a changed configuration.
    convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }
}
