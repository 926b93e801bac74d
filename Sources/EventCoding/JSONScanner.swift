/// Where a string value lies in the line, and whether it has escapes to undo.
struct StringSlot {
    var start: Int
    var end: Int
    var escaped: Bool
}

/// The reading half of the hand-written coder: a cursor over one line's bytes.
///
/// Every read goes through `current`, which answers 0 past the end, so no input can make it read
/// outside the line (0 is never valid where a value is expected, and a raw 0 inside a string is
/// a control character, which is refused). Nothing here recurses: nested values in unknown
/// fields and keyframe states are skipped with an explicit stack.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always) var current: UInt8 { index < bytes.count ? bytes[index] : 0 }
    var atEnd: Bool { index >= bytes.count }

    /// A syntax error at the cursor.
    func syntax(_ reason: String) -> LineDecodingError {
        .corrupt("not valid JSON: " + reason, column: index + 1)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inline(__always) mutating func expect(_ byte: UInt8, _ what: StaticString) throws(LineDecodingError) {
        guard current == byte, !atEnd else { throw syntax("expected \(what), found \(found)") }
        index += 1
    }

    /// What is at the cursor, for messages.
    var found: String {
        guard !atEnd else { return "the end of the line" }
        let byte = current
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    /// The JSON type of the value at the cursor, for type errors.
    var valueType: String {
        switch current {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): "a number"
        default: found
        }
    }

    /// Consumes `null` if it is at the cursor.
    mutating func scanNull() throws(LineDecodingError) -> Bool {
        guard current == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    mutating func scanBool() throws(LineDecodingError) -> Bool? {
        switch current {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) throws(LineDecodingError) {
        let count = word.utf8CodeUnitCount
        let matches = index + count <= bytes.count
            && word.equals(UnsafeBufferPointer(rebasing: bytes[index ..< index + count]))
        guard matches else { throw syntax("expected \(word)") }
        index += count
    }

    /// A string at the cursor (which must be at its opening quote): checks its escapes and that
    /// it holds no raw control character, and says where it lies.
    mutating func scanString() throws(LineDecodingError) -> StringSlot {
        try expect(JSONText.quote, "a string")
        let start = index
        var escaped = false
        while true {
            skipPlainBytes()
            guard index < bytes.count else { throw syntax("the line ends inside a string") }
            let byte = bytes[index]
            if byte == JSONText.quote {
                index += 1
                return StringSlot(start: start, end: index - 1, escaped: escaped)
            }
            if byte == JSONText.backslash {
                escaped = true
                index += 1
                switch current {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0 ..< 4 {
                        guard Self.hexValue(current) != nil else { throw syntax("\\u must be followed by 4 hex digits") }
                        index += 1
                    }
                default:
                    throw syntax("unknown escape \\\(found)")
                }
            } else if byte < 0x20 {
                throw syntax("raw control character 0x\(String(byte, radix: 16)) in a string (must be escaped)")
            } else {
                index += 1
            }
        }
    }

    /// Skips, eight at a time, bytes that need no attention inside a string: no quote, no
    /// backslash, no control character (the word tests of "Bit Twiddling Hacks": a byte of
    /// `x ^ c` is zero where `x` has the byte `c`).
    @inline(__always) private mutating func skipPlainBytes() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = word ^ (ones &* UInt64(JSONText.quote))
            let backslashes = word ^ (ones &* UInt64(JSONText.backslash))
            let hasQuote = (quotes &- ones) & ~quotes
            let hasBackslash = (backslashes &- ones) & ~backslashes
            let hasControl = (word &- ones &* 0x20) & ~word
            if (hasQuote | hasBackslash | hasControl) & highs != 0 { return }
            index += 8
        }
    }

    /// The bytes of an unescaped string (the common case: compared in place, no copy).
    func raw(_ slot: StringSlot) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[slot.start ..< slot.end])
    }

    /// The string's text: escapes undone, lone surrogates and invalid UTF-8 replaced by U+FFFD.
    func text(_ slot: StringSlot) -> String {
        guard slot.escaped else { return String(decoding: raw(slot), as: UTF8.self) }
        return String(decoding: unescaped(slot), as: UTF8.self)
    }

    /// The UTF-8 of an escaped string with its escapes undone (the slot was checked by `scanString`).
    func unescaped(_ slot: StringSlot) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(slot.end - slot.start)
        var position = slot.start
        func hex4(at start: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0 ..< 4 { value = value << 4 | UInt32(Self.hexValue(bytes[start + offset]) ?? 0) }
            return value
        }
        while position < slot.end {
            let byte = bytes[position]
            guard byte == JSONText.backslash else {
                out.append(byte)
                position += 1
                continue
            }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hex4(at: position)
                position += 4
                if (0xD800 ..< 0xDC00).contains(unit), position + 6 <= slot.end, bytes[position] == JSONText.backslash,
                   bytes[position + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(at: position + 2)
                    if (0xDC00 ..< 0xE000).contains(low) {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        position += 6
                    }
                }
                UTF8.encode(Unicode.Scalar(unit) ?? "\u{FFFD}") { out.append($0) }
            default: out.append(escape) // \" \\ \/
            }
        }
        return out
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
