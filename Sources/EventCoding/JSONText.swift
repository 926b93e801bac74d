/// The writing half of the hand-written coder: writes one line's JSON text through a raw pointer.
///
/// A line is written into scratch memory sized by an upper bound worked out beforehand, then
/// appended to the caller's buffer in one copy: appending to an `Array` piece by piece costs a
/// capacity and uniqueness check per piece, which was most of the time an event took. Every
/// write still checks the bound, so a wrong bound stops the program instead of writing past it.
///
/// Every line starts with its `kind`, so a line is opened with `open(kind:)` and every later
/// field is written with a leading comma; no state is needed between calls.
struct JSONText {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    /// Bytes a line's fixed parts can take: every key, word, number and punctuation of the
    /// largest line kind (`operationAdded`, about 490 bytes with 20-digit numbers).
    static let fixedBound = 640

    /// The most a string can take: quotes, and 6 bytes (`\u001f`) per byte in the worst case.
    static func bound(_ string: String) -> Int { 2 + 6 * string.utf8.count }

    /// Writes one line of at most `bound` bytes with `body`, then appends it to `bytes`.
    static func write(bound: Int, into bytes: inout [UInt8], _ body: (inout JSONText) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            var text = JSONText(base: scratch.baseAddress!, capacity: bound)
            body(&text)
            bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: text.count))
        }
    }

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inline(__always) private mutating func reserve(_ needed: Int) {
        precondition(count + needed <= capacity, "event line longer than its bound")
    }

    @inline(__always) private mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// Keys and words are a few bytes: copied in a loop here rather than by a `memmove` call,
    /// which took a third of an event's time.
    @inline(__always) private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { utf8 in
            reserve(utf8.count)
            for index in 0 ..< utf8.count { base[count + index] = utf8[index] }
            count += utf8.count
        }
    }

    /// Writes `{"kind":"<kind>"`.
    mutating func open(kind: StaticString) {
        raw(#"{"kind":""#)
        raw(kind)
        byte(Self.quote)
    }

    /// Writes `{"kind":` and a kind that is not one of the format's words.
    mutating func open(kindText kind: String) {
        raw(#"{"kind":"#)
        string(kind)
    }

    /// Writes `}`.
    mutating func close() {
        byte(UInt8(ascii: "}"))
    }

    /// Writes `,"<key>":`.
    mutating func key(_ key: StaticString) {
        raw(#",""#)
        raw(key)
        raw(#"":"#)
    }

    mutating func field(_ name: StaticString, _ value: UInt64) {
        key(name)
        unsigned(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        signed(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    /// A field whose value is one of a fixed set of ASCII words (an enum case name).
    mutating func field(_ name: StaticString, word: StaticString) {
        key(name)
        byte(Self.quote)
        raw(word)
        byte(Self.quote)
    }

    mutating func field(_ name: StaticString, string value: String) {
        key(name)
        string(value)
    }

    /// An array of integers (bound: 21 bytes per element).
    mutating func field(_ name: StaticString, integers values: some Collection<Int>) {
        key(name)
        byte(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            signed(value)
        }
        byte(UInt8(ascii: "]"))
    }

    /// A field whose value is JSON text already checked to be one value without line breaks.
    mutating func field(_ name: StaticString, json: [UInt8]) {
        key(name)
        reserve(json.count)
        json.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
        count += json.count
    }

    private mutating func signed(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(UInt64(value.magnitude))
    }

    /// Decimal digits, two at a time from a table, back to front after counting them.
    private mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, value >= power {
            digits += 1
            power = power &* 10
        }
        reserve(digits)
        var remaining = value
        var position = count + digits
        Self.digitPairs.withUnsafeBufferPointer { pairs in
            while remaining >= 100 {
                let pair = Int(remaining % 100) * 2
                remaining /= 100
                position -= 2
                base[position] = pairs[pair]
                base[position + 1] = pairs[pair + 1]
            }
            if remaining >= 10 {
                let pair = Int(remaining) * 2
                base[position - 2] = pairs[pair]
                base[position - 1] = pairs[pair + 1]
            } else {
                base[position - 1] = UInt8(truncatingIfNeeded: remaining) &+ UInt8(ascii: "0")
            }
        }
        count += digits
    }

    /// "00", "01", ... "99" as 200 bytes.
    private static let digitPairs: [UInt8] = (0 ..< 100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else (all of
    /// Unicode) written as its UTF-8 so that files stay readable and greppable.
    mutating func string(_ value: String) {
        byte(Self.quote)
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == Self.quote || byte == Self.backslash else { continue }
                copy(utf8, runStart ..< index)
                runStart = index + 1
                self.byte(Self.backslash)
                switch byte {
                case Self.quote, Self.backslash: self.byte(byte)
                case 0x0A: self.byte(UInt8(ascii: "n"))
                case 0x0D: self.byte(UInt8(ascii: "r"))
                case 0x09: self.byte(UInt8(ascii: "t"))
                case 0x08: self.byte(UInt8(ascii: "b"))
                case 0x0C: self.byte(UInt8(ascii: "f"))
                default:
                    raw("u00")
                    self.byte(Self.hexDigit(byte >> 4))
                    self.byte(Self.hexDigit(byte & 0x0F))
                }
            }
            copy(utf8, runStart ..< utf8.count)
        }
        byte(Self.quote)
    }

    private mutating func copy(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        reserve(range.count)
        (base + count).update(from: utf8.baseAddress! + range.lowerBound, count: range.count)
        count += range.count
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    // Computed, not stored: a stored static is a lazily initialised global, and its every read
    // goes through a one-time-initialisation check. The scanners read these once per byte; under
    // ThreadSanitizer each check was a system call (100 consoles decoding their streams took
    // 88 s there, 0.5 s without it).
    @inline(__always) static var quote: UInt8 { 0x22 }
    @inline(__always) static var backslash: UInt8 { 0x5C }
}
