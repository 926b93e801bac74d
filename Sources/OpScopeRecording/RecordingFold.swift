import DashboardModel
import EventCoding
import OperationEvents

/// The rules for reading a recording into a model, defined once for the index, the report and
/// the export: events are applied in order (in chunks, as a session would get them); a keyframe
/// is loaded when the state needs one (the first, one after a `dropped` marker, one that does
/// not continue the events before it) and skipped when it only repeats what the events built;
/// `dropped` markers add to the events lost.
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
        /// Nothing for the model (the header, a keyframe that repeats the state, an unknown line).
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
    private var pending: [MonitorEvent] = []
    private var needsKeyframe = true
    /// The sequence number the next event should carry (the pending events counted).
    private var expectedSequence: UInt64 = 0
    private let source: String
    /// Events applied at most at once (a session takes about as many per frame).
    static let chunk = 1_024

    init(configuration: ModelConfiguration, source: String) {
        model = DashboardModel(configuration: configuration)
        self.source = source
        pending.reserveCapacity(Self.chunk)
    }

    /// Takes one line of the recording.
    mutating func take(_ record: StreamRecord) throws(EventStreamError) -> Effect {
        switch record.line {
        case .event(let event):
            pending.append(event)
            eventsTaken += 1
            expectedSequence = max(expectedSequence, event.sequence &+ 1)
            if pending.count >= Self.chunk { flush() }
            return .event(event)
        case .keyframe(let keyframe):
            // A keyframe that continues the events before it holds what they built: reading on
            // is cheaper than decoding it, and gives the same state.
            guard needsKeyframe || keyframe.sequence != expectedSequence else { return .none }
            flush()
            let state: StreamState
            do {
                state = try keyframe.decodeState(as: StreamState.self)
            } catch {
                throw EventStreamError(source: source, line: record.position.line, offset: record.position.offset,
                                       kind: .corruptLine("keyframe state does not decode: \(Self.describe(error))"))
            }
            model.load(state)
            needsKeyframe = false
            expectedSequence = keyframe.sequence
            return .reset
        case .dropped(let marker):
            flush()
            droppedTotal += max(0, marker.count)
            model.apply(EventBatch(events: [], droppedTotal: max(model.droppedEvents, droppedTotal)))
            needsKeyframe = true
            return .dropped(marker.count)
        case .end(let marker):
            return .end(marker)
        case .unknown:
            unknownLines += 1
            return .none
        case .header:
            return .none
        }
    }

    /// Applies the pending events.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        // Events lost are counted from the markers alone: the model must not take a gap the
        // writer already announced for a new loss.
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
