import DashboardModel
import EventCoding
import Foundation
import OperationEvents

/// A recording file, read once and indexed, ready to be shown at any moment: the state before
/// any event (from a state saved nearby and the events after it), each event's time, the
/// moments warnings appeared, and the state changes of each operation.
///
/// Opening reads the whole file: a missing, empty, foreign, newer-version or corrupt file is
/// an `EventStreamError` naming the file and the line; a last line cut short is not (the
/// writer was killed in it): `truncation` says so and everything before it is used. Damage the
/// lines themselves do not show (numbers that skip, repeat or go back, a missing `end` line) is
/// read as docs/EVENT-FORMAT.md says, each finding in `notices`.
public final class Recording: @unchecked Sendable {
    // Safety: everything is immutable after `open` except `reader` and `readerNext`, which are
    // used under `lock`.
    /// The file.
    public let path: String
    /// Its header.
    public let header: StreamHeader
    /// Set when the last line was incomplete (and ignored).
    public let truncation: TruncatedLine?
    /// The `end` line, if the writer closed the stream normally.
    public let end: EndMarker?
    /// Events lost while recording (the `dropped` markers).
    public let droppedEvents: Int
    /// Lines of kinds this OpScope does not know (skipped).
    public let unknownLines: Int
    /// What reading found wrong with the lines, and did about it (the first 100).
    public let notices: [RecordingNotice]
    /// Findings in all (`notices` keeps the first 100).
    public let noticeCount: Int
    /// Set when the recording stops without its `end` line after complete lines (a last line
    /// cut short is `truncation` instead, which says as much).
    public let endMissing: RecordingNotice?
    /// The model's retention and thresholds used to read it.
    public let configuration: ModelConfiguration
    /// Time 0 of the recording (monitor clock, ns): positions in seconds count from here.
    public let origin: UInt64
    /// When the recording ends (monitor clock, ns).
    public let endTime: UInt64
    /// The moments warnings appeared, in order.
    public let marks: [RecordingMark]
    /// The model after the last event, at `endTime`.
    public let finalModel: DashboardModel

    /// Each event's time, made non-decreasing (what playback follows).
    let times: [UInt64]
    /// Each event's operation when the event changes the operation's state, else `noOperation`.
    let stateChanges: [Int]
    let saved: SavedStates
    /// The first state (before event 0).
    let initialState: StreamState

    private let lock = NSLock()
    private let reader: EventStreamReader
    /// The recording's bytes, when it was read from memory.
    private let bytes: [UInt8]?
    /// The event the reader returns next, when it reads on from where it stopped.
    private var readerNext: Int?
    /// The number that event gets (events are numbered as the index applied them).
    private var readerSequence: UInt64 = 0
    /// Event lines the index ignored (they repeat the line before them), by byte offset.
    private let repeatedLines: Set<Int>

    static let noOperation = Int.min

    /// How the index is built.
    public struct IndexOptions: Sendable {
        /// Events between saved states, at first (the interval doubles when they take more than
        /// `memoryBudget`).
        public var savedStateInterval = 2_048
        /// Memory the saved states may take, estimated (bytes).
        public var memoryBudget = 64 << 20
        /// Warnings are looked at after this many events...
        public var warningCheckEvents = 4_096
        /// ...or this much recording time (ns), whichever comes first.
        public var warningCheckInterval: UInt64 = 250_000_000

        /// The defaults.
        public init() {}
    }

    /// Reads and indexes the file at `path`.
    public static func open(path: String, configuration: ModelConfiguration = ModelConfiguration(),
                            options: IndexOptions = IndexOptions()) throws(EventStreamError) -> Recording {
        let reader = try EventStreamReader(path: path)
        return try Recording(path: path, reader: reader, bytes: nil, configuration: configuration, options: options)
    }

    /// Reads and indexes a recording held in memory (`name` stands for it in errors).
    public static func read(bytes: [UInt8], name: String, configuration: ModelConfiguration = ModelConfiguration(),
                            options: IndexOptions = IndexOptions()) throws(EventStreamError) -> Recording {
        let reader = try EventStreamReader(bytes: bytes, name: name)
        return try Recording(path: name, reader: reader, bytes: bytes, configuration: configuration, options: options)
    }

    private init(path: String, reader: EventStreamReader, bytes: [UInt8]?, configuration: ModelConfiguration,
                 options: IndexOptions) throws(EventStreamError) {
        self.path = path
        self.reader = reader
        self.bytes = bytes
        self.configuration = configuration
        header = reader.header
        var builder = IndexBuilder(configuration: configuration, options: options, source: path)
        while let record = try reader.next() { try builder.take(record) }
        builder.finish(startTime: header.startMonitorTime)
        truncation = reader.truncation
        end = builder.end
        droppedEvents = builder.fold.droppedTotal
        unknownLines = builder.fold.unknownLines
        notices = builder.fold.check.notices
        noticeCount = builder.fold.check.noticeCount
        repeatedLines = builder.fold.repeatedLines
        endMissing = builder.end != nil || reader.truncation != nil ? nil : RecordingNotice(
            source: path, line: builder.lastLine,
            message: "the recording stops after this line without its end line: the program or its recorder stopped before "
                + "it finished writing; everything up to here is used")
        origin = builder.origin
        endTime = builder.endTime
        marks = builder.marks
        times = builder.times
        stateChanges = builder.stateChanges
        saved = builder.saved
        initialState = builder.initialState ?? StreamState(retention: configuration.retention)
        finalModel = builder.fold.model
    }

    // MARK: Positions and times

    /// Events in the recording.
    public var eventCount: Int { times.count }

    /// States the index keeps in memory.
    package var savedStateCount: Int { saved.entries.count }

    /// Memory the saved states take, estimated (bytes).
    package var savedStateBytes: Int { saved.estimatedBytes }

    /// How long the recording is, in seconds.
    public var duration: Double { Double(endTime - origin) / 1e9 }

    /// Events at or before `time` (monitor clock): the position that shows that moment.
    public func position(atTime time: UInt64) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The time shown at `position` (after that many events): the last applied event's time,
    /// or the start.
    public func time(at position: Int) -> UInt64 {
        position <= 0 || times.isEmpty ? origin : times[min(position, times.count) - 1]
    }

    /// The time of event `index` (monitor clock).
    public func eventTime(_ index: Int) -> UInt64 { times[min(max(0, index), times.count - 1)] }

    /// Seconds since the recording's start.
    public func seconds(_ time: UInt64) -> Double { time >= origin ? Double(time - origin) / 1e9 : 0 }

    /// The moment `seconds` after the recording's start (clamped to the recording).
    public func time(seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return origin }
        let offset = seconds * 1e9
        return offset >= Double(endTime - origin) ? endTime : origin + UInt64(offset)
    }

    // MARK: States

    /// The stream's state before event `position` (clamped to the recording): a saved state and
    /// the events after it, at most one interval of them.
    public func state(at position: Int) throws(EventStreamError) -> StreamState {
        let target = min(max(0, position), eventCount)
        guard let entry = saved.entry(atOrBefore: target) else { return initialState }
        var state = entry.state
        guard target > entry.position else { return state }
        lock.lock()
        defer { lock.unlock() }
        try readEvents(from: entry, count: target - entry.position) { state.apply($0) }
        // A session trims by age at the end of each batch; the state it is handed must agree.
        state.trim(now: state.time)
        return state
    }

    /// Events `range` (clamped), read from the file.
    public func events(_ range: Range<Int>) throws(EventStreamError) -> [MonitorEvent] {
        let range = range.clamped(to: 0..<eventCount)
        guard !range.isEmpty else { return [] }
        lock.lock()
        defer { lock.unlock() }
        var result: [MonitorEvent] = []
        result.reserveCapacity(range.count)
        if readerNext != range.lowerBound {
            guard let entry = saved.entry(atOrBefore: range.lowerBound) else { return [] }
            try readEvents(from: entry, count: range.lowerBound - entry.position) { _ in }
        }
        try readOn(count: range.count) { result.append($0) }
        return result
    }

    /// The model after `position` events, folded from the start exactly as the index did (for
    /// reports: the statistics see every event, as the live dashboard's did).
    public func model(at position: Int) throws(EventStreamError) -> DashboardModel {
        let target = min(max(0, position), eventCount)
        if target == eventCount { return finalModel }
        let reader = try makeReader()
        var fold = RecordingFold(configuration: configuration, source: path)
        while fold.eventsTaken < target, let record = try reader.next() { _ = try fold.take(record) }
        fold.flush()
        return fold.model
    }

    /// Folds the whole recording from its first line, exactly as the index did, and hands
    /// `body` the model after each chunk of events together with the chunk (for exports that
    /// follow the operations as they finish: the model retires old finished work, so the final
    /// model alone would miss it). The model is at the recording's end after the last call.
    public func fold(_ body: (_ model: DashboardModel, _ applied: [MonitorEvent]) throws -> Void) throws {
        let reader = try makeReader()
        var fold = RecordingFold(configuration: configuration, source: path)
        var chunk: [MonitorEvent] = []
        chunk.reserveCapacity(RecordingFold.chunk)
        while let record = try reader.next() {
            let effect = try fold.take(record)
            switch effect {
            case .event(let event):
                chunk.append(event)
                if chunk.count >= RecordingFold.chunk {
                    fold.flush()
                    try body(fold.model, chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            case .reset, .dropped, .end, .none:
                continue
            }
        }
        fold.advance(to: endTime)
        try body(fold.model, chunk)
    }

    /// A reader of its own, from the first line (for the trace export and reports).
    func makeReader() throws(EventStreamError) -> EventStreamReader {
        if let bytes { return try EventStreamReader(bytes: bytes, name: path) }
        return try EventStreamReader(path: path)
    }

    /// Reads `count` events after a saved state; the reader is left after them.
    private func readEvents(from entry: SavedStates.Entry, count: Int, _ body: (MonitorEvent) -> Void) throws(EventStreamError) {
        guard let place = entry.readFrom else { return }
        reader.seek(to: place)
        readerNext = entry.position
        readerSequence = entry.state.nextSequence
        try readOn(count: count, body)
    }

    /// Reads on, skipping the lines the index ignored and numbering the events as it did.
    private func readOn(count: Int, _ body: (MonitorEvent) -> Void) throws(EventStreamError) {
        var left = count
        while left > 0, let record = try reader.next() {
            guard case .event(var event) = record.line, !repeatedLines.contains(record.position.offset) else { continue }
            event.sequence = readerSequence
            readerSequence &+= 1
            body(event)
            left -= 1
            readerNext = (readerNext ?? 0) + 1
        }
        if left > 0 { readerNext = nil }
    }
}

/// A moment of a recording worth a look: a warning appeared.
public struct RecordingMark: Sendable, Equatable {
    /// Events applied when they were seen.
    public var position: Int
    /// When (monitor clock, ns).
    public var time: UInt64
    /// The warning's message.
    public var message: String
    /// The operation it is about, if any.
    public var operation: OperationID?
}

extension Recording {
    /// The model at `seconds` after the recording's start (nil: its end), its clock at that
    /// moment: what a dashboard on the live program showed then.
    public func model(atSeconds seconds: Double?) throws(EventStreamError) -> DashboardModel {
        guard let seconds else { return finalModel }
        let time = time(seconds: seconds)
        if time >= endTime { return finalModel }
        var model = try model(at: position(atTime: time))
        model.advance(to: time)
        return model
    }
}
