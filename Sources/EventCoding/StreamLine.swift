import OperationEvents

/// One line of a stream: each is a JSON object whose `kind` field says which of these it is.
public enum StreamLine: Sendable, Equatable {
    /// `"kind":"header"`: the first line of every stream.
    case header(StreamHeader)
    /// `"kind":"event"`: one `MonitorEvent`, its change flattened into the line.
    case event(MonitorEvent)
    /// `"kind":"keyframe"`: the whole state of the stream, to start from instead of what came before.
    case keyframe(Keyframe)
    /// `"kind":"dropped"`: the writer lost events here.
    case dropped(DroppedMarker)
    /// `"kind":"end"`: the writer closed the stream normally.
    case end(EndMarker)
    /// A line of a kind this reader does not know (written by a newer writer of the same
    /// version): readers skip it, and may count it.
    case unknown(kind: String)

    /// The line's `kind` field.
    public var kind: String {
        switch self {
        case .header: "header"
        case .event: "event"
        case .keyframe: "keyframe"
        case .dropped: "dropped"
        case .end: "end"
        case .unknown(let kind): kind
        }
    }
}

/// Events the writer could not write: it fell behind its subscription and lost them. The events
/// after the marker start from a keyframe.
public struct DroppedMarker: Sendable, Equatable {
    /// How many events were lost at this point of the stream.
    public var count: Int
    /// The sequence number of the first lost event, when the writer knows it.
    public var sequence: UInt64?
    /// When the loss was noticed (monitor clock, nanoseconds), when the writer knows it.
    public var time: UInt64?

    /// Creates a marker.
    public init(count: Int, sequence: UInt64? = nil, time: UInt64? = nil) {
        self.count = count
        self.sequence = sequence
        self.time = time
    }
}

/// The writer closed the stream normally. A stream without one was cut short (the program was
/// killed, the connection lost): everything before the cut is still valid.
public struct EndMarker: Sendable, Equatable {
    /// When the stream ended (monitor clock, nanoseconds).
    public var time: UInt64
    /// How many events the writer wrote.
    public var events: Int?
    /// How many events the writer lost over the whole stream.
    public var dropped: Int?
    /// Why the stream ended (`finished`, `detached`...), if the writer says.
    public var reason: String?

    /// Creates a marker.
    public init(time: UInt64, events: Int? = nil, dropped: Int? = nil, reason: String? = nil) {
        self.time = time
        self.events = events
        self.dropped = dropped
        self.reason = reason
    }
}
