import DashboardModel
import OperationEvents

/// Turns a model's operations into spans as they finish, the one reading of operations as
/// spans that the live exporter and the recording export share: they fold events into a model
/// their own way and ask this what became of them.
///
/// - An operation that finished becomes a span when its finish is folded.
/// - One that is stuck (a cause that is the program's problem: a cycle, never finishing, ...,
///   not a queue suspended on purpose) is exported at once, ended at that moment and marked
///   unfinished, without waiting for a finish that may never come; its dependents that wait on
///   it are stuck too and go with it.
/// - `close` exports everything else not finished, the same way.
///
/// Warnings become span events when they appear (`noteWarnings`), at the moment they were
/// seen; an operation's span carries those seen before it was exported.
public struct SpanCollector: Sendable {
    /// Exported already (finished, or exported unfinished: a finish after that is exported as a
    /// second span, the finished one).
    private var exportedUnfinished: Set<OperationID> = []
    /// The warnings seen per operation (kind, then the event), not yet exported.
    private var warnings: [OperationID: [(Warning.Kind, SpanNote)]] = [:]

    /// Nothing collected yet.
    public init() {}

    /// The spans of the operations whose finish is among `events`, read from `model` after
    /// they were applied.
    public mutating func finished(_ events: some Sequence<MonitorEvent>, in model: DashboardModel) -> [OperationSpan] {
        var spans: [OperationSpan] = []
        for event in events {
            guard case .finish? = event.change.orderingRule, let id = event.change.operation,
                  let record = model.operations[id], let finishedAt = record.finishedAt else { continue }
            spans.append(span(of: record, in: model, end: finishedAt, stuck: nil))
            exportedUnfinished.remove(id)
        }
        return spans
    }

    /// Spans for the operations stuck at `model.now` that were not exported yet, ended now and
    /// marked unfinished.
    public mutating func stuck(in model: DashboardModel) -> [OperationSpan] {
        var spans: [OperationSpan] = []
        for (id, cause) in model.stuckCauses().sorted(by: { $0.key < $1.key }) where cause.reportVerdict != .never {
            guard !exportedUnfinished.contains(id), let record = model.operations[id], record.finishedAt == nil else { continue }
            spans.append(span(of: record, in: model, end: model.now, stuck: cause))
            exportedUnfinished.insert(id)
        }
        return spans
    }

    /// Spans for every operation not finished and not exported yet, ended at `model.now` and
    /// marked unfinished (the end of a recording, the exporter's shutdown).
    public mutating func close(in model: DashboardModel) -> [OperationSpan] {
        var spans = stuck(in: model)
        let causes = model.stuckCauses()
        for record in model.operations.values where record.finishedAt == nil && !exportedUnfinished.contains(record.id) {
            spans.append(span(of: record, in: model, end: model.now, stuck: causes[record.id]))
            exportedUnfinished.insert(record.id)
        }
        return spans
    }

    /// Notes the warnings about operations that `model` shows now and were not noted before, as
    /// span events at `model.now`.
    public mutating func noteWarnings(in model: DashboardModel) {
        for warning in model.warnings() {
            guard let id = warning.operation, model.operations.contains(id) else { continue }
            var notes = warnings[id] ?? []
            guard !notes.contains(where: { $0.0 == warning.kind }) else { continue }
            notes.append((warning.kind, SpanNote(.warning, at: model.now, [
                SpanAttribute(.warningKind, .string(warning.kind.rawValue)),
                SpanAttribute(.warningMessage, .string(warning.message)),
            ])))
            warnings[id] = notes
        }
    }

    /// Forgets the warnings of operations the model no longer holds (released, retired), so
    /// that a long run's notes stay bounded.
    public mutating func forgetReleased(in model: DashboardModel) {
        warnings = warnings.filter { model.operations.contains($0.key) }
        exportedUnfinished = exportedUnfinished.filter { model.operations.contains($0) }
    }

    /// `record` as a span ending at `end`.
    private mutating func span(of record: OperationRecord, in model: DashboardModel, end: UInt64, stuck: StuckCause?) -> OperationSpan {
        var attributes: [SpanAttribute] = [
            SpanAttribute(.operationID, .int(Int64(record.id.rawValue))),
            SpanAttribute(.typeName, .string(record.typeName)),
        ]
        if let queue = record.queue {
            attributes.append(SpanAttribute(.queueID, .int(Int64(queue.rawValue))))
            if let name = model.queues[queue]?.name { attributes.append(SpanAttribute(.queueName, .string(name))) }
        }
        attributes += [
            SpanAttribute(.qualityOfService, .string(record.qualityOfService.rawValue)),
            SpanAttribute(.priority, .string(record.priority.description)),
            SpanAttribute(.effectivePriority, .string(record.effectivePriority.description)),
            SpanAttribute(.asynchronous, .bool(record.isAsynchronous)),
            SpanAttribute(.cancelled, .bool(record.isCancelled)),
            SpanAttribute(.observation, .string(record.observation.rawValue)),
            SpanAttribute(.state, .string(record.state.rawValue)),
        ]
        if record.isBarrier { attributes.append(SpanAttribute(.barrier, .bool(true))) }
        if record.firstSeenLate { attributes.append(SpanAttribute(.firstSeenLate, .bool(true))) }
        if let seen = record.origin(of: .started) { attributes.append(SpanAttribute(.startSeen, .string(seen.rawValue))) }
        if let seen = record.origin(of: .finished) { attributes.append(SpanAttribute(.finishSeen, .string(seen.rawValue))) }
        if let startedAt = record.startedAt {
            if !record.firstSeenLate, startedAt >= record.addedAt {
                attributes.append(SpanAttribute(.waitSeconds, .double(Double(startedAt - record.addedAt) / 1e9)))
            }
            if let finishedAt = record.finishedAt, finishedAt >= startedAt {
                attributes.append(SpanAttribute(.runSeconds, .double(Double(finishedAt - startedAt) / 1e9)))
            }
        }
        if !record.dependencies.isEmpty {
            attributes.append(SpanAttribute(.dependencies, .ints(record.dependencies.map { Int64($0.rawValue) })))
        }
        let unfinished = record.finishedAt == nil
        if unfinished { attributes.append(SpanAttribute(.unfinished, .bool(true))) }
        if let stuck { attributes.append(SpanAttribute(.stuckCause, .string(stuck.rawValue))) }

        var events: [SpanNote] = []
        if let readyAt = record.readyAt, readyAt > record.addedAt { events.append(SpanNote(.ready, at: readyAt)) }
        if let startedAt = record.startedAt { events.append(SpanNote(.started, at: startedAt)) }
        if let cancel = record.history.first(where: { $0.key == .isCancelled && $0.value }) {
            events.append(SpanNote(.cancelled, at: cancel.time))
        }
        events += (warnings.removeValue(forKey: record.id) ?? []).map(\.1)
        events.sort { $0.time < $1.time }

        let status: String? = unfinished
            ? "unfinished when exported (\(record.state.rawValue)" + (stuck.map { ", stuck: \($0.rawValue)" } ?? "") + ")"
            : nil
        return OperationSpan(operation: record.id, name: record.displayName, start: record.addedAt, end: max(end, record.addedAt),
                             attributes: attributes, links: record.dependencies, events: events, unfinished: unfinished,
                             statusMessage: status)
    }
}
