import OperationEvents

/// Checks a sequencer's output against its input: every ordering rule of docs/ARCHITECTURE.md,
/// nothing lost except what may be dropped, nothing invented except inferred finishes and starts,
/// and holds no longer than the window. Inputs are told apart by their times (unique per input).
struct CausalOrderChecker {
    /// Input events in the order fed, each with a unique time.
    let input: [MonitorEvent]
    /// Output events, and for each the number of inputs fed when it came out.
    let output: [MonitorEvent]
    let emittedAfter: [Int]
    let window: CausalSequencer.Window

    /// Every violation found, in words (empty when all rules hold).
    func problems() -> [String] {
        var problems: [String] = []
        problems += checkNumbering()
        problems += checkAccounting()
        problems += checkOrder()
        return problems
    }

    private func checkNumbering() -> [String] {
        for (index, event) in output.enumerated() where event.sequence != UInt64(index) {
            return ["sequence \(event.sequence) at position \(index)"]
        }
        return []
    }

    /// Each output event is an input (the same change, or an announcement shown not ready, or
    /// the readiness split off it) or an inferred start or finish; each input comes out once,
    /// unless it may be dropped.
    private func checkAccounting() -> [String] {
        var problems: [String] = []
        var inputByTime: [UInt64: Int] = [:]
        for (index, event) in input.enumerated() { inputByTime[event.time] = index }
        var emitted = [Bool](repeating: false, count: input.count)
        var inferredFinish = Set<OperationID>()
        for (position, event) in output.enumerated() {
            if event.origin == .inferred {
                switch event.change {
                case .finished(let id, _): inferredFinish.insert(id)
                case .started, .cancelled: break
                default: problems.append("invented \(event.change)")
                }
                continue
            }
            guard let index = inputByTime[event.time] else {
                problems.append("no input for \(event.change) at \(event.time)")
                continue
            }
            let source = input[index].change
            let split: Bool
            if case .operationAdded(var info) = source, info.isReady, case .ready(let id, true) = event.change, id == info.id {
                split = true
                info.isReady = false
            } else {
                split = false
            }
            if !split {
                if !sameAnnouncement(source, event.change) { problems.append("\(event.change) came from \(source)") }
                if emitted[index] { problems.append("\(source) came out twice") }
                emitted[index] = true
            }
            let waited = emittedAfter[position] - (index + 1)
            if waited > window.events + 1 { problems.append("\(event.change) held for \(waited) events") }
        }
        problems += lost(emitted: emitted, inferredFinish: inferredFinish)
        return problems
    }

    private func sameAnnouncement(_ source: MonitorEvent.Change, _ out: MonitorEvent.Change) -> Bool {
        if source == out { return true }
        guard case .operationAdded(var info) = source, case .operationAdded = out else { return false }
        info.isReady = false
        return .operationAdded(info) == out
    }

    /// Inputs that did not come out and had no right to be dropped.
    private func lost(emitted: [Bool], inferredFinish: Set<OperationID>) -> [String] {
        var ended = Set<OperationID>()
        var seenKinds = Set<ProgressKey>()
        var startedSeen = Set<OperationID>()
        var releasedQueues = Set<QueueID>()
        var problems: [String] = []
        for (index, event) in input.enumerated() {
            let change = event.change
            let kind = ProgressKey(change)
            defer {
                if let id = change.operation {
                    if case .finished = change { ended.insert(id) }
                    if case .released = change { ended.insert(id) }
                    if case .started = change { startedSeen.insert(id) }
                }
                if case .queueReleased(let queue) = change { releasedQueues.insert(queue) }
                if let kind { seenKinds.insert(kind) }
            }
            guard !emitted[index] else { continue }
            if let id = change.operation {
                if ended.contains(id) || inferredFinish.contains(id) { continue }
                if let kind, kind.kind != 3, seenKinds.contains(kind) { continue }
                if isReadiness(change), startedSeen.contains(id) { continue }
            } else if let queue = change.queue, releasedQueues.contains(queue) {
                continue
            }
            problems.append("lost \(change) (input \(index))")
        }
        return problems
    }

    /// An operation and the kind of a progress event (0 start, 1 finish, 2 cancel, 3 readiness).
    private struct ProgressKey: Hashable {
        let id: Int
        let kind: Int

        init?(_ change: MonitorEvent.Change) {
            switch change {
            case .started(let id): self.id = id.rawValue; kind = 0
            case .finished(let id, _): self.id = id.rawValue; kind = 1
            case .cancelled(let id): self.id = id.rawValue; kind = 2
            case .ready(let id, _): self.id = id.rawValue; kind = 3
            default: return nil
            }
        }
    }

    private func isReadiness(_ change: MonitorEvent.Change) -> Bool {
        if case .ready = change { true } else { false }
    }

    /// The rules, on the output alone.
    private func checkOrder() -> [String] {
        var problems: [String] = []
        var announced = Set<OperationID>()
        var ended = Set<OperationID>()
        var started = Set<OperationID>()
        var cancelled = Set<OperationID>()
        var dependencies: [OperationID: Set<OperationID>] = [:]
        var appeared = Set<QueueID>()
        var released = Set<QueueID>()
        func unfinishedCauses(of id: OperationID) -> [OperationID] {
            guard !cancelled.contains(id) else { return [] }
            return (dependencies[id] ?? []).filter { announced.contains($0) && !ended.contains($0) }.sorted()
        }
        for event in output {
            let change = event.change
            if let queue = change.queue {
                if case .queueAppeared = change { appeared.insert(queue) }
                if released.contains(queue) { problems.append("\(change) after the queue's release") }
                if !appeared.contains(queue) { problems.append("\(change) before the queue appeared") }
                if case .queueReleased = change { released.insert(queue) }
                continue
            }
            guard let id = change.operation else { continue }
            if ended.contains(id) { problems.append("\(change) after the operation's finish") }
            switch change {
            case .operationAdded(let info):
                announced.insert(id)
                dependencies[id, default: []].formUnion(info.dependencies)
                if info.isCancelled { cancelled.insert(id) }
                let causes = unfinishedCauses(of: id)
                if info.isReady, !causes.isEmpty { problems.append("\(id) announced ready before \(causes) finished") }
                continue
            case .dependencyAdded(_, let dependency): dependencies[id, default: []].insert(dependency)
            case .dependencyRemoved(_, let dependency): dependencies[id]?.remove(dependency)
            case .cancelled:
                if cancelled.contains(id), !announcedCancelledOnly(id) { problems.append("\(id) cancelled twice") }
                cancelled.insert(id)
            case .ready(_, let value):
                if started.contains(id) { problems.append("\(id) readiness after its start") }
                let causes = unfinishedCauses(of: id)
                if value, !causes.isEmpty { problems.append("\(id) ready before \(causes) finished") }
            case .started:
                if started.contains(id) { problems.append("\(id) started twice") }
                started.insert(id)
                let causes = unfinishedCauses(of: id)
                if !causes.isEmpty { problems.append("\(id) started before \(causes) finished") }
            case .finished(_, let wasCancelled):
                let causes = unfinishedCauses(of: id)
                if !wasCancelled, !causes.isEmpty { problems.append("\(id) finished before \(causes) finished") }
                ended.insert(id)
            case .released:
                ended.insert(id)
            default:
                break
            }
            if !announced.contains(id) { problems.append("\(change) before the operation's announcement") }
        }
        return problems
    }

    /// Announced cancelled, then reported cancelled once: not a duplicate.
    private func announcedCancelledOnly(_ id: OperationID) -> Bool {
        output.filter { if case .cancelled(id) = $0.change { true } else { false } }.count == 1
    }
}
