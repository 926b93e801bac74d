import EventCoding
import Foundation
import OperationEvents

/// What a trace's spans share: the program they come from (the resource), the root span every
/// operation's span is a child of (one trace per monitored run, so that a viewer shows the whole
/// run as one waterfall), and the mapping from the monitor's clock to wall-clock time.
public struct TraceSession: Sendable, Equatable {
    /// The instrumentation scope's name.
    public static let scopeName = "opscope"
    /// The instrumentation scope's version (OpScope's).
    public static let scopeVersion = "0.1.0"

    /// The program, its process and the clocks' anchor, as a recording's header states them.
    public var header: StreamHeader
    /// The root span's start (monitor clock, ns).
    public var start: UInt64
    /// The root span's end (monitor clock, ns): the recording's end or the exporter's stop.
    public var end: UInt64
    /// The service's name: `OTEL_SERVICE_NAME` when set, else the program's name.
    public var serviceName: String
    /// Events lost before the spans were made (the recording's dropped events).
    public var eventsLost = 0

    /// A session of `header`'s program from `start` to `end`.
    public init(header: StreamHeader, start: UInt64, end: UInt64,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.header = header
        self.start = start
        self.end = end
        serviceName = environment["OTEL_SERVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? header.program
    }

    /// The root span's name.
    public var rootName: String { "opscope session \(header.program)" }

    /// The resource's attributes (semantic-convention names).
    public var resource: [(key: String, value: SpanValue)] {
        var attributes: [(key: String, value: SpanValue)] = [
            (ResourceField.serviceName.rawValue, .string(serviceName)),
            (ResourceField.processID.rawValue, .int(Int64(header.processID))),
            (ResourceField.executableName.rawValue, .string(header.program)),
        ]
        if let host = header.host { attributes.append((ResourceField.hostName.rawValue, .string(host))) }
        return attributes
    }

    /// Nanoseconds since 1970 of a moment on the monitor clock.
    public func epochNanoseconds(_ time: UInt64) -> UInt64 {
        UInt64(max(0, header.wallClock(atMonitorTime: time).nanosecondsSince1970))
    }

    /// What the ids of a file export are derived from: the program and its start.
    public var traceSeed: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in header.program.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash ^ UInt64(bitPattern: header.startedAt.nanosecondsSince1970) ^ UInt64(header.processID)
    }
}
