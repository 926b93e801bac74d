/// An operation's recent key changes packed into bytes: three to six bytes a change instead of
/// sixteen, kept inside the record while they fit in 22 bytes (a typical life: added, ready,
/// executing, finished), on the heap beyond that. A retained history holds many thousands of
/// operations, and the reducer adds one each few events: an allocation per operation was the
/// largest single cost of both (issue 18).
///
/// The entries: each is a header byte — key (bits 0-2), value (bit 3), origin (bits 4-5), a
/// detail follows (bit 6), the time lies before the base (bit 7) — then the distance of its time
/// from the base (the operation's `addedAt`) as an unsigned LEB128 varint, then the detail as a
/// zigzag varint when present. Times are kept relative to a base that never changes, so dropping
/// the oldest entry needs no re-encoding of the others.
///
/// Inline, byte 0 of `inline` counts the entries, byte 1 is the number of bytes in use (header
/// included) and the entries follow; once they outgrow it, `spill` holds the count byte and the
/// entries, and `inline` is unused.
struct KeyHistory: Sendable {
    private var inline: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var spill: [UInt8]?

    /// Bytes `inline` holds, its two header bytes included.
    private static let inlineCapacity = 24
    /// The longest entry: a header, a 64-bit varint (10 bytes), a zigzag 32-bit detail (5).
    private static let longestEntry = 16

    /// An empty history (no allocation until the entries outgrow the record).
    init() {}

    /// How many entries are held.
    var count: Int {
        if let spill { return spill.isEmpty ? 0 : Int(spill[0]) }
        return Int(UInt8(truncatingIfNeeded: inline.0))
    }

    /// Appends a change, first dropping the oldest entries beyond `limit` (at most 255).
    mutating func append(_ change: KeyChange, base: UInt64, limit: Int) {
        let limit = min(limit, 255)
        guard limit > 0 else { return }
        while count >= limit { dropOldest() }
        if spill == nil {
            // Encoded straight into the record when the longest entry would fit.
            let appended = withUnsafeMutableBytes(of: &inline) { bytes -> Bool in
                let used = max(2, Int(bytes[1]))
                guard used + Self.longestEntry <= Self.inlineCapacity else { return false }
                let length = Self.encode(change, base: base, into: UnsafeMutableRawBufferPointer(rebasing: bytes[used...]))
                bytes[0] += 1
                bytes[1] = UInt8(used + length)
                return true
            }
            if appended { return }
        }
        var entry: (UInt64, UInt64) = (0, 0)
        let length = withUnsafeMutableBytes(of: &entry) { Self.encode(change, base: base, into: $0) }
        withUnsafeBytes(of: &entry) { append(entry: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }

    /// The entries, oldest first, with absolute times.
    func decoded(base: UInt64) -> [KeyChange] {
        withEntries { count, bytes in
            var result: [KeyChange] = []
            result.reserveCapacity(count)
            var position = 0
            while position < bytes.count {
                let header = bytes[position]
                position += 1
                let distance = Self.readVarint(bytes, &position)
                var detail: Int32 = 0
                if header & 0x40 != 0 {
                    let zigzag = Self.readVarint(bytes, &position)
                    detail = Int32(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
                }
                let time = header & 0x80 != 0 ? base &- distance : base &+ distance
                result.append(KeyChange(time: time, key: KeyChange.Key(rawValue: header & 0x07) ?? .added,
                                        value: header & 0x08 != 0, origin: Self.origin((header >> 4) & 0x03), detail: detail))
            }
            return result
        }
    }

    /// Calls `body` with the number of entries and their bytes, wherever they are kept.
    private func withEntries<T>(_ body: (Int, UnsafeRawBufferPointer) -> T) -> T {
        if let spill {
            return spill.withUnsafeBytes { bytes in
                bytes.isEmpty ? body(0, bytes) : body(Int(bytes[0]), UnsafeRawBufferPointer(rebasing: bytes[1...]))
            }
        }
        var copy = inline
        return withUnsafeBytes(of: &copy) { bytes in
            let used = max(2, Int(bytes[1]))
            return body(Int(bytes[0]), UnsafeRawBufferPointer(rebasing: bytes[2..<used]))
        }
    }

    /// Appends one encoded entry, moving the history to the heap when it no longer fits inline.
    private mutating func append(entry: UnsafeRawBufferPointer) {
        if spill == nil {
            let used = max(2, Int(UInt8(truncatingIfNeeded: inline.0 >> 8)))
            if used + entry.count <= Self.inlineCapacity {
                withUnsafeMutableBytes(of: &inline) { bytes in
                    for (offset, byte) in entry.enumerated() { bytes[used + offset] = byte }
                    bytes[0] += 1
                    bytes[1] = UInt8(used + entry.count)
                }
                return
            }
            // Outgrown: the count and the entries move to the heap, with room for a few more.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(used - 1 + entry.count + 2 * Self.longestEntry)
            withUnsafeBytes(of: &inline) { inline in
                bytes.append(inline[0])
                bytes.append(contentsOf: inline[2..<used])
            }
            inline = (0, 0, 0)
            spill = bytes
        }
        spill!.append(contentsOf: entry)
        spill![0] += 1
    }

    /// Removes the oldest entry.
    private mutating func dropOldest() {
        if spill != nil {
            guard spill!.count > 1 else { return }
            var end = 1
            let header = spill![end]
            end += 1
            spill!.withUnsafeBytes { bytes in
                _ = Self.readVarint(bytes, &end)
                if header & 0x40 != 0 { _ = Self.readVarint(bytes, &end) }
            }
            spill!.removeSubrange(1..<end)
            spill![0] -= 1
            return
        }
        withUnsafeMutableBytes(of: &inline) { bytes in
            let used = Int(bytes[1])
            guard bytes[0] > 0, used > 2 else { return }
            var end = 2
            let header = bytes[end]
            end += 1
            _ = Self.readVarint(UnsafeRawBufferPointer(bytes), &end)
            if header & 0x40 != 0 { _ = Self.readVarint(UnsafeRawBufferPointer(bytes), &end) }
            let removed = end - 2
            for index in 2..<(used - removed) { bytes[index] = bytes[index + removed] }
            for index in (used - removed)..<used { bytes[index] = 0 }
            bytes[0] -= 1
            bytes[1] = UInt8(used - removed)
        }
    }

    /// Writes one entry into `bytes` (at least `longestEntry` long); returns its length.
    private static func encode(_ change: KeyChange, base: UInt64, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        var header = change.key.rawValue & 0x07
        if change.value { header |= 0x08 }
        header |= code(change.origin) << 4
        if change.detail != 0 { header |= 0x40 }
        let distance: UInt64
        if change.time >= base {
            distance = change.time - base
        } else {
            header |= 0x80
            distance = base - change.time
        }
        bytes[0] = header
        var length = writeVarint(distance, into: bytes, at: 1)
        if change.detail != 0 {
            let detail = Int64(change.detail)
            length = writeVarint(UInt64(bitPattern: (detail << 1) ^ (detail >> 63)), into: bytes, at: length)
        }
        return length
    }

    private static func code(_ origin: EventOrigin) -> UInt8 {
        switch origin {
        case .exact: 0
        case .sampled: 1
        case .inferred: 2
        }
    }

    private static func origin(_ code: UInt8) -> EventOrigin {
        switch code {
        case 1: .sampled
        case 2: .inferred
        default: .exact
        }
    }

    /// Writes `value` as a varint at `offset`; returns the offset after it.
    private static func writeVarint(_ value: UInt64, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var value = value
        var offset = offset
        while value >= 0x80 {
            bytes[offset] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            offset += 1
        }
        bytes[offset] = UInt8(value)
        return offset + 1
    }

    private static func readVarint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        return value
    }
}

extension KeyHistory: Equatable {
    /// The same entries, wherever each side keeps them.
    static func == (lhs: KeyHistory, rhs: KeyHistory) -> Bool {
        lhs.withEntries { leftCount, left in
            rhs.withEntries { rightCount, right in leftCount == rightCount && left.elementsEqual(right) }
        }
    }
}
