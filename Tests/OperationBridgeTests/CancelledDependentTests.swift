import Foundation
@testable import OperationBridge
import OperationEvents
import Synchronization
import Testing

/// swift-corelibs-foundation keeps an operation's dependents unretained. A cancelled dependent
/// finishes without waiting for its dependency; once released, the dependency's finish touched
/// the freed memory: a crash in Foundation, or a corrupted heap that crashed the monitor later
/// (in `resolveDependencies`, reading the `dependencies` of an operation being added). The
/// monitor holds such an operation until its dependencies have finished, without touching it.
@Suite("Cancelled dependents released before their dependencies finish", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct CancelledDependentTests {
    enum Kind: String, CaseIterable, Sendable {
        /// A `BlockOperation` subclass: hooked, its finish seen by a sentinel.
        case foreign
        /// An `ObservableOperation`: it reports its own finish.
        case instrumented
    }

    @Test("a dependency that finishes after its cancelled dependents were released does not crash", arguments: Kind.allCases)
    func releasedCancelledDependents(kind: Kind) throws {
        let monitor = OperationMonitor()
        let gateQueue = ObservedOperationQueue(monitor: monitor, name: "gate")
        gateQueue.isSuspended = true
        let work = ObservedOperationQueue(monitor: monitor, name: "work", maxConcurrentOperationCount: 2)
        let gate = BlockOperation {}
        gateQueue.addOperation(gate)

        // One kept, to check that what the program can read of it is Foundation's.
        let kept = Self.make(kind, counter: nil)
        kept.addDependency(gate)
        kept.cancel()
        work.addOperation(kept)
        let released = DeinitCounter()
        let count = 1_000
        for _ in 0..<count {
            let operation = Self.make(kind, counter: released)
            operation.addDependency(gate)
            operation.cancel()
            work.addOperation(operation)
        }
        work.waitUntilAllOperationsAreFinished()
        // Finished, released by the program, and held: none is freed while the gate, which still
        // lists them unretained, has not finished.
        #expect(CancelledShield.armedKeepers >= count)
        #expect(released.value == 0, "\(released.value) freed before their dependency finished")

        gateQueue.isSuspended = false
        gateQueue.waitUntilAllOperationsAreFinished()
        // Let go once the gate's finish is over (on another thread): nothing is kept for good.
        #expect(waitUntil { released.value == count }, "released \(released.value) of \(count)")

        #expect(kept.dependencies.count == 1 && kept.dependencies.first === gate, "dependencies are left as the program set them")
        #expect(kept.isCancelled && kept.isFinished && kept.isReady)
        let history = monitor.history
        #expect(history.operations.count >= count + 2)
        #expect(history.operations.values.allSatisfy { $0.state == .finished }, "every operation reported finished")
        let cancelled = history.operations.values.filter(\.isCancelled).count
        #expect(cancelled == count + 1)
    }

    @Test("3,000 operations in dependency chains across three queues, some cancelled, a small unread subscription")
    func cancelledChainsAcrossQueues() throws {
        var configuration = OperationMonitor.Configuration()
        configuration.subscriptionBufferCapacity = 64
        for round in 0..<3 {
            let monitor = OperationMonitor(configuration: configuration)
            let subscription = monitor.subscribe(SubscriptionRequest(consumer: "unread"))
            _ = subscription.next(limit: 1)
            let queues = (0..<3).map {
                ObservedOperationQueue(monitor: monitor, name: "q\($0)", maxConcurrentOperationCount: 2 + $0)
            }
            // The program reads its queues while the work runs (as a dashboard's snapshot does).
            let reader = QueueReader(queues: queues, monitor: monitor)
            reader.start()
            let count = 3_000
            var previous: Operation?
            for index in 0..<count {
                let operation = BlockOperation {}
                operation.name = "op-\(index)"
                if let previous { operation.addDependency(previous) }
                if index % 97 == 0 { operation.cancel() }
                queues[index % 3].addOperation(operation)
                previous = operation
            }
            previous = nil
            for queue in queues { queue.waitUntilAllOperationsAreFinished() }
            reader.stopAndWait()

            let batch = subscription.next(limit: .max)
            #expect(batch.droppedTotal > 0, "round \(round): the small buffer overflowed")
            let history = monitor.history
            #expect(history.operations.count == count, "round \(round)")
            #expect(history.operations.values.allSatisfy { $0.state == .finished }, "round \(round)")
        }
    }

    // MARK: Helpers

    private static func make(_ kind: Kind, counter: DeinitCounter?) -> Operation {
        switch kind {
        case .foreign: CountedBlockOperation(counter: counter ?? DeinitCounter()) {}
        case .instrumented: CountedObservableOperation(counter: counter)
        }
    }
}

/// A thread that reads the queues' `operations`, their `dependencies` and the monitor's
/// snapshot until stopped.
private final class QueueReader: @unchecked Sendable {
    // Safety: the queues and the monitor are thread-safe; `stopping` is atomic and `done` a semaphore.
    private let queues: [OperationQueue]
    private let monitor: OperationMonitor
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(queues: [OperationQueue], monitor: OperationMonitor) {
        self.queues = queues
        self.monitor = monitor
    }

    func start() {
        Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                for queue in queues {
                    for operation in queue.operations { _ = operation.dependencies.count }
                }
                _ = monitor.snapshot()
            }
            done.signal()
        }.start()
    }

    func stopAndWait() {
        stopping.store(true, ordering: .relaxed)
        done.wait()
    }
}
