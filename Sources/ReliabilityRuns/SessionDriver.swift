import DashboardModel
import DashboardSession
import Foundation
import OperationEvents
import Synchronization
import TerminalKit

/// A whole dashboard session on a test terminal, run on a thread of its own the way the
/// dashboard's thread runs it: input, events into the model, frames when something changed.
/// Only the terminal is simulated; what the session does with its source is the real thing.
public final class SessionDriver: @unchecked Sendable {
    // Safety: `figures` is written by the session's thread before `done` is signalled and read
    // only after `stop()` waited for it.
    private let source: any EventSource
    private let options: SessionOptions
    private let stopping = Atomic<Bool>(false)
    /// The stream position to reach before stopping (set by `stop`), and how long to try.
    private let target = Atomic<UInt64>(0)
    private let patience = 120.0
    private let done = DispatchSemaphore(value: 0)
    private var figures = ConsumerFigures(name: "")
    private let name: String

    /// A session on `source`, named `name` in the figures; `start()` runs it.
    public init(name: String, source: any EventSource, options: SessionOptions = SessionOptions()) {
        self.name = name
        self.source = source
        self.options = options
    }

    /// Starts the session's thread.
    public func start() {
        let thread = Thread { [self] in
            let terminal = TestTerminal(width: 200, height: 60)
            var session = Session(source: source, options: options)
            while !stopping.load(ordering: .acquiring) {
                _ = session.step(on: terminal)
                // The terminal's wait returns at once; the dashboard's own pause between turns.
                Thread.sleep(forTimeInterval: session.idleWait)
            }
            // Take what is left: turns until the model has reached the end of the stream (events
            // may still be on their way, through a socket for a console), or patience runs out.
            let deadline = Date().addingTimeInterval(patience)
            let end = target.load(ordering: .acquiring)
            while session.ingest.model.stream.nextSequence < end, Date() < deadline {
                _ = session.step(on: terminal)
                Thread.sleep(forTimeInterval: session.idleWait)
            }
            _ = session.step(on: terminal)
            figures = ConsumerFigures(name: name, session: session, frames: terminal.frameCount)
            figures.caughtUp = session.ingest.model.stream.nextSequence >= end
            done.signal()
        }
        thread.name = "opscope.longrun.\(name)"
        thread.start()
    }

    /// Stops the session once its model has reached `end` (the stream's next sequence number
    /// when the program's work is over), or after two minutes of trying; returns its figures.
    public func stop(at end: UInt64) -> ConsumerFigures {
        target.store(end, ordering: .releasing)
        stopping.store(true, ordering: .releasing)
        done.wait()
        return figures
    }
}

/// What one consumer saw of a run.
public struct ConsumerFigures: Sendable, CustomStringConvertible {
    /// Which consumer.
    public var name: String
    /// Events it applied to its model.
    public var eventsApplied = 0
    /// Events it was told it lost (its batches' dropped total).
    public var dropped = 0
    /// Times the sequence numbers it received jumped forward.
    public var sequenceGaps = 0
    /// Events the jumps in sequence numbers skipped.
    public var missedEvents: UInt64 = 0
    /// Events its stream state could not apply as they stood (counted, handled).
    public var anomalies = 0
    /// Frames it drew.
    public var frames = 0
    /// Finished operations its queues count at the end.
    public var finished = 0
    /// Of the finished, cancelled.
    public var cancelled = 0
    /// Operations it still shows unfinished at the end (after a run: ghost states).
    public var unfinished = 0
    /// Operations its model retains at the end.
    public var retained = 0
    /// Whether its model reached the end of the stream before it stopped.
    public var caughtUp = true

    /// No figures yet.
    public init(name: String) { self.name = name }

    init(name: String, session: Session, frames: Int) {
        self.name = name
        let model = session.ingest.model
        eventsApplied = session.ingest.eventsApplied
        dropped = model.droppedEvents
        sequenceGaps = model.stream.counters.sequenceGaps
        missedEvents = model.stream.counters.missedEvents
        anomalies = model.stream.counters.anomalies
        self.frames = frames
        finished = model.queues.values.reduce(0) { $0 + $1.finished }
        cancelled = model.queues.values.reduce(0) { $0 + $1.cancelled }
        unfinished = model.operations.values.filter { $0.state != .finished }.count
        retained = model.operations.count
    }

    /// One line.
    public var description: String {
        "\(name): \(eventsApplied) events applied, \(dropped) dropped, \(sequenceGaps) sequence gaps (\(missedEvents) events skipped), "
            + "\(anomalies) anomalies, \(frames) frames; finished \(finished) (cancelled \(cancelled)), unfinished \(unfinished), retained \(retained)"
            + (caughtUp ? "" : "; DID NOT reach the end of the stream")
    }
}
