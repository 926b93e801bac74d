import Foundation
import OperationBridge
import Testing

/// Runs `scenario` on a plain and on an observed queue and requires the same outcome (and the
/// expected one, when given).
private func conform<Outcome: Equatable>(
    _ operations: OperationKind, expected: Outcome? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ scenario: (QueueKind, OperationMonitor) -> Outcome
) {
    let plain = scenario(.plain, OperationMonitor())
    let observed = scenario(.observed, OperationMonitor())
    #expect(plain == observed, "plain and observed queues differ for \(operations) operations", sourceLocation: sourceLocation)
    if let expected {
        #expect(plain == expected, "plain queue, \(operations) operations", sourceLocation: sourceLocation)
        #expect(observed == expected, "observed queue, \(operations) operations", sourceLocation: sourceLocation)
    }
}

@Suite("Conformance: an ObservedOperationQueue schedules exactly like an OperationQueue", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct ConformanceTests {
    @Test("explicit priorities: veryHigh ... veryLow, FIFO within one priority", arguments: OperationKind.allCases)
    func priorityOrder(kind: OperationKind) {
        let expected = ["veryHigh", "veryHigh2", "high", "normal1", "normal2", "low", "veryLow"]
        conform(kind, expected: expected) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            queue.isSuspended = true
            let order = Recorder<String>()
            let specs: [(String, Operation.QueuePriority)] = [
                ("low", .low), ("veryHigh", .veryHigh), ("normal1", .normal), ("high", .high),
                ("veryLow", .veryLow), ("normal2", .normal), ("veryHigh2", .veryHigh),
            ]
            let operations = specs.map { name, priority in
                let operation = kind.make { order.append(name) }
                operation.queuePriority = priority
                return operation
            }
            queue.addOperations(operations, waitUntilFinished: false)
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return order.all
        }
    }

    @Test("FIFO among many operations of one priority", arguments: OperationKind.allCases)
    func fifo(kind: OperationKind) {
        conform(kind, expected: Array(0..<50)) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            let order = Recorder<Int>()
            for index in 0..<50 { queue.addOperation(kind.make { order.append(index) }) }
            queue.waitUntilAllOperationsAreFinished()
            return order.all
        }
    }

    @Test("no explicit priority: the QoS decides, except in a serial queue", arguments: OperationKind.allCases)
    func qosDerivedPriority(kind: OperationKind) {
        let classes: [(String, QualityOfService)] = [
            ("background", .background), ("utility", .utility), ("default", .default),
            ("userInitiated", .userInitiated), ("userInteractive", .userInteractive),
        ]
        // Concurrent queue with one slot held by a blocker: the rest start one at a time, by priority.
        conform(kind, expected: ["userInteractive", "userInitiated", "default", "utility", "background"]) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 2)
            queue.isSuspended = true
            let gate = DispatchSemaphore(value: 0)
            let order = Recorder<String>()
            let blocker = kind.make { gate.wait() }
            blocker.queuePriority = .veryHigh
            let operations = classes.map { name, qos in
                let operation = kind.make { order.append(name) }
                operation.qualityOfService = qos
                return operation
            }
            queue.addOperations([blocker] + operations, waitUntilFinished: false)
            queue.isSuspended = false
            waitUntil { order.all.count == classes.count }
            gate.signal()
            queue.waitUntilAllOperationsAreFinished()
            return order.all
        }
        // Serial queue: QoS is ignored, plain FIFO.
        conform(kind, expected: classes.map(\.0)) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            queue.isSuspended = true
            let order = Recorder<String>()
            let operations = classes.map { name, qos in
                let operation = kind.make { order.append(name) }
                operation.qualityOfService = qos
                return operation
            }
            queue.addOperations(operations, waitUntilFinished: false)
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return order.all
        }
    }

    @Test("max concurrency 1 runs one at a time; N runs at most N", arguments: OperationKind.allCases)
    func maxConcurrency(kind: OperationKind) {
        // Limit 3: the operations wait until two of them run at once (a rendezvous, so overlap
        // is proven, not hoped for); whether a third overlaps depends on libdispatch starting a
        // third worker on a 2-core machine, so only "within the limit" is required of it.
        for limit in [1, 3] {
            conform(kind, expected: limit == 1 ? "serial" : "concurrent within limit") { queueKind, monitor in
                let queue = queueKind.make(monitor, maxConcurrent: limit)
                let gauge = ConcurrencyGauge()
                let overlap = Rendezvous(parties: 2)
                for _ in 0..<12 {
                    queue.addOperation(kind.make {
                        gauge.enter()
                        if limit > 1 { overlap.meet() }
                        gauge.leave()
                    })
                }
                queue.waitUntilAllOperationsAreFinished()
                let peak = gauge.maximum
                if peak == 1 { return "serial" }
                return peak <= limit ? "concurrent within limit" : "over limit: \(peak)"
            }
        }
    }

    @Test("dependencies order execution within a queue and across queues", arguments: OperationKind.allCases)
    func dependencies(kind: OperationKind) {
        conform(kind, expected: ["A", "B", "C", "D"]) { queueKind, monitor in
            let first = queueKind.make(monitor, name: "first")
            let second = queueKind.make(monitor, name: "second")
            let order = Recorder<String>()
            let a = kind.make { usleep(10_000); order.append("A") }
            let b = kind.make { order.append("B") }
            let c = kind.make { usleep(5_000); order.append("C") }
            let d = kind.make { order.append("D") }
            b.addDependency(a)
            c.addDependency(b)
            d.addDependency(c)
            second.addOperations([d, b], waitUntilFinished: false)
            first.addOperations([c, a], waitUntilFinished: false)
            second.waitUntilAllOperationsAreFinished()
            first.waitUntilAllOperationsAreFinished()
            return order.all
        }
    }

    struct CancelOutcome: Equatable {
        var ran: [String]
        var cancelledFinished: Bool
        var finishedWhileSuspended: Bool
    }

    @Test("cancel before start: finishes without running and releases its dependents", arguments: OperationKind.allCases)
    func cancelBeforeStart(kind: OperationKind) {
        let expected = CancelOutcome(ran: ["B"], cancelledFinished: true, finishedWhileSuspended: false)
        conform(kind, expected: expected) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            queue.isSuspended = true
            let order = Recorder<String>()
            let a = kind.make { order.append("A") }
            let b = kind.make { order.append("B") }
            b.addDependency(a)
            queue.addOperations([a, b], waitUntilFinished: false)
            a.cancel()
            // On Linux a cancelled operation still needs its (suspended) queue to start it; the
            // cancel itself finishes nothing.
            let finishedWhileSuspended = a.isFinished
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return CancelOutcome(ran: order.all, cancelledFinished: a.isCancelled && a.isFinished,
                                 finishedWhileSuspended: finishedWhileSuspended)
        }
    }

    @Test("suspend holds new work; resume releases it", arguments: OperationKind.allCases)
    func suspendResume(kind: OperationKind) {
        conform(kind, expected: [0, 5]) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            queue.isSuspended = true
            let ran = Recorder<Int>()
            for index in 0..<5 { queue.addOperation(kind.make { ran.append(index) }) }
            // Held, not merely slow: all five still wait in the queue, none started.
            let held = queue.operations.filter { !$0.isExecuting && !$0.isFinished }.count == 5
            let whileSuspended = held ? ran.all.count : -1
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return [whileSuspended, ran.all.count]
        }
    }

    @Test("a barrier waits for earlier work and holds later work", arguments: OperationKind.allCases)
    func barrier(kind: OperationKind) {
        conform(kind, expected: true) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            let events = Recorder<String>()
            for index in 0..<3 { queue.addOperation(kind.make { usleep(10_000); events.append("before\(index)") }) }
            queue.addBarrierBlock { events.append("barrier") }
            for index in 0..<3 { queue.addOperation(kind.make { events.append("after\(index)") }) }
            queue.waitUntilAllOperationsAreFinished()
            let log = events.all
            guard let barrier = log.firstIndex(of: "barrier"), log.count == 7 else { return false }
            return log[..<barrier].allSatisfy { $0.hasPrefix("before") } && log[(barrier + 1)...].allSatisfy { $0.hasPrefix("after") }
        }
    }

    @Test("addOperations(_:waitUntilFinished: true) returns after every operation finished", arguments: OperationKind.allCases)
    func waitUntilFinished(kind: OperationKind) {
        conform(kind, expected: true) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            let operations = (0..<8).map { _ in kind.make { usleep(2_000) } }
            queue.addOperations(operations, waitUntilFinished: true)
            return operations.allSatisfy(\.isFinished)
        }
    }

    @Test("cancelAllOperations on a suspended queue: nothing runs, everything finishes cancelled", arguments: OperationKind.allCases)
    func cancelAll(kind: OperationKind) {
        conform(kind, expected: [0, 6, 6]) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            queue.isSuspended = true
            let ran = Recorder<Int>()
            let operations = (0..<6).map { index in kind.make { ran.append(index) } }
            queue.addOperations(operations, waitUntilFinished: false)
            queue.cancelAllOperations()
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return [ran.all.count, operations.filter(\.isCancelled).count, operations.filter(\.isFinished).count]
        }
    }

    @Test("removing an unfinished dependency leaves the operation waiting forever (swift-corelibs-foundation)",
          arguments: OperationKind.allCases)
    func removeUnfinishedDependency(kind: OperationKind) {
        // Foundation decrements the waiting count only for a finished dependency of a cancelled
        // operation, so the count stays at 1 with no dependency left. OpScope diagnoses this.
        conform(kind, expected: [0, 0, 0]) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            queue.isSuspended = true
            let ran = Recorder<Int>()
            let waiting = kind.make { ran.append(1) }
            let otherRan = Signal()
            let other = kind.make { otherRan.give() }
            queue.addOperations([waiting, other], waitUntilFinished: false)
            waiting.addDependency(other)
            waiting.removeDependency(other)
            queue.isSuspended = false
            // The queue scheduled after the resume: the other operation ran and finished.
            otherRan.wait()
            waitUntil { other.isFinished }
            // [isReady, dependencies left, times it ran]
            let outcome = [waiting.isReady ? 1 : 0, waiting.dependencies.count, ran.all.count]
            waiting.cancel()   // the only way out
            queue.waitUntilAllOperationsAreFinished()
            return outcome
        }
    }

    @Test("operations and operationCount list the same operations")
    func operationsList() {
        conform(.block, expected: [5, 5]) { queueKind, monitor in
            let queue = queueKind.make(monitor)
            queue.isSuspended = true
            let operations = (0..<5).map { _ in BlockOperation {} }
            queue.addOperations(operations, waitUntilFinished: false)
            let listed = queue.operations
            let same = zip(listed, operations).filter { $0 === $1 }.count
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            return [queue.operationCount == 0 ? listed.count : -1, same]
        }
    }

    @Test("a block added to a queue with a QoS gets that QoS (and its derived priority)")
    func blockInheritsQueueQoS() {
        conform(.block, expected: ["normal", "block"]) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 2)
            queue.qualityOfService = .utility
            queue.isSuspended = true
            let gate = DispatchSemaphore(value: 0)
            let order = Recorder<String>()
            let blocker = BlockOperation { gate.wait() }
            blocker.queuePriority = .veryHigh
            queue.addOperation(blocker)
            queue.addOperation { order.append("block") }   // utility -> low
            let normal = BlockOperation { order.append("normal") }
            normal.queuePriority = .normal
            queue.addOperation(normal)
            queue.isSuspended = false
            waitUntil { order.all.count == 2 }
            gate.signal()
            queue.waitUntilAllOperationsAreFinished()
            return order.all
        }
    }

    @Test("raising max concurrency while running lets more work start")
    func raiseMaxConcurrency() {
        conform(.block, expected: true) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            let gauge = ConcurrencyGauge()
            let entered = Signal()
            // Each operation waits until a second one runs beside it: with a limit of 1 none
            // could, so the first holds its slot until the raise lets another start.
            let overlap = Rendezvous(parties: 2)
            for _ in 0..<8 { queue.addOperation(BlockOperation { gauge.enter(); entered.give(); overlap.meet(); gauge.leave() }) }
            entered.wait()
            queue.maxConcurrentOperationCount = 4
            queue.waitUntilAllOperationsAreFinished()
            return gauge.maximum > 1
        }
    }
}

@Suite("Conformance: asynchronous operations in the articles' styles", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct AsyncConformanceTests {
    enum Style: String, CaseIterable, CustomStringConvertible {
        case stateEnum, recursiveLock, observable
        var description: String { rawValue }

        func make(delay: TimeInterval, work: @escaping @Sendable () -> Void) -> Operation {
            switch self {
            case .stateEnum: StateEnumAsyncOperation(delay: delay, work: work)
            case .recursiveLock: RecursiveLockAsyncOperation(delay: delay, work: work)
            case .observable: TimedAsyncOperation(delay: delay, work: work)
            }
        }
    }

    @Test("a serial queue runs asynchronous operations one at a time, each until it finishes", arguments: Style.allCases)
    func serialAsync(style: Style) {
        // Later operations get shorter delays: if any overlapped, they would complete out of order.
        conform(.block, expected: Array(0..<5)) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            let order = Recorder<Int>()
            for index in 0..<5 {
                queue.addOperation(style.make(delay: Double(5 - index) * 0.004) { order.append(index) })
            }
            queue.settle()
            return order.all
        }
    }

    @Test("asynchronous dependencies: a dependent starts only after the asynchronous end", arguments: Style.allCases)
    func asyncDependencies(style: Style) {
        conform(.block, expected: ["download", "parse", "update"]) { queueKind, monitor in
            let network = queueKind.make(monitor, name: "network")
            let ui = queueKind.make(monitor, name: "ui", maxConcurrent: 1)
            let order = Recorder<String>()
            let download = style.make(delay: 0.02) { order.append("download") }
            let parse = style.make(delay: 0.001) { order.append("parse") }
            let update = BlockOperation { order.append("update") }
            parse.addDependency(download)
            update.addDependency(parse)
            ui.addOperation(update)
            network.addOperations([parse, download], waitUntilFinished: false)
            ui.settle()
            return order.all
        }
    }

    @Test("cancelling a pending asynchronous operation finishes it without running its work", arguments: Style.allCases)
    func cancelPendingAsync(style: Style) {
        conform(.block, expected: [0, 1]) { queueKind, monitor in
            let queue = queueKind.make(monitor, maxConcurrent: 1)
            queue.isSuspended = true
            let ran = Recorder<Int>()
            let operation = style.make(delay: 0.001) { ran.append(1) }
            queue.addOperation(operation)
            operation.cancel()
            queue.isSuspended = false
            queue.settle()
            return [ran.all.count, operation.isFinished ? 1 : 0]
        }
    }
}
