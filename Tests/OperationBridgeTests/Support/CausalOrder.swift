import OperationEvents

/// The rules of docs/ARCHITECTURE.md ("Causal order") checked on a stream a consumer received;
/// returns each violation in words (empty when the stream is in causal order).
///
/// Per operation: announced first, nothing after its finish, at most one start and one finish,
/// no readiness change after the start. For a dependency A → B, B not cancelled: B's
/// `ready(true)`, `started` and uncancelled `finished` only after A's finish.
func causalViolations(_ events: [MonitorEvent]) -> [String] {
    var problems: [String] = []
    var announced = Set<OperationID>()
    var ended = Set<OperationID>()
    var started = Set<OperationID>()
    var cancelled = Set<OperationID>()
    var dependencies: [OperationID: Set<OperationID>] = [:]
    func unfinishedCauses(of id: OperationID) -> [OperationID] {
        guard !cancelled.contains(id) else { return [] }
        return (dependencies[id] ?? []).filter { announced.contains($0) && !ended.contains($0) }.sorted()
    }
    for (index, event) in events.enumerated() {
        if event.sequence != events[0].sequence + UInt64(index) {
            problems.append("sequence \(event.sequence) at position \(index)")
        }
        guard let id = event.change.operation else { continue }
        if ended.contains(id) { problems.append("\(event.change) after \(id) finished") }
        if !announced.contains(id), !event.change.isAdded { problems.append("\(event.change) before \(id) was announced") }
        switch event.change {
        case .operationAdded(let info):
            announced.insert(id)
            dependencies[id, default: []].formUnion(info.dependencies)
            if info.isCancelled { cancelled.insert(id) }
            if info.isReady, !unfinishedCauses(of: id).isEmpty {
                problems.append("\(id) announced ready before \(unfinishedCauses(of: id)) finished")
            }
        case .dependencyAdded(_, let dependency): dependencies[id, default: []].insert(dependency)
        case .dependencyRemoved(_, let dependency): dependencies[id]?.remove(dependency)
        case .cancelled: cancelled.insert(id)
        case .ready(_, let isReady):
            if started.contains(id) { problems.append("\(id) readiness after its start") }
            if isReady, !unfinishedCauses(of: id).isEmpty {
                problems.append("\(id) ready before \(unfinishedCauses(of: id)) finished")
            }
        case .started:
            if started.contains(id) { problems.append("\(id) started twice") }
            started.insert(id)
            if !unfinishedCauses(of: id).isEmpty { problems.append("\(id) started before \(unfinishedCauses(of: id)) finished") }
        case .finished(_, let wasCancelled):
            if !wasCancelled, !unfinishedCauses(of: id).isEmpty {
                problems.append("\(id) finished before \(unfinishedCauses(of: id)) finished")
            }
            ended.insert(id)
        case .released:
            ended.insert(id)
        default:
            break
        }
    }
    return problems
}
