import DashboardModel
import OperationEvents

/// One sentence per state change, saying why it happened in the terms of the lessons: the KVO
/// keys `isReady`, `isExecuting`, `isFinished`, `isCancelled`; readiness as "every dependency
/// finished"; cancellation as a flag the operation must honour; queue priorities and slots.
///
/// Pure: the sentence depends on the event and on the model after it (or after the batch that
/// held it), never on a clock or on earlier calls.
public enum Narrator {
    /// The sentence for `event`; nil for changes nobody needs told (sampled queue depths).
    public static func narrate(_ event: MonitorEvent, model: DashboardModel) -> NarrationEntry? {
        let text: String?
        switch event.change {
        case .operationAdded(let info): text = added(info, model)
        case .ready(let id, let isReady): text = ready(id, isReady, model)
        case .started(let id): text = started(id, model)
        case .finished(let id, let cancelled): text = finished(id, cancelled, model)
        case .cancelled(let id): text = cancelled(id, model)
        case .dependencyAdded(let id, let dependency):
            text = "\(label(id, model)) addDependency(\(label(dependency, model))): it is not ready until \(dependency) finishes"
        case .dependencyRemoved(let id, let dependency):
            let unfinished = model.operations[dependency].map { $0.state != .finished } ?? false
            text = "\(label(id, model)) removeDependency(\(dependency))"
                + (unfinished ? ": on Linux, removing a dependency that has not finished leaves it not ready for good" : "")
        case .priorityChanged(let id, let priority, let effective):
            text = "\(label(id, model)) queuePriority → \(priority)"
                + (priority == effective ? "" : " (its queue schedules it as \(effective))")
        case .unsignalledFinish(let id):
            text = "\(label(id, model)) reads isFinished true but never sent the isFinished notification: "
                + "its queue keeps it forever and its dependents never become ready"
        case .released(let id):
            text = "\(label(id, model)) disappeared between two samples: its finish was not seen"
        case .queueAppeared(let info):
            let limit = info.maxConcurrentOperationCount < 0 ? "no fixed limit" : (info.maxConcurrentOperationCount == 1 ? "serial: one at a time" : "at most \(info.maxConcurrentOperationCount) at a time")
            text = "\(info.id) '\(info.name)' observed: \(limit)" + (info.isSuspended ? ", suspended: it starts nothing yet" : "")
        case .queueSuspended(let queue, let suspended):
            text = suspended
                ? "\(queueLabel(queue, model)) isSuspended → true: it starts no new operation; the running ones go on"
                : "\(queueLabel(queue, model)) isSuspended → false: it starts its ready operations again, in start order"
        case .queueMaxConcurrency(let queue, let count):
            text = "\(queueLabel(queue, model)) maxConcurrentOperationCount → \(count < 0 ? "default (no fixed limit)" : String(count))"
                + (count == 1 ? ": serial, one operation at a time" : "")
        case .queueRenamed(let queue, let name): text = "\(queue) is now called '\(name)'"
        case .queueQualityOfService(let queue, let qos):
            text = "\(queueLabel(queue, model)) qualityOfService → \(qos): operations without their own take it"
        case .queueCancelledAll(let queue):
            text = "\(queueLabel(queue, model)) cancelAllOperations(): cancel() on each operation it holds; each still has to be started to finish"
        case .queueReleased(let queue): text = "\(queueLabel(queue, model)) was released"
        case .queueDepth: text = nil
        }
        guard var text else { return nil }
        switch event.origin {
        case .exact: break
        case .sampled: text += " (seen by sampling)"
        case .inferred: text += " (inferred: not seen directly)"
        }
        return NarrationEntry(time: event.time, text: text, operation: event.change.operation, queue: event.change.queue)
    }

    /// True when `change` is told (`narrate` has a sentence for it): a flood counts the told
    /// changes it leaves out.
    static func tells(_ change: MonitorEvent.Change) -> Bool {
        switch change {
        case .operationAdded, .ready, .started, .finished, .cancelled, .dependencyAdded, .dependencyRemoved, .priorityChanged,
             .unsignalledFinish, .released, .queueAppeared, .queueSuspended, .queueMaxConcurrency, .queueRenamed,
             .queueQualityOfService, .queueCancelledAll, .queueReleased:
            true
        case .queueDepth: false
        }
    }

    private static func label(_ id: OperationID, _ model: DashboardModel) -> String {
        model.operations[id]?.label ?? id.description
    }

    private static func queueLabel(_ id: QueueID, _ model: DashboardModel) -> String {
        model.queues[id].map { "\(id) '\($0.name)'" } ?? id.description
    }

    private static func added(_ info: OperationInfo, _ model: DashboardModel) -> String {
        let name = "\(info.id) \(info.name ?? info.typeName)"
        guard let queue = info.queue else {
            return "\(name) seen as a dependency, but never added to a queue: nothing starts it unless the app does"
        }
        // A dependency not seen yet counts as unfinished: it is announced next.
        let unfinished = info.dependencies.filter { model.operations[$0].map { $0.state != .finished } ?? true }
        let where_ = "added to \(queueLabel(queue, model))"
        if info.isBarrier { return "\(name) \(where_) as a barrier: it starts once everything added before it finished" }
        if info.isReady {
            return "\(name) \(where_): isReady true (no unfinished dependency), so it waits only for a free slot, in start order"
        }
        if info.dependencies.isEmpty {
            // Nothing of Foundation's holds it: its own isReady does (a gate such as "online").
            return "\(name) \(where_): isReady false, though it has no dependency: a condition of its own holds it, "
                + "and the queue must be told when that changes"
        }
        guard unfinished.isEmpty else {
            return "\(name) \(where_): isReady false until \(list(unfinished, model)) finish\(unfinished.count == 1 ? "es" : "")"
        }
        // Every dependency it lists finished, as far as the stream saw, yet it is not ready: the
        // queue was not told of a finish (or a condition of its own holds it). Never a bare
        // "isReady false": the reason is what the lesson is about.
        let finished = list(info.dependencies, model)
        return "\(name) \(where_): isReady false though \(finished) finished: Foundation counts a dependency finished only "
            + "when told (its isFinished notification), or a condition of its own holds it"
    }

    private static func ready(_ id: OperationID, _ isReady: Bool, _ model: DashboardModel) -> String {
        let name = label(id, model)
        guard let record = model.operations[id] else { return "\(name) isReady → \(isReady)" }
        guard isReady else {
            if let added = record.history.last(where: { $0.key == .dependencies && $0.value }) {
                return "\(name) isReady → false: it got a new dependency, #\(added.detail), that has not finished"
            }
            return "\(name) isReady → false"
        }
        var text: String
        if record.isCancelled {
            text = "\(name) isReady → true: cancel() makes an operation ready at once, so that its queue starts it and it finishes without running"
        } else if let last = lastFinished(record.dependencies, model) {
            let cancelled = model.operations[last]?.isCancelled == true ? " (cancelled)" : ""
            text = "\(name) isReady → true: its last dependency \(label(last, model)) finished\(cancelled)"
        } else if !record.dependencies.isEmpty {
            text = "\(name) isReady → true: all its dependencies have finished"
        } else {
            // Nothing Foundation counts held it: a condition of its own (an isReady override) did.
            text = "\(name) isReady → true: its own condition is met"
        }
        if let queue = record.queue, model.queues[queue]?.isSuspended == true {
            text += "; but \(queueLabel(queue, model)) is suspended, so it is held"
        }
        return text
    }

    private static func started(_ id: OperationID, _ model: DashboardModel) -> String {
        let name = label(id, model)
        guard let record = model.operations[id] else { return "\(name) isExecuting → true" }
        if record.isCancelled {
            return "\(name) isExecuting → true although cancelled: its queue starts it so that start() sees isCancelled and finishes it"
        }
        guard let queue = record.queue, let queueRecord = model.queues[queue] else { return "\(name) isExecuting → true: started by hand" }
        let slots = queueRecord.maxConcurrentOperationCount < 0 ? "" : " (\(queueRecord.executing) of \(queueRecord.maxConcurrentOperationCount) slots busy)"
        let how = record.isAsynchronous ? ": asynchronous, it stays executing until it calls finish()" : ": main() runs on one of its threads"
        return "\(name) isExecuting → true: \(queueLabel(queue, model)) started it\(slots)\(how)"
            + order(record, limited: queueRecord.maxConcurrentOperationCount > 1)
    }

    /// Why it started when it did, on a queue with a limit above one (a serial queue on Linux is
    /// first in, first out), where priorities decide: at once (a
    /// slot was free: priority orders only work that waits), or by the priority the queue gave it
    /// when that is not the one set (Linux Foundation's rule, said as such).
    private static func order(_ record: OperationRecord, limited: Bool) -> String {
        guard limited, !record.isBarrier, let started = record.startedAt else { return "" }
        let since = record.readyAt ?? record.addedAt
        // Said of work that has a priority to compare (set, or given by its QoS): of a normal
        // one, in a lesson about something else, it would be noise.
        if record.effectivePriority != .normal, started >= since, started - since < Self.atOnce {
            return "; a slot was free as it became ready, so it started at once: priority orders only the work that waits"
        }
        guard record.priority != record.effectivePriority else { return "" }
        return "; scheduled as \(record.effectivePriority): with no queuePriority set, Foundation on Linux takes its "
            + "qualityOfService (\(record.qualityOfService)) for one"
    }

    /// A start this soon after readiness (ns) found a slot free: no other work was compared.
    static let atOnce: UInt64 = 5_000_000

    private static func finished(_ id: OperationID, _ cancelled: Bool, _ model: DashboardModel) -> String {
        let name = label(id, model)
        guard let record = model.operations[id] else { return "\(name) isFinished → true" }
        let dependents = record.dependents.filter { model.operations[$0].map { $0.state != .finished } ?? false }
        let release = dependents.isEmpty ? "" : "; \(list(dependents, model)) no longer wait\(dependents.count == 1 ? "s" : "") for it"
        guard let run = record.runTime(now: record.finishedAt ?? model.now) else {
            if cancelled {
                return "\(name) isFinished set while isExecuting was never true: it was cancelled before it started, so start() finished it without calling main()\(release)"
            }
            return "\(name) isFinished set while isExecuting was never true: a queue releases it, but its work never ran\(release)"
        }
        let took = DurationText.format(run)
        if cancelled { return cancelledFinish(name, record, took: took) + release }
        if record.isAsynchronous {
            return "\(name) isFinished → true after \(took): it called finish() when its asynchronous work ended\(release)"
        }
        if run < 1_000_000, !dependents.isEmpty {
            return "\(name) isFinished → true after \(took): main() returned at once; if it only started asynchronous work, \(list(dependents, model)) now run\(dependents.count == 1 ? "s" : "") before that work is done"
        }
        return "\(name) isFinished → true after \(took): main() returned\(release)"
    }

    /// How long after its cancel an operation may finish and still be said to have stopped for
    /// it: work that checks isCancelled in its loop stops within a few of its steps.
    static let stoppedAfterCancel: UInt64 = 250_000_000

    /// A cancelled operation that ran, finished: whether it stopped for the cancel is read from
    /// the times (the flag alone says nothing of whether its work checked it).
    private static func cancelledFinish(_ name: String, _ record: OperationRecord, took: String) -> String {
        let head = "\(name) isFinished → true after \(took)"
        guard let finishedAt = record.finishedAt,
              let cancel = record.history.last(where: { $0.key == .isCancelled && $0.value })?.time, cancel <= finishedAt else {
            return head + ", cancelled"
        }
        if let startedAt = record.startedAt, cancel <= startedAt {
            return head + ", cancelled before it started: start() saw isCancelled"
        }
        let after = finishedAt - cancel
        if after <= stoppedAfterCancel {
            return head + ", \(DurationText.format(after)) after cancel(): its work checked isCancelled and stopped early"
        }
        return head + ", \(DurationText.format(after)) after cancel(): its work ran on: it did not stop for isCancelled"
    }

    private static func cancelled(_ id: OperationID, _ model: DashboardModel) -> String {
        let name = label(id, model)
        guard let record = model.operations[id] else { return "\(name) isCancelled → true" }
        switch record.state {
        case .executing:
            return "\(name) isCancelled → true while executing: cancel() only sets the flag; it runs on until its code checks isCancelled"
        case .finished:
            return "\(name) isCancelled → true"
        case .pending, .ready:
            return "\(name) isCancelled → true: cancel() only sets the flag and makes it ready; it finishes when its queue starts it (that needs a free slot)"
        }
    }

    /// The dependency that finished last.
    private static func lastFinished(_ ids: [OperationID], _ model: DashboardModel) -> OperationID? {
        var best: (UInt64, OperationID)?
        for id in ids {
            guard let finishedAt = model.operations[id]?.finishedAt else { continue }
            if best.map({ finishedAt >= $0.0 }) ?? true { best = (finishedAt, id) }
        }
        return best?.1
    }

    private static func list(_ ids: [OperationID], _ model: DashboardModel) -> String {
        let names = ids.prefix(2).map { label($0, model) }.joined(separator: ", ")
        return names + (ids.count > 2 ? " and \(ids.count - 2) more" : "")
    }
}
