import DashboardModel
import Foundation
import OperationBridge
import OperationEvents
import Synchronization

/// The dashboard's side of a run, headless: a thread reading a subscription to the monitor into
/// a model, the way a session does (a fresh start replaces the model; a loss or a gap makes it
/// ask for a fresh keyframe), keeping the books of what it got.
public final class LiveReducer: @unchecked Sendable {
    private let monitor: OperationMonitor
    private let subscription: any EventSubscription
    private let lock = NSLock()
    private var model: DashboardModel
    private var thread: Thread?
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Events that reached the model.
    public private(set) var received = 0
    /// Sequence numbers a keyframe stood for instead of their events: before the first one,
    /// the past before the subscription; after, what the subscription lost or discarded.
    public private(set) var past = 0
    public private(set) var covered = 0
    /// Keyframes received, the first one included.
    public private(set) var keyframes = 0
    /// Keyframes that went back in the sequence (never allowed).
    public private(set) var backwards = 0
    /// Jumps in the sequence numbers with no keyframe to stand for them.
    public private(set) var gaps = 0
    /// Fresh keyframes asked for, after a loss or a gap.
    public private(set) var requests = 0
    private var expected: UInt64 = 0
    /// Pause (seconds) after each read: a slow consumer, to force drops.
    let lag: Double
    /// The subscription's name in the hub's books.
    static let consumer = "soak reducer"

    /// Every sequence number the model accounts for: its events, and those keyframes stood for.
    public var seen: Int { past + received + covered }

    public init(monitor: OperationMonitor, configuration: ModelConfiguration = ModelConfiguration(), lag: Double = 0,
                bufferCapacity: Int? = nil) {
        self.monitor = monitor
        self.lag = lag
        model = DashboardModel(configuration: configuration)
        subscription = monitor.subscribe(SubscriptionRequest(consumer: Self.consumer, bufferCapacity: bufferCapacity))
    }

    public func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                if readOnce() == 0 { Thread.sleep(forTimeInterval: 0.002) } else if lag > 0 { Thread.sleep(forTimeInterval: lag) }
            }
            while readOnce() > 0 {}
            finished.store(true, ordering: .releasing)
        }
        thread.name = "opscope.reducer"
        self.thread = thread
        thread.start()
    }

    /// Stops after reading everything the subscription holds.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Reads everything produced until now (after `stop()`, on the caller's thread).
    func catchUp() {
        while readOnce() > 0 {}
    }

    /// One read; returns how much arrived (a keyframe counts one).
    @discardableResult
    private func readOnce() -> Int {
        let batch = subscription.next(limit: 16_384)
        lock.lock()
        defer { lock.unlock() }
        if case .keyframe(let keyframe) = batch.start {
            let next = keyframe.nextSequence
            if next < expected {
                backwards += 1
            } else if keyframes == 0 {
                past += Int(next - expected)
            } else {
                covered += Int(next - expected)
            }
            expected = next
            keyframes += 1
        }
        for event in batch.events {
            if event.sequence != expected { gaps += 1 }
            expected = event.sequence &+ 1
        }
        received += batch.events.count
        if model.apply(batch) {
            // Events were lost on the way (or a gap): start afresh, as a session does.
            subscription.resynchronize()
            requests += 1
        }
        return batch.events.count + (batch.start == nil ? 0 : 1)
    }

    /// The model now (a copy).
    public var current: DashboardModel {
        lock.lock()
        defer { lock.unlock() }
        var copy = model
        copy.advance(to: monitor.now())
        return copy
    }
}
