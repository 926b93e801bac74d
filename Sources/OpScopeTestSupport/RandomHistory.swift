import OperationEvents

/// A random, causally valid history of a small program, as the monitor's hub delivers it:
/// serial, limited and unlimited queues (some suspended for a while), operations with
/// dependencies within and across queues, cycles (announced with forward references or closed
/// by a dependency added later), cancels (cycle members among them: the cancel breaks the
/// cycle), dependencies added and removed later, priority changes, and dependencies that are
/// never added to any queue.
///
/// It simulates what Foundation does on Linux: an operation is ready when every dependency
/// finished or when it is cancelled; a queue starts ready operations while it is not suspended
/// and has a free slot; a finish makes the dependents whose last dependency it was ready.
public struct RandomHistory {
    /// The events, numbered from 0.
    public private(set) var events: [MonitorEvent] = []

    private enum Phase { case pending, ready, executing, finished }

    private struct Operation {
        var id: Int
        var queue: Int?
        var dependencies: [Int]
        var phase: Phase
        var cancelled = false
        var priority: OperationPriority = .normal
    }

    private struct Queue {
        var id: Int
        var limit: Int
        var suspended: Bool
    }

    private var random: SeededRandom
    private var operations: [Int: Operation] = [:]
    private var queues: [Queue] = []
    private var nextID = 1
    private var time: UInt64 = 1_000_000_000
    private let total: Int

    /// A history of about `operations` operations on `queues` queues.
    public init(seed: UInt64, operations: Int = 80, queues queueCount: Int = 3) {
        random = SeededRandom(seed: seed)
        total = operations
        for id in 1...max(1, queueCount) {
            let limit = [1, 2, 4, -1].randomElement(using: &random)!
            let suspended = random.next() % 4 == 0
            queues.append(Queue(id: id, limit: limit, suspended: suspended))
            emit(.queueAppeared(QueueInfo(id: QueueID(id), name: "q\(id)", maxConcurrentOperationCount: limit, isSuspended: suspended)))
        }
        var idle = 0
        for _ in 0..<(operations * 14) {
            if step() { idle = 0 } else { idle += 1 }
            if idle > 40, nextID > total { break }
        }
    }

    private mutating func emit(_ change: MonitorEvent.Change) {
        time += UInt64.random(in: 1...2_000, using: &random)
        events.append(MonitorEvent(sequence: UInt64(events.count), time: time, change: change))
    }

    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    /// One random action; false when the one drawn could not be taken.
    private mutating func step() -> Bool {
        switch random.next() % 100 {
        case 0..<26: return announce()
        case 26..<48: return start()
        case 48..<74: return finish()
        case 74..<80: return cancel()
        case 80..<84: return toggleSuspension()
        case 84..<88: return changePriority()
        case 88..<93: return addDependency()
        case 93..<95: return removeDependency()
        default: return changeLimit()
        }
    }

    // MARK: Actions

    private mutating func announce() -> Bool {
        guard nextID <= total else { return false }
        if chance(6), nextID + 2 <= total {
            // A cycle announced with forward references: a → b → (c →) a, across queues at times.
            let size = chance(50) ? 2 : 3
            let first = nextID
            for offset in 0..<size {
                let id = first + offset
                add(id, queue: randomQueue(), dependencies: [offset == size - 1 ? first : id + 1])
            }
            return true
        }
        let id = nextID
        let recent = operations.keys.filter { $0 > id - 12 }.sorted()
        var dependencies: [Int] = []
        for _ in 0..<Int(random.next() % 3) {
            if let dependency = recent.randomElement(using: &random), !dependencies.contains(dependency) {
                dependencies.append(dependency)
            }
        }
        if chance(3) {
            // A dependency that is never added to any queue.
            let orphan = id
            add(orphan, queue: nil, dependencies: [])
            add(orphan + 1, queue: randomQueue(), dependencies: dependencies + [orphan])
            return true
        }
        add(id, queue: randomQueue(), dependencies: dependencies)
        return true
    }

    private mutating func randomQueue() -> Int { queues.randomElement(using: &random)!.id }

    private mutating func add(_ id: Int, queue: Int?, dependencies: [Int]) {
        nextID = max(nextID, id + 1)
        let ready = dependencies.allSatisfy { operations[$0]?.phase == .finished }
        let priority = [OperationPriority.low, .normal, .high].randomElement(using: &random)!
        operations[id] = Operation(id: id, queue: queue, dependencies: dependencies, phase: ready ? .ready : .pending,
                                   priority: priority)
        emit(.operationAdded(OperationInfo(
            id: OperationID(id), queue: queue.map { QueueID($0) }, name: "op\(id)", typeName: "BlockOperation",
            priority: priority, effectivePriority: priority, qualityOfService: QoSClass.allCases.randomElement(using: &random)!,
            dependencies: dependencies.map { OperationID($0) }, isReady: ready)))
    }

    private mutating func start() -> Bool {
        var running: [Int: Int] = [:]
        for operation in operations.values where operation.phase == .executing {
            if let queue = operation.queue { running[queue, default: 0] += 1 }
        }
        let open = Set(queues.filter { !$0.suspended && ($0.limit < 0 || running[$0.id, default: 0] < $0.limit) }.map(\.id))
        let candidates = operations.values.filter { operation in
            guard operation.phase == .ready, let queue = operation.queue else { return false }
            return open.contains(queue)
        }.map(\.id).sorted()
        guard let id = candidates.randomElement(using: &random) else { return false }
        operations[id]!.phase = .executing
        emit(.started(operation: OperationID(id)))
        return true
    }

    private mutating func finish() -> Bool {
        let executing = operations.values.filter { $0.phase == .executing }.map(\.id).sorted()
        guard let id = executing.randomElement(using: &random) else { return false }
        operations[id]!.phase = .finished
        emit(.finished(operation: OperationID(id), cancelled: operations[id]!.cancelled))
        // Foundation makes ready the dependents whose last unfinished dependency this was.
        for dependent in operations.keys.filter({ operations[$0]!.dependencies.contains(id) }).sorted() {
            let operation = operations[dependent]!
            guard operation.phase == .pending,
                  operation.dependencies.allSatisfy({ operations[$0]?.phase == .finished }) else { continue }
            operations[dependent]!.phase = .ready
            emit(.ready(operation: OperationID(dependent), isReady: true))
        }
        return true
    }

    private mutating func cancel() -> Bool {
        let candidates = operations.values.filter { !$0.cancelled && $0.phase != .finished }.map(\.id).sorted()
        guard let id = candidates.randomElement(using: &random) else { return false }
        operations[id]!.cancelled = true
        emit(.cancelled(operation: OperationID(id)))
        if operations[id]!.phase == .pending {
            // Cancelling an operation that waits releases it: Foundation marks it ready.
            operations[id]!.phase = .ready
            emit(.ready(operation: OperationID(id), isReady: true))
        }
        return true
    }

    private mutating func toggleSuspension() -> Bool {
        let index = Int(random.next() % UInt64(queues.count))
        queues[index].suspended.toggle()
        emit(.queueSuspended(queue: QueueID(queues[index].id), suspended: queues[index].suspended))
        return true
    }

    private mutating func changeLimit() -> Bool {
        let index = Int(random.next() % UInt64(queues.count))
        queues[index].limit = [1, 2, 4, -1].randomElement(using: &random)!
        emit(.queueMaxConcurrency(queue: QueueID(queues[index].id), count: queues[index].limit))
        return true
    }

    private mutating func changePriority() -> Bool {
        let candidates = operations.values.filter { ($0.phase == .pending || $0.phase == .ready) && $0.queue != nil }.map(\.id).sorted()
        guard let id = candidates.randomElement(using: &random) else { return false }
        let priority = [OperationPriority.veryLow, .low, .normal, .high, .veryHigh].randomElement(using: &random)!
        operations[id]!.priority = priority
        emit(.priorityChanged(operation: OperationID(id), priority: priority, effective: priority))
        return true
    }

    private mutating func addDependency() -> Bool {
        let waiting = operations.values.filter { ($0.phase == .pending || $0.phase == .ready) && !$0.cancelled }.map(\.id).sorted()
        guard let id = waiting.randomElement(using: &random) else { return false }
        let others = operations.keys.filter { $0 != id && !operations[id]!.dependencies.contains($0) }.sorted()
        guard let dependency = others.randomElement(using: &random) else { return false }
        operations[id]!.dependencies.append(dependency)
        emit(.dependencyAdded(operation: OperationID(id), dependency: OperationID(dependency)))
        if operations[dependency]!.phase != .finished, operations[id]!.phase == .ready {
            operations[id]!.phase = .pending
            emit(.ready(operation: OperationID(id), isReady: false))
        }
        return true
    }

    private mutating func removeDependency() -> Bool {
        // Only finished dependencies: on Linux, removing an unfinished one never releases the
        // operation (Foundation loses count), which the dashboard reports as a problem.
        let candidates = operations.values.filter { operation in
            operation.phase != .finished && operation.dependencies.contains { operations[$0]?.phase == .finished }
        }.map(\.id).sorted()
        guard let id = candidates.randomElement(using: &random) else { return false }
        let finished = operations[id]!.dependencies.filter { operations[$0]?.phase == .finished }
        let dependency = finished.randomElement(using: &random)!
        operations[id]!.dependencies.removeAll { $0 == dependency }
        emit(.dependencyRemoved(operation: OperationID(id), dependency: OperationID(dependency)))
        return true
    }
}
