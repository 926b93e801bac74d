/// Writes JSON text into a byte array: the pieces the report is made of, nothing general.
///
/// Keys are written in sorted order by the callers and absent optionals are left out, so the
/// text is the one `JSONEncoder` writes with `.sortedKeys` (strings escaped the same way,
/// `/` included), without its cost: Foundation's encoder builds a tree of boxed values first,
/// which took seconds for a report of 100,000 operations.
struct ReportJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// A value was written at this nesting level: the next one needs a comma.
    private var needsComma = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func object(_ body: (inout ReportJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<C: Collection>(_ elements: C, _ body: (inout ReportJSONWriter, C.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key":`; the value follows.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Fields

    /// `"name":value`.
    mutating func field<Value: ReportJSONValue>(_ name: StaticString, _ value: Value) {
        key(name)
        value.write(into: &self)
    }

    /// `"name":value`, or nothing when `value` is nil (as `JSONEncoder` leaves absent optionals out).
    mutating func field<Value: ReportJSONValue>(_ name: StaticString, _ value: Value?) {
        guard let value else { return }
        field(name, value)
    }

    // MARK: Values

    mutating func value(_ number: Int) {
        separate()
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(number.magnitude)
        needsComma = true
    }

    mutating func value(_ number: UInt64) {
        separate()
        digits(UInt(number))
        needsComma = true
    }

    mutating func value(_ flag: Bool) {
        separate()
        if flag {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
        needsComma = true
    }

    mutating func value<Kind>(_ id: Identifier<Kind>) { value(id.rawValue) }

    /// A string, escaped as Foundation's writer escapes it: `"`, `\` and `/` with a backslash,
    /// the usual control characters by their letters, the others as `\u00XX`; the rest as is.
    mutating func value(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var clean = 0
            for index in utf8.indices {
                let byte = utf8[index]
                let escape: UInt8?
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape = byte
                case 0x08: escape = UInt8(ascii: "b")
                case 0x0C: escape = UInt8(ascii: "f")
                case 0x0A: escape = UInt8(ascii: "n")
                case 0x0D: escape = UInt8(ascii: "r")
                case 0x09: escape = UInt8(ascii: "t")
                case 0..<0x20: escape = 0
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                clean = index + 1
                bytes.append(UInt8(ascii: "\\"))
                if let escape, escape != 0 {
                    bytes.append(escape)
                } else {
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func digits(_ number: UInt) {
        guard number >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var position = buffer.count
            var rest = number
            while rest > 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: buffer[position...])
        }
    }
}

/// A value the report's writer writes by itself (`ReportJSONWriter.field`).
protocol ReportJSONValue {
    /// Writes the value at the writer's position.
    func write(into writer: inout ReportJSONWriter)
}

extension Int: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.value(self) }
}

extension UInt64: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.value(self) }
}

extension Bool: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.value(self) }
}

extension String: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.value(self) }
}

extension Identifier: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.value(self) }
}

extension Array: ReportJSONValue where Element: ReportJSONValue {
    func write(into writer: inout ReportJSONWriter) { writer.array(self) { writer, element in element.write(into: &writer) } }
}
