import OperationEvents

/// One operation as a trace span: what an OTLP exporter sends and the OTLP JSON file holds.
///
/// The span runs from when the operation was added to when it finished (or, for one that had
/// not finished, to the moment it was exported, marked `unfinished`): one bar per operation
/// in a trace viewer whose length is the latency the program saw, with a `started` event where
/// the wait ends and the work begins. Dependencies are links (a DAG does not fit the
/// parent/child tree); every span's parent is the session's root span.
public struct OperationSpan: Sendable, Equatable {
    /// The operation.
    public var operation: OperationID
    /// Its name (`name`, else the class name).
    public var name: String
    /// When it was added (monitor clock, ns).
    public var start: UInt64
    /// When it finished, or when it was exported unfinished (monitor clock, ns).
    public var end: UInt64
    /// Its facts (`SpanField` names them).
    public var attributes: [SpanAttribute]
    /// The operations it depends on, as the span links to them.
    public var links: [OperationID]
    /// What happened within it: ready, started, cancelled, warnings.
    public var events: [SpanNote]
    /// Not finished when exported: the span ends at the export, and its status is an error that
    /// says so (OTLP has no open spans; a viewer shows the error).
    public var unfinished: Bool
    /// The status message of an unfinished span.
    public var statusMessage: String?

    /// The value of `field`, if the span has it.
    public func attribute(_ field: SpanField) -> SpanValue? {
        attributes.first { $0.field == field }?.value
    }
}

/// One fact of a span or span event.
public struct SpanAttribute: Sendable, Equatable {
    /// Its name.
    public var field: SpanField
    /// Its value.
    public var value: SpanValue

    /// `field` is `value`.
    public init(_ field: SpanField, _ value: SpanValue) {
        self.field = field
        self.value = value
    }
}

/// An attribute's value, in OTLP's kinds.
public enum SpanValue: Sendable, Equatable {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A list of integers.
    case ints([Int64])
}

/// A span event: something that happened at one moment of the operation's span.
public struct SpanNote: Sendable, Equatable {
    /// `SpanField.Event` names the kinds.
    public var name: SpanField.Event
    /// When (monitor clock, ns).
    public var time: UInt64
    /// What the event says.
    public var attributes: [SpanAttribute]

    /// An event `name` at `time`.
    public init(_ name: SpanField.Event, at time: UInt64, _ attributes: [SpanAttribute] = []) {
        self.name = name
        self.time = time
        self.attributes = attributes
    }
}
