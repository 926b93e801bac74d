import EventCoding
import Foundation
import OperationEvents

/// How a recorder writes.
public struct RecorderOptions: Sendable, Equatable {
    /// A keyframe after this many events (a reader can start at any keyframe).
    public var keyframeEvery = 100_000
    /// A keyframe after this many seconds of stream time with events since the last one.
    public var keyframeSeconds = 60.0
    /// Events the recorder may fall behind by before it loses some (counted and written as a
    /// `dropped` marker; the application is never held up).
    public var bufferCapacity = 262_144
    /// What keyframes keep of the past (the dashboard's retention: a replay shows what a live
    /// dashboard would have shown).
    public var retention = StreamRetention.dashboard
    /// The program's name in the header; nil: the source's.
    public var program: String?
    /// How long the recorder sleeps when its subscription is empty (seconds).
    public var idleWait = 0.01

    /// The defaults.
    public init() {}
}

/// Records a source's stream to a file as it goes: its own subscription (`recorder`), read on
/// a thread of its own, each batch written with one `write(2)` (so that a program killed at any
/// moment leaves a file readable up to its last complete line).
///
/// The application is never held up: the subscription is bounded, and what the recorder could
/// not keep up with is lost, counted and written as a `dropped` marker. A write error (a full
/// disk) stops the recording with one message in `failure`; the program goes on.
public final class Recorder: @unchecked Sendable {
    // Safety: the mutable fields below are guarded by `condition`; `writer`, `sink` and
    // `subscription` are used by the recorder thread alone once it started (and by `init`
    // before that).
    /// The file.
    public let path: String
    /// The header written first.
    public let header: StreamHeader
    private let source: any EventSource
    private let subscription: any EventSubscription
    private let options: RecorderOptions
    private var writer: RecordingWriter
    private var sink: FileSink
    private let condition = NSCondition()
    private var stopRequested = false
    private var finished = false
    private var syncRequested = 0
    private var syncDone = 0
    private var failureText: String?
    private var counts = (events: 0, dropped: 0, bytes: 0, keyframes: 0)

    /// Starts recording `source` to the file at `path` (created or truncated). The header is
    /// written before this returns; the events follow from the recorder's thread.
    public init(source: any EventSource, path: String, options: RecorderOptions = RecorderOptions()) throws(RecordingError) {
        self.path = path
        self.source = source
        self.options = options
        sink = try FileSink(path: path)
        let now = source.now()
        header = StreamHeader(program: options.program ?? source.sourceInfo.program, processID: Int(getpid()),
                              host: ProcessInfo.processInfo.hostName, startedAt: WallClockTime.now(), startMonitorTime: now)
        writer = RecordingWriter(policy: RecordingWriter.Policy(
            keyframeEvery: options.keyframeEvery,
            keyframeInterval: UInt64(max(0.001, min(options.keyframeSeconds, 1e9)) * 1e9),
            retention: options.retention))
        subscription = source.subscribe(SubscriptionRequest(consumer: "recorder", bufferCapacity: max(1, options.bufferCapacity)))
        let headerBytes = RecordingWriter.headerLine(header)
        if let reason = sink.write(headerBytes) {
            // Nothing can be recorded; the program goes on, and the handle says why.
            _ = sink.close()
            subscription.close()
            failureText = "\(path): recording stopped: \(reason) (the program goes on; nothing was recorded)"
            finished = true
            return
        }
        counts.bytes = headerBytes.count
        let thread = Thread { [self] in run() }
        thread.name = "opscope.recorder"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Why the recording stopped early (a write error), if it did: one line naming the file.
    public var failure: String? { condition.withLock { failureText } }

    /// Events written so far.
    public var eventsWritten: Int { condition.withLock { counts.events } }

    /// Events the recorder lost so far (written as `dropped` markers).
    public var droppedEvents: Int { condition.withLock { counts.dropped } }

    /// Bytes written so far.
    public var bytesWritten: Int { condition.withLock { counts.bytes } }

    /// Keyframes written so far.
    public var keyframesWritten: Int { condition.withLock { counts.keyframes } }

    /// True once the recorder stopped (asked to, or after a write error).
    public var isFinished: Bool { condition.withLock { finished } }

    /// Returns once everything the subscription held when this was called is in the file (or
    /// the recording has stopped). For tests and for programs that want a checkpoint.
    public func sync() {
        condition.lock()
        syncRequested += 1
        let ticket = syncRequested
        condition.broadcast()
        while syncDone < ticket, !finished { condition.wait() }
        condition.unlock()
    }

    /// Writes what the subscription still holds and the `end` line, closes the file and waits
    /// for the recorder's thread to end. Safe to call more than once.
    public func stop() {
        condition.lock()
        stopRequested = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    // MARK: The recorder's thread

    private func run() {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 20)
        var idle = 0
        // After a stop, what the subscription holds is still written, but a program flooding
        // events cannot keep the recorder from ending.
        var roundsAfterStop = 0
        while true {
            condition.lock()
            let stopping = stopRequested
            let ticket = syncRequested
            condition.unlock()
            if stopping {
                roundsAfterStop += 1
                if roundsAfterStop > 64 { break }
            }
            let batch = subscription.next(limit: 16_384)
            let empty = batch.start == nil && batch.events.isEmpty && batch.droppedTotal <= writer.droppedTotalSeen
            if !empty {
                idle = 0
                bytes.removeAll(keepingCapacity: true)
                writer.take(batch, now: source.now(), into: &bytes)
                if writer.sawGap { subscription.resynchronize() }
                if !write(bytes) { return }
                continue
            }
            if stopping { break }
            condition.lock()
            if syncDone < ticket { syncDone = ticket }
            condition.broadcast()
            if !stopRequested, syncRequested == syncDone {
                // Back off while nothing happens: a quiet program costs the recorder little.
                idle = min(idle + 1, 10)
                _ = condition.wait(until: Date(timeIntervalSinceNow: options.idleWait * Double(idle)))
            }
            condition.unlock()
        }
        bytes.removeAll(keepingCapacity: true)
        writer.finish(time: source.now(), reason: "finished", into: &bytes)
        if write(bytes), let reason = sink.close() {
            end(failure: "\(path): the recording may be incomplete: \(reason)")
            return
        }
        end(failure: nil)
    }

    /// Writes a batch's lines; on an error, records the message and ends the recording.
    private func write(_ bytes: [UInt8]) -> Bool {
        if let reason = sink.write(bytes) {
            let message = "\(path): recording stopped: \(reason) (the program goes on; \(writer.eventsWritten) events were recorded before)"
            _ = sink.close()
            end(failure: message)
            return false
        }
        condition.withLock {
            counts = (writer.eventsWritten, writer.droppedWritten, counts.bytes + bytes.count, writer.keyframesWritten)
        }
        return true
    }

    private func end(failure: String?) {
        subscription.close()
        condition.withLock {
            if failureText == nil { failureText = failure }
            finished = true
            condition.broadcast()
        }
    }
}

private extension NSCondition {
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
