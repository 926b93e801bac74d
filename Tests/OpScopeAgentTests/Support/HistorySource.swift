import Foundation
import OperationEvents
import OpScopeTestSupport

/// An event source with the contract of the monitor's hub, for agent tests: each subscription
/// starts from a keyframe of everything so far, then reads on from there; one that falls
/// further behind than its capacity loses those events (counted) and starts again from a
/// keyframe. Commands are recorded and answered as the test decides; the clock is manual.
final class HistorySource: EventSource, @unchecked Sendable {
    // Safety: all mutable state is guarded by `lock`.
    private let lock = NSLock()
    private var events: [MonitorEvent] = []
    private var clock: UInt64 = 1_000_000_000
    private var received: [MonitorCommand] = []
    private var answer: @Sendable (MonitorCommand) -> Result<CommandReceipt, CommandError> = { command in
        .success(CommandReceipt(message: "done: \(command)"))
    }
    private var open = 0
    let capacity: Int

    init(capacity: Int = 1_000_000) {
        self.capacity = capacity
    }

    let sourceInfo = SourceInfo(kind: .live, program: "history")
    let workTemplates = [WorkTemplateInfo(name: "job", summary: "one job", queue: QueueID(1))]

    func now() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return clock
    }

    /// Appends a script's events, numbered on from the stream's.
    func append(_ script: EventScript) {
        lock.lock()
        for var event in script.events {
            event.sequence = UInt64(events.count)
            events.append(event)
            clock = max(clock, event.time)
        }
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count
    }

    /// Subscriptions not closed yet.
    var openSubscriptions: Int {
        lock.lock()
        defer { lock.unlock() }
        return open
    }

    var commands: [MonitorCommand] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    func answer(with respond: @escaping @Sendable (MonitorCommand) -> Result<CommandReceipt, CommandError>) {
        lock.lock()
        answer = respond
        lock.unlock()
    }

    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        lock.lock()
        received.append(command)
        let respond = answer
        lock.unlock()
        return respond(command)
    }

    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        lock.lock()
        open += 1
        lock.unlock()
        return Subscription(source: self, consumer: request.consumer)
    }

    fileprivate func batch(from position: inout Int?, dropped: inout Int, limit: Int) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        var start: StreamStart?
        if position == nil || events.count - position! > capacity {
            if let behind = position { dropped += events.count - behind }
            var state = StreamState()
            for event in events { _ = state.apply(event) }
            start = .keyframe(state)
            position = events.count
        }
        let from = position!
        let taken = Array(events[from..<min(events.count, from + max(0, limit))])
        position = from + taken.count
        return EventBatch(start: start, events: taken, droppedTotal: dropped)
    }

    fileprivate func closed() {
        lock.lock()
        open -= 1
        lock.unlock()
    }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        // Safety: `position`, `dropped` and `isClosed` are guarded by `lock`.
        let consumer: String
        private let source: HistorySource
        private let lock = NSLock()
        private var position: Int?
        private var dropped = 0
        private var isClosed = false

        init(source: HistorySource, consumer: String) {
            self.source = source
            self.consumer = consumer
        }

        func next(limit: Int) -> EventBatch {
            lock.lock()
            defer { lock.unlock() }
            return source.batch(from: &position, dropped: &dropped, limit: limit)
        }

        func resynchronize() {
            lock.lock()
            position = nil
            lock.unlock()
        }

        func close() {
            lock.lock()
            let first = !isClosed
            isClosed = true
            lock.unlock()
            if first { source.closed() }
        }
    }
}

/// `count` operations on queue 1 (added, started, finished), with names of `nameLength` letters.
func workScript(operations count: Int, firstID: Int = 1, nameLength: Int = 8, withQueue: Bool = true) -> EventScript {
    var script = EventScript()
    if withQueue { script.queue(1, "work", max: 4) }
    for id in firstID..<(firstID + count) {
        script.add(id, queue: 1, String(repeating: "x", count: nameLength) + "-\(id)")
        script.run(id)
    }
    return script
}
