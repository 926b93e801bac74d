/// An operation's recent key changes packed into bytes: three to six bytes a change instead of
/// sixteen, in one small allocation per operation (a retained history holds many thousands).
///
/// Byte 0 counts the entries. Each entry is a header byte — key (bits 0-2), value (bit 3),
/// origin (bits 4-5), a detail follows (bit 6), the time lies before the base (bit 7) — then the
/// distance of its time from the base (the operation's `addedAt`) as an unsigned LEB128 varint,
/// then the detail as a zigzag varint when present. Times are kept relative to a base that never
/// changes, so dropping the oldest entry needs no re-encoding of the others.
struct KeyHistory: Sendable, Equatable {
    private var bytes: [UInt8] = []

    /// An empty history (no allocation until the first entry).
    init() {}

    /// How many entries are held.
    var count: Int { bytes.isEmpty ? 0 : Int(bytes[0]) }

    /// Appends a change, first dropping the oldest entries beyond `limit` (at most 255).
    mutating func append(_ change: KeyChange, base: UInt64, limit: Int) {
        let limit = min(limit, 255)
        guard limit > 0 else { return }
        if bytes.isEmpty {
            // Room for a typical life (added, ready, executing, finished) in one allocation.
            bytes.reserveCapacity(24)
            bytes.append(0)
        }
        while Int(bytes[0]) >= limit { dropOldest() }
        var header = change.key.rawValue & 0x07
        if change.value { header |= 0x08 }
        header |= Self.code(change.origin) << 4
        if change.detail != 0 { header |= 0x40 }
        let distance: UInt64
        if change.time >= base {
            distance = change.time - base
        } else {
            header |= 0x80
            distance = base - change.time
        }
        bytes.append(header)
        Self.appendVarint(distance, to: &bytes)
        if change.detail != 0 {
            let detail = Int64(change.detail)
            Self.appendVarint(UInt64(bitPattern: (detail << 1) ^ (detail >> 63)), to: &bytes)
        }
        bytes[0] += 1
    }

    /// The entries, oldest first, with absolute times.
    func decoded(base: UInt64) -> [KeyChange] {
        guard !bytes.isEmpty else { return [] }
        var result: [KeyChange] = []
        result.reserveCapacity(Int(bytes[0]))
        var position = 1
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

    /// Removes the oldest entry.
    private mutating func dropOldest() {
        guard bytes.count > 1 else { return }
        var end = 1
        let header = bytes[end]
        end += 1
        _ = Self.readVarint(bytes, &end)
        if header & 0x40 != 0 { _ = Self.readVarint(bytes, &end) }
        bytes.removeSubrange(1..<end)
        bytes[0] -= 1
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

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readVarint(_ bytes: [UInt8], _ position: inout Int) -> UInt64 {
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
