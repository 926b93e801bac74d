import OperationEvents
import OpScopeTestSupport

/// Random valid histories of queues and operations, in the order things happened, and the
/// shuffles the bridge's reporting can apply to them.
struct SequencerHistory {
    private struct Operation {
        let id: Int
        let queue: Int?
        let inexact: Bool
        var dependencies: Set<Int>
        var cancelled: Bool
        /// Foundation's count stays above zero after an unfinished dependency was removed.
        var stuck = false
        var reportedReady: Bool
        var started = false
        var finished = false
    }

    private(set) var events: [MonitorEvent.Change] = []
    private var random: SeededRandom
    private var operations: [Int: Operation] = [:]
    private var active: [Int] = []
    private var suspended: [Bool]
    private let trackedQueues: Set<Int>
    private let total: Int

    /// Simulates `operations` operations on `queues` queues (some tracked, so sampled; some
    /// operations external): dependencies on earlier ones, dependencies added later (cycles),
    /// cancels, removed dependencies, suspended queues.
    init(random: SeededRandom, operations: Int, queues: Int) {
        self.random = random
        total = operations
        suspended = Array(repeating: false, count: queues + 1)
        var tracked = Set<Int>()
        for queue in 1...queues where self.random.chance(0.25) { tracked.insert(queue) }
        trackedQueues = tracked
        for queue in 1...queues { events.append(.queueAppeared(QueueInfo(id: QueueID(queue), name: "q\(queue)"))) }
        run()
        for queue in 1...queues where self.random.chance(0.5) { events.append(.queueReleased(queue: QueueID(queue))) }
    }

    private func isReady(_ operation: Operation) -> Bool {
        operation.cancelled || (!operation.stuck && operation.dependencies.allSatisfy { operations[$0]?.finished ?? true })
    }

    private mutating func run() {
        var added = 0
        var idle = 0
        while added < total || !active.isEmpty {
            let roll = random.below(100)
            var acted = false
            if roll < 14, added < total {
                add(id: added + 1)
                added += 1
                acted = true
            } else if roll < 90 {
                acted = progress(kind: roll)
            } else if roll < 94 {
                acted = cancelOne()
            } else if roll < 97 {
                acted = changeDependencies()
            } else {
                let queue = 1 + random.below(suspended.count - 1)
                suspended[queue].toggle()
                events.append(.queueSuspended(queue: QueueID(queue), suspended: suspended[queue]))
                acted = true
            }
            idle = acted ? 0 : idle + 1
            if idle > 200 {
                // Everything waits (a cycle, a stuck operation, suspended queues): resume and cancel.
                for queue in suspended.indices where suspended[queue] {
                    suspended[queue] = false
                    events.append(.queueSuspended(queue: QueueID(queue), suspended: false))
                }
                _ = cancelOne()
                idle = 0
            }
        }
    }

    private mutating func add(id: Int) {
        let queue: Int? = random.chance(0.1) ? nil : 1 + random.below(suspended.count - 1)
        let inexact = queue == nil || trackedQueues.contains(queue!)
        var dependencies = Set<Int>()
        for _ in 0..<random.below(4) where id > 1 {
            dependencies.insert(max(1, id - 1 - random.below(min(id - 1, 12))))
        }
        var operation = Operation(id: id, queue: queue, inexact: inexact, dependencies: dependencies,
                                  cancelled: random.chance(0.03), reportedReady: false)
        operation.reportedReady = isReady(operation)
        operations[id] = operation
        active.append(id)
        // Exact ones are hooked or instrumented (`bridgeShuffle` never delays an instrumented
        // operation's reports: each is made at the moment of the change, its finish before
        // Foundation lets a dependent go).
        let observation: ObservationMode = queue == nil ? .external : (inexact ? .sampled : (random.chance(0.4) ? .instrumented : .hooked))
        events.append(.operationAdded(OperationInfo(
            id: OperationID(id), queue: queue.map { QueueID($0) }, dependencies: dependencies.sorted().map { OperationID($0) },
            observation: observation, isReady: operation.reportedReady, isCancelled: operation.cancelled)))
        // Now and then an earlier, unstarted operation comes to depend on the new one (cycles).
        if random.chance(0.06), let earlier = active.dropLast().randomElement(using: &random),
           !operations[earlier]!.started {
            operations[earlier]!.dependencies.insert(id)
            events.append(.dependencyAdded(operation: OperationID(earlier), dependency: OperationID(id)))
        }
    }

    /// One step of one operation: a readiness change, a start, or a finish.
    private mutating func progress(kind roll: Int) -> Bool {
        guard !active.isEmpty else { return false }
        let start = random.below(active.count)
        for offset in 0..<active.count {
            let id = active[(start + offset) % active.count]
            var operation = operations[id]!
            let ready = isReady(operation)
            if !operation.started, operation.reportedReady != ready {
                operation.reportedReady = ready
                operations[id] = operation
                events.append(.ready(operation: OperationID(id), isReady: ready))
                return true
            }
            let running = operation.queue.map { !suspended[$0] } ?? true
            if !operation.started, ready, running {
                if operation.cancelled {
                    terminate(&operation)
                } else {
                    operation.started = true
                    events.append(.started(operation: OperationID(id)))
                    // A hooked operation's start sampled before the readiness is inferred.
                    if random.chance(0.1) { events.append(.ready(operation: OperationID(id), isReady: true)) }
                }
                operations[id] = operation
                return true
            }
            if operation.started, roll % 2 == 0 {
                terminate(&operation)
                operations[id] = operation
                return true
            }
        }
        return false
    }

    private mutating func terminate(_ operation: inout Operation) {
        operation.finished = true
        active.removeAll { $0 == operation.id }
        if operation.queue == nil, random.chance(0.2) {
            events.append(.released(operation: OperationID(operation.id)))
        } else {
            events.append(.finished(operation: OperationID(operation.id), cancelled: operation.cancelled))
        }
    }

    private mutating func cancelOne() -> Bool {
        guard let id = active.randomElement(using: &random), !operations[id]!.cancelled else { return false }
        operations[id]!.cancelled = true
        events.append(.cancelled(operation: OperationID(id)))
        return true
    }

    private mutating func changeDependencies() -> Bool {
        guard let id = active.randomElement(using: &random), !operations[id]!.started,
              let dependency = operations[id]!.dependencies.sorted().randomElement(using: &random) else { return false }
        // Removing an unfinished dependency leaves the operation waiting forever (Foundation).
        if operations[dependency]?.finished == false { operations[id]!.stuck = true }
        operations[id]!.dependencies.remove(dependency)
        events.append(.dependencyRemoved(operation: OperationID(id), dependency: OperationID(dependency)))
        return true
    }
}

/// Reorders a history the way the bridge's reporting can: finishes reported late (the hidden
/// dependent asked last, the sampler's next tick), starts and readiness reported late, so that
/// other operations' events overtake them; and late duplicates. What the bridge never does is
/// kept: an announcement comes before everything about the operation and every mention of it,
/// and one operation's reports keep their order (except what the history itself has, e.g. a
/// readiness inferred after a sampled start).
func bridgeShuffle(_ history: [MonitorEvent.Change], random: inout SeededRandom, spread: Int) -> [MonitorEvent.Change] {
    struct Keyed { let key: Double; let index: Int; let change: MonitorEvent.Change }
    var keyed: [Keyed] = []
    var floor: [Int: Double] = [:]        // per operation: the key of its latest report
    func delay(_ probability: Double, _ scale: Int, _ random: inout SeededRandom) -> Double {
        random.chance(probability) ? Double(random.below(scale * spread + 1)) + random.unit() : 0
    }
    var instrumented = Set<Int>()
    for (index, change) in history.enumerated() {
        var key = Double(index)
        if case .operationAdded(let info) = change, info.observation == .instrumented { instrumented.insert(info.id.rawValue) }
        switch change {
        case _ where change.operation.map { instrumented.contains($0.rawValue) } == true: break
        case .finished, .released: key += delay(0.4, 2, &random)
        case .started, .ready: key += delay(0.3, 1, &random)
        default: break
        }
        if let id = change.operation?.rawValue {
            key = max(key, floor[id] ?? 0)
            floor[id] = key
        }
        keyed.append(Keyed(key: key, index: index, change: change))
        // Late duplicates of starts, finishes and cancels (a readiness is never reported again
        // after a newer one: the bridge reports it under a one-bit lock, or in order from one place).
        if random.chance(0.04), change.isProgress, !(change.operation.map { _ in isReadiness(change) } ?? false) {
            keyed.append(Keyed(key: key + Double(random.below(2 * spread + 1)) + 0.5, index: index, change: change))
        }
    }
    keyed.sort { ($0.key, $0.index) < ($1.key, $1.index) }
    return keyed.map(\.change)
}

private func isReadiness(_ change: MonitorEvent.Change) -> Bool {
    if case .ready = change { true } else { false }
}

extension MonitorEvent.Change {
    /// A start, finish, cancel or readiness change: what may be reported twice.
    var isProgress: Bool {
        switch self {
        case .started, .finished, .cancelled, .ready: true
        default: false
        }
    }
}

extension SeededRandom {
    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
