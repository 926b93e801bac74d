import Foundation
import OperationEvents

/// A subscription to the monitor. Interim: one consumer takes events from the ring (as
/// `drainEvents` does) and starts from a live snapshot; lost events re-synchronise it from a
/// fresh snapshot.
final class MonitorSubscription: EventSubscription, @unchecked Sendable {
    // Safety: `needsStart` and `dropped` are guarded by `lock`.
    let consumer: String
    private let monitor: OperationMonitor
    private let lock = NSLock()
    private var needsStart = true
    private var dropped = 0

    init(monitor: OperationMonitor, consumer: String) {
        self.monitor = monitor
        self.consumer = consumer
    }

    func next(limit: Int) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        var start: StreamStart?
        let droppedNow = monitor.droppedEvents
        if needsStart || droppedNow > dropped {
            start = .snapshot(monitor.snapshot())
            needsStart = false
            dropped = droppedNow
        }
        var batch = monitor.drainEvents(limit: limit)
        batch.start = start
        return batch
    }

    func resynchronize() {
        lock.lock()
        needsStart = true
        lock.unlock()
    }

    func close() {}
}

extension OperationMonitor: EventSource {
    /// A live source: this process's monitor; it takes commands.
    public var sourceInfo: SourceInfo {
        SourceInfo(kind: .live, program: ProcessInfo.processInfo.processName)
    }

    /// Opens a subscription: a snapshot of the present, then the events.
    public func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        MonitorSubscription(monitor: self, consumer: request.consumer)
    }
}
