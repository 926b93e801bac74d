/// A number read as an integer field.
enum ScannedInteger {
    /// Sign and magnitude (`-0` is zero).
    case integer(negative: Bool, magnitude: UInt64)
    /// A valid JSON number with a fraction or an exponent.
    case notInteger
    /// An integer with more digits than 64 bits hold.
    case outOfRange
}

extension JSONScanner {
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The number at the cursor (which must start with `-` or a digit), read as an integer.
    mutating func scanInteger() throws(LineDecodingError) -> ScannedInteger {
        let start = index
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard Self.isDigit(current) else { throw syntax("a number needs digits, found \(found)") }
            while Self.isDigit(current) {
                let (times10, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carried) = times10.addingReportingOverflow(UInt64(current - UInt8(ascii: "0")))
                overflow = overflow || overflowed || carried
                magnitude = sum
                index += 1
            }
        }
        switch current {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            index = start
            try skipNumber()
            return .notInteger
        case UInt8(ascii: "0") ... UInt8(ascii: "9"):
            throw syntax("a number cannot start with 0")
        default:
            return overflow ? .outOfRange : .integer(negative: negative, magnitude: magnitude)
        }
    }

    /// Skips a JSON number, checking its grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func skipNumber() throws(LineDecodingError) {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if Self.isDigit(current) { throw syntax("a number cannot start with 0") }
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }

    private mutating func digits() throws(LineDecodingError) {
        guard Self.isDigit(current) else { throw syntax("expected a digit, found \(found)") }
        while Self.isDigit(current) { index += 1 }
    }

    /// Skips any JSON value, checking its syntax. Containers are tracked on an explicit stack (one
    /// entry per open `{` or `[`), never by recursion, so a line of a million `[` is an error, not
    /// a stack overflow.
    mutating func skipValue() throws(LineDecodingError) {
        var openObjects: [Bool] = [] // true: inside an object, false: inside an array
        while true {
            // A value is expected here.
            skipWhitespace()
            switch current {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = current == UInt8(ascii: "{")
                index += 1
                skipWhitespace()
                if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1 // empty: a whole value
                } else {
                    openObjects.append(isObject)
                    // An object's first member starts with its key; an array's with a value.
                    if isObject { try memberKey() }
                    continue
                }
            case JSONText.quote:
                _ = try scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                try skipNumber()
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                _ = try scanBool()
            case UInt8(ascii: "n"):
                _ = try scanNull()
            default:
                throw syntax("expected a value, found \(found)")
            }
            // A value ended: close every container that ends here, or move to the next element.
            while let inObject = openObjects.last {
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    if inObject { try memberKey() }
                    break
                }
                guard current == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")), !atEnd else {
                    throw syntax("expected ',' or '\(inObject ? "}" : "]")', found \(found)")
                }
                index += 1
                openObjects.removeLast()
            }
            if openObjects.isEmpty { return }
        }
    }

    /// `"key" :` inside an object being skipped.
    private mutating func memberKey() throws(LineDecodingError) {
        skipWhitespace()
        _ = try scanString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':'")
    }
}
