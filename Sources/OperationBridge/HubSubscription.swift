import Foundation
import OperationEvents
import Synchronization

/// A consumer's subscription to a monitor's hub: its first batch starts with a keyframe of the
/// history, then the live events follow in causal order with contiguous sequence numbers.
///
/// Reading serves the hub first, so a subscription sees everything produced before the call.
/// It keeps the monitor's core alive while it is open; closing it (or releasing it) makes the
/// hub forget it.
final class HubSubscription: EventSubscription, @unchecked Sendable {
    // Safety: immutable but for `closed`, which is atomic.
    let consumer: String
    private let core: MonitorCore
    private let id: Int
    private let closed = Atomic<Bool>(false)

    init(core: MonitorCore, consumer: String, capacity: Int?) {
        self.core = core
        self.consumer = consumer
        id = core.hub.subscribe(consumer: consumer, capacity: capacity)
    }

    deinit {
        close()
    }

    func next(limit: Int) -> EventBatch {
        core.hub.next(id, limit: limit)
    }

    func resynchronize() {
        core.hub.resynchronize(id)
    }

    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.hub.close(id)
    }
}

extension OperationMonitor: EventSource {
    /// A live source: this process's monitor; it takes commands.
    public var sourceInfo: SourceInfo {
        SourceInfo(kind: .live, program: ProcessInfo.processInfo.processName)
    }

    /// Opens a subscription: a keyframe of the monitor's history (finished operations with their
    /// times, released queues, counters), then the live events in causal order. Each subscription
    /// has its own buffer (`request.bufferCapacity` events, else the configuration's
    /// `subscriptionBufferCapacity`); one that falls further behind loses events, counts them,
    /// and starts again from a keyframe. Reading never takes events from another subscription.
    public func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        HubSubscription(core: core, consumer: request.consumer, capacity: request.bufferCapacity)
    }
}
