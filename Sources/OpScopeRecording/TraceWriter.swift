/// Writes Chrome trace-event JSON (what ui.perfetto.dev and chrome://tracing open), one event
/// object at a time, handing the text out in chunks so that a long trace is never held whole.
///
/// Times are microseconds (`ts`, `dur`) with three decimals, so nanoseconds survive.
struct TraceWriter {
    private var buffer: [UInt8] = []
    private var first = true
    private let output: ([UInt8]) throws -> Void
    /// Events written, by phase (`X`, `s`, `f`, `i`, `M`).
    private(set) var counts: [String: Int] = [:]

    init(output: @escaping ([UInt8]) throws -> Void) {
        self.output = output
        buffer.reserveCapacity(1 << 16)
        append("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
    }

    /// One event: its phase, name, track and time, then any other fields (already JSON).
    mutating func event(phase: String, name: String, pid: Int = 1, tid: Int, ts: Double, fields: [(String, String)] = [])
        throws
    {
        append(first ? "" : ",\n")
        first = false
        append("{\"ph\":\"\(phase)\",\"name\":")
        append(Self.quoted(name))
        append(",\"pid\":\(pid),\"tid\":\(tid),\"ts\":\(Self.micros(ts))")
        for (key, value) in fields {
            append(",\"\(key)\":")
            append(value)
        }
        append("}")
        counts[phase, default: 0] += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Closes the array and the object, with `otherData` (already JSON) after the events.
    mutating func finish(otherData: String) throws {
        append("\n],\"otherData\":")
        append(otherData)
        append("}\n")
        try flush()
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try output(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Microseconds with three decimals, from a value already in microseconds.
    static func micros(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let nanos = Int64((value * 1000).rounded())
        let sign = nanos < 0 ? "-" : ""
        let magnitude = nanos.magnitude
        let fraction = String(magnitude % 1000)
        return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON object from keys and values that are already JSON.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
