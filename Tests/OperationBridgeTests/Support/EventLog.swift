import Foundation
import OperationBridge
import OperationEvents

/// Collects a monitor's events for assertions, through a subscription of its own opened when
/// the log is made (so it sees every event from then on, as a consumer would).
final class EventLog {
    let monitor: OperationMonitor
    private let subscription: any EventSubscription
    private(set) var events: [MonitorEvent] = []
    /// Keyframes received: the first one (the past before the log was made), and any after the
    /// log fell behind its buffer.
    private(set) var keyframes: [StreamState] = []

    init(_ monitor: OperationMonitor, capacity: Int = 1 << 20) {
        self.monitor = monitor
        subscription = monitor.subscribe(SubscriptionRequest(consumer: "test log", bufferCapacity: capacity))
    }

    /// Takes everything produced so far.
    @discardableResult
    func drain() -> [MonitorEvent] {
        let batch = subscription.next(limit: .max)
        if case .keyframe(let keyframe) = batch.start { keyframes.append(keyframe) }
        events += batch.events
        return batch.events
    }

    /// The events about one operation, in order.
    func events(for id: OperationID) -> [MonitorEvent] {
        events.filter { $0.change.operation == id }
    }

    /// Every `operationAdded` description, by id.
    var added: [OperationID: OperationInfo] {
        var result: [OperationID: OperationInfo] = [:]
        for event in events {
            if case .operationAdded(let info) = event.change { result[info.id] = info }
        }
        return result
    }

    /// The ids of added operations in the order they were added.
    var addedOrder: [OperationID] {
        events.compactMap { event in
            if case .operationAdded(let info) = event.change { return info.id }
            return nil
        }
    }

    func count(_ id: OperationID, where predicate: (MonitorEvent.Change) -> Bool) -> Int {
        events(for: id).filter { predicate($0.change) }.count
    }

    func finished(_ id: OperationID) -> MonitorEvent? {
        events(for: id).first { if case .finished = $0.change { true } else { false } }
    }

    func started(_ id: OperationID) -> MonitorEvent? {
        events(for: id).first { if case .started = $0.change { true } else { false } }
    }

    func wasCancelledAtFinish(_ id: OperationID) -> Bool? {
        guard let event = finished(id), case .finished(_, let cancelled) = event.change else { return nil }
        return cancelled
    }

    /// Drains until every id in `ids` has a finish event. Called once their queue is empty, when
    /// every finish has been reported; the deadline guards against a hang only.
    @discardableResult
    func waitForFinish(of ids: [OperationID], timeout: TimeInterval = 60) -> Bool {
        waitUntil(timeout: timeout) {
            drain()
            return ids.allSatisfy { finished($0) != nil }
        }
    }
}

extension MonitorEvent.Change {
    var isAdded: Bool { if case .operationAdded = self { true } else { false } }
    var isFinished: Bool { if case .finished = self { true } else { false } }
    var isStarted: Bool { if case .started = self { true } else { false } }
    var isCancelled: Bool { if case .cancelled = self { true } else { false } }
}
