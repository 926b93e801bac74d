import OperationEvents
import Foundation

/// An event source for tests: events are appended by the test, time moves only when the test
/// says (a manual clock), and every command is recorded and answered as the test decides.
public final class ScriptedSource: EventSource, @unchecked Sendable {
    // Safety: every mutable field is guarded by `lock`.
    private let guarded = Locked(State())
    /// What `sourceInfo` reports.
    public let sourceInfo: SourceInfo
    /// What `workTemplates` reports.
    public let workTemplates: [WorkTemplateInfo]

    private struct State {
        var events: [MonitorEvent] = []
        var now: UInt64 = 0
        var commands: [MonitorCommand] = []
        var answer: @Sendable (MonitorCommand) -> Result<CommandReceipt, CommandError> = { command in
            .success(CommandReceipt(message: "done: \(command)"))
        }
    }

    /// A source holding `script`'s events, its clock at the script's last time.
    public init(_ script: EventScript = EventScript(), templates: [WorkTemplateInfo] = [],
                info: SourceInfo = SourceInfo(kind: .live, program: "test")) {
        sourceInfo = info
        workTemplates = templates
        guarded.withLock {
            $0.events = script.events
            $0.now = script.events.last?.time ?? 0
        }
    }

    /// Appends events (their sequence numbers continue the stream's) and moves the clock to the last.
    public func append(_ script: EventScript) {
        guarded.withLock { state in
            for var event in script.events {
                event.sequence = UInt64(state.events.count)
                state.events.append(event)
                state.now = max(state.now, event.time)
            }
        }
    }

    /// Moves the manual clock.
    public func advance(by nanoseconds: UInt64) {
        guarded.withLock { $0.now &+= nanoseconds }
    }

    /// The manual clock.
    public func now() -> UInt64 { guarded.withLock { $0.now } }

    /// Commands received so far, in order.
    public var commands: [MonitorCommand] { guarded.withLock { $0.commands } }

    /// Decides how commands are answered from now on.
    public func answer(with respond: @escaping @Sendable (MonitorCommand) -> Result<CommandReceipt, CommandError>) {
        guarded.withLock { $0.answer = respond }
    }

    /// Records the command and answers it.
    public func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        let respond = guarded.withLock { state in
            state.commands.append(command)
            return state.answer
        }
        return respond(command)
    }

    /// A subscription that reads the events from the first on.
    public func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        Subscription(source: self, consumer: request.consumer)
    }

    fileprivate func events(from position: Int, limit: Int) -> [MonitorEvent] {
        guarded.withLock { state in
            guard position < state.events.count else { return [] }
            return Array(state.events[position..<min(state.events.count, position + max(0, limit))])
        }
    }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        // Safety: `position` is guarded by `lock`.
        let consumer: String
        private let source: ScriptedSource
        private let position = Locked(0)

        init(source: ScriptedSource, consumer: String) {
            self.source = source
            self.consumer = consumer
        }

        func next(limit: Int) -> EventBatch {
            position.withLock { position in
                let events = source.events(from: position, limit: limit)
                position += events.count
                return EventBatch(events: events, droppedTotal: 0)
            }
        }

        func resynchronize() {}
        func close() {}
    }
}

/// A value behind an `NSLock` (the Synchronization module's `Mutex` gives ThreadSanitizer false
/// positives on Linux).
public final class Locked<Value>: @unchecked Sendable {
    // Safety: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held.
    public func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
