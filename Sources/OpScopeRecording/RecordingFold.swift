import DashboardModel
import EventCoding
import OperationEvents

/// The rules for reading a recording into a model, defined once for the index, the report and
/// the export: events are applied in file order (in chunks, as a session would get them); a
/// keyframe is loaded when the state needs one (the first, one after lost events, one that does
/// not continue the events before it) and skipped when it only repeats what the events built;
/// `dropped` markers, and gaps in the sequence numbers no marker announces, add to the events
/// lost (`SequenceCheck` decides, and notes every gap, repeat and step back).
///
/// Events reach the model numbered as they are applied, from the state's `nextSequence` on: a
/// damaged number (one that goes back) would otherwise make the model skip every event after
/// it as already seen. `Recording` numbers the events it reads again the same way.
struct RecordingFold {
    /// What a line did.
    enum Effect {
        /// An event, taken into the pending chunk (not applied yet: `flush()` does).
        case event(MonitorEvent)
        /// The state was replaced by a keyframe (after applying what was pending).
        case reset
        /// Events were lost here.
        case dropped(Int)
        /// The writer closed the stream.
        case end(EndMarker)
        /// Nothing for the model (the header, a keyframe that repeats the state, an unknown line, an
        /// event line that repeats the line before it).
        case none
    }

    /// The model as far as events were applied (`flush()` applies the pending ones).
    private(set) var model: DashboardModel
    /// Events taken so far (applied or pending).
    private(set) var eventsTaken = 0
    /// Events lost, from the `dropped` markers.
    private(set) var droppedTotal = 0
    /// Lines of kinds this reader does not know.
    private(set) var unknownLines = 0
    /// Event lines ignored because they repeat the line before them (their byte offsets).
    private(set) var repeatedLines: Set<Int> = []
    /// True when the last event taken came after events lost without a marker (the state before
    /// it, `model` now, is where a replay starts again, as after a keyframe).
    private(set) var gapBeforeLastEvent = false
    /// What the numbers and times of the lines say is wrong.
    private(set) var check: SequenceCheck
    private var pending: [MonitorEvent] = []
    /// The number the model expects next (the pending events counted).
    private var modelSequence: UInt64 = 0
    private let source: String
    /// Events applied at most at once (a session takes about as many per frame).
    static let chunk = 1_024

    init(configuration: ModelConfiguration, source: String) {
        model = DashboardModel(configuration: configuration)
        self.source = source
        check = SequenceCheck(source: source)
        pending.reserveCapacity(Self.chunk)
    }

    /// Takes one line of the recording.
    mutating func take(_ record: StreamRecord) throws(EventStreamError) -> Effect {
        switch record.line {
        case .event(var event):
            gapBeforeLastEvent = false
            switch check.event(event, line: record.position.line) {
            case .repeated:
                repeatedLines.insert(record.position.offset)
                return .none
            case .gap(let missing):
                noteLost(Int(clamping: missing))
                gapBeforeLastEvent = true
            case .next, .back:
                break
            }
            event.sequence = modelSequence
            modelSequence &+= 1
            pending.append(event)
            eventsTaken += 1
            if pending.count >= Self.chunk { flush() }
            return .event(event)
        case .keyframe(let keyframe):
            // A keyframe that continues the events before it holds what they built: reading on
            // is cheaper than decoding it, and gives the same state.
            let verdict = check.keyframe(keyframe, line: record.position.line)
            if verdict.missing > 0 { noteLost(Int(clamping: verdict.missing)) }
            guard verdict.load else { return .none }
            flush()
            let state: StreamState
            do {
                state = try keyframe.decodeState(as: StreamState.self)
            } catch {
                throw EventStreamError(source: source, line: record.position.line, offset: record.position.offset,
                                       kind: .corruptLine("keyframe state does not decode: \(Self.describe(error))"))
            }
            model.load(state)
            modelSequence = model.stream.nextSequence
            return .reset
        case .dropped(let marker):
            check.dropped()
            noteLost(max(0, marker.count))
            return .dropped(marker.count)
        case .end(let marker):
            return .end(marker)
        case .unknown:
            check.otherLine()
            unknownLines += 1
            return .none
        case .header:
            return .none
        }
    }

    /// Counts `count` events lost here: the events before are applied first, so that the loss
    /// shows from this point of the recording on.
    private mutating func noteLost(_ count: Int) {
        flush()
        droppedTotal += count
        model.apply(EventBatch(events: [], droppedTotal: max(model.droppedEvents, droppedTotal)))
    }

    /// Applies the pending events.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        // Events lost are counted by `noteLost` alone (markers and unannounced gaps): the model
        // must not count one twice.
        model.apply(EventBatch(events: pending, droppedTotal: model.droppedEvents))
        pending.removeAll(keepingCapacity: true)
    }

    /// Moves the model's clock (durations, retention by age) without an event.
    mutating func advance(to time: UInt64) {
        flush()
        model.advance(to: time)
    }

    /// A decoding error in one line, without the decoder's type dump.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
             DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return (path.isEmpty ? "" : path + ": ") + context.debugDescription
        default:
            return "\(error)"
        }
    }
}
