internal import CacheHints

/// A stream's operations and queues by id: records in one dense array, found through an
/// open-addressing index keyed by the id's integer.
///
/// Why not a `Dictionary`: ids are small consecutive integers, so a multiplicative hash spreads
/// them perfectly, while `Dictionary` pays a seeded SipHash on every lookup; the reducer looks an
/// operation up several times per event, and reducing at millions of events per second needs
/// those lookups to cost a few nanoseconds. Records are stored as optionals so that `_modify`
/// can hand out the stored value in place (no copy of the record's arrays and strings).
public struct RecordsByID<Record: IdentifiedRecord>: Sendable {
    @usableFromInline var records: [Record?] = []
    /// `records[i]!.id.rawValue`, kept apart so that a lookup compares integers and never
    /// touches (or copies) a record.
    @usableFromInline var keys: [Int] = []
    /// Index into `records` plus one; 0 is an empty slot. Capacity is a power of two.
    @usableFromInline var slots: [Int32] = Array(repeating: 0, count: 16)
    @usableFromInline var shift: UInt64 = 60
    /// The size the table is expected to reach (see `grownCapacity()`); 0: none known.
    @usableFromInline package var growthTarget = 0

    /// An empty table.
    @inlinable public init() {}

    /// Number of operations.
    @inlinable public var count: Int { records.count }

    /// True when there is none.
    @inlinable public var isEmpty: Bool { records.isEmpty }

    /// Every record, in no particular order.
    @inlinable public var values: Values { Values(records: records) }

    /// Every id, in no particular order.
    @inlinable public var ids: [Record.Key] { records.map { $0!.id } }

    /// Every id's integer in slot order (see `slot(of:)`): the table's own array, so that a
    /// pass that needs only the ids does not read every record.
    @inlinable package var keyValues: [Int] { keys }

    /// The record of `id`; setting nil removes it. Reading borrows the stored record, so that
    /// `table[id]?.state` reads one field without copying the record's arrays and strings.
    @inlinable public subscript(id: Record.Key) -> Record? {
        // A plain inlined getter, not a `_read` coroutine: inlined, `table[id]?.state` compiles
        // to one field load, while a coroutine materialises (retains) the whole record.
        @inline(__always) get {
            guard let index = index(of: id) else { return nil }
            return records[index]
        }
        _modify {
            if let index = index(of: id) {
                yield &records[index]
                // Checked through a pointer and by its case alone: reading the element through
                // the array, or comparing it with nil, copies the whole record.
                let removed = records.withUnsafeBufferPointer { buffer -> Bool in
                    if case .none = buffer[index] { return true }
                    return false
                }
                if removed { remove(at: index, id: id) }
            } else {
                var added: Record? = nil
                yield &added
                if let record = added.take() { insert(record) }
            }
        }
    }

    /// Removes and returns the record of `id` (moved out, not copied).
    @inlinable public mutating func remove(_ id: Record.Key) -> Record? {
        guard let index = index(of: id) else { return nil }
        let record = records[index].take()
        remove(at: index, id: id)
        return record
    }

    /// Removes and destroys the record of `id` where it lies, moving the last record into its
    /// place: one move of one record, where `remove(_:)` moves the removed record out and the
    /// last one twice. Returns false when absent.
    @inlinable @discardableResult
    mutating func discard(_ id: Record.Key) -> Bool {
        guard let index = index(of: id) else { return false }
        let last = records.count - 1
        records.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            (base + index).deinitialize(count: 1)
            if index != last {
                (base + index).moveInitialize(from: base + last, count: 1)
                (base + last).initialize(to: nil)
            } else {
                (base + index).initialize(to: nil)
            }
        }
        // The last entry is now empty; the index follows as in `remove(at:id:)`.
        let mask = slots.count - 1
        var hole = home(id.rawValue)
        while Int(slots[hole]) - 1 != index { hole = (hole + 1) & mask }
        if index != last {
            slots[slot(of: keys[last])] = Int32(index + 1)
            keys[index] = keys[last]
        }
        records.removeLast()
        keys.removeLast()
        closeHole(hole)
        return true
    }

    /// Reads from the stored record of `id` in place (the record is borrowed through a pointer,
    /// never copied: a copy would retain every array and string it holds). Nil when absent.
    @inlinable @inline(__always)
    public func read<T>(_ id: Record.Key, _ body: (borrowing Record) -> T) -> T? {
        guard let index = index(of: id) else { return nil }
        return records.withUnsafeBufferPointer { buffer in body(Self.payload(buffer.baseAddress! + index).pointee) }
    }

    /// Calls `body` with a pointer to every record, valid only during the call: for passes over
    /// the whole table on the frame path. Read fields through it (`record.pointee.state`): that
    /// loads just the field, where passing the record itself would copy it (and retain its
    /// arrays and strings) to protect it from writes the compiler cannot rule out.
    @inlinable @inline(__always)
    package func forEach(_ body: (UnsafePointer<Record>) -> Void) {
        records.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in buffer.indices { body(Self.payload(base + index)) }
        }
    }

    /// The record inside a stored optional, addressed directly. Every stored entry is non-nil
    /// outside `_modify` (the table is dense), and an optional's payload sits at its start; going
    /// through the pointer hands the record to a `borrowing` closure without the copy (and the
    /// retains of its arrays and strings) that binding `case .some(let record)` makes.
    @inlinable @inline(__always)
    static func payload(_ entry: UnsafePointer<Record?>) -> UnsafePointer<Record> {
        assert(entry.pointee != nil, "empty entry in a dense table")
        return UnsafeRawPointer(entry).assumingMemoryBound(to: Record.self)
    }

    /// Calls `body` with a pointer to the stored record of `id`, valid only during the call (nil
    /// when absent): for the reducer's hot paths in other modules, where `read(_:_:)`'s borrowed
    /// record is copied whole (its arrays and strings retained and released) to read a field or
    /// two. Read fields through the pointer (`$0.pointee.state`).
    @inlinable @inline(__always)
    package func withRecord<T>(_ id: Record.Key, _ body: (UnsafePointer<Record>) -> T) -> T? {
        guard let index = index(of: id) else { return nil }
        return records.withUnsafeBufferPointer { buffer in body(Self.payload(buffer.baseAddress! + index)) }
    }

    /// The record's place in the dense storage (0..<count): valid until the table changes; lets
    /// a pass keep per-operation scratch in a plain array instead of a dictionary.
    @inlinable @inline(__always)
    package func slot(of id: Record.Key) -> Int? { index(of: id) }

    /// Reads the record at a dense slot in place (see `slot(of:)`).
    @inlinable @inline(__always)
    package func read<T>(slot: Int, _ body: (borrowing Record) -> T) -> T {
        records.withUnsafeBufferPointer { buffer in body(Self.payload(buffer.baseAddress! + slot).pointee) }
    }

    /// Changes the record at a dense slot in place (see `slot(of:)`).
    @inlinable @inline(__always)
    package mutating func update<T>(slot: Int, _ body: (inout Record) -> T) -> T { body(&records[slot]!) }

    /// True when `id` is held (no copy of the record).
    @inlinable public func contains(_ id: Record.Key) -> Bool { index(of: id) != nil }

    /// Changes the record of `id` in place (nil when absent). Cheaper than writing through the
    /// subscript several times: one lookup, and no check afterwards for a removal.
    @inlinable @inline(__always)
    package mutating func update<T>(_ id: Record.Key, _ body: (inout Record) -> T) -> T? {
        guard let index = index(of: id) else { return nil }
        return body(&records[index]!)
    }

    /// Calls `body` with every record in place and its dense slot (see `slot(of:)`): for a pass
    /// that rewrites what a consumer derives, without a lookup per record.
    @inlinable package mutating func updateEach(_ body: (Int, inout Record) -> Void) {
        for index in records.indices { body(index, &records[index]!) }
    }

    // MARK: Prefetching

    /// Starts loading the index entry where `id`'s lookup begins, without waiting for it: the
    /// first step of fetching a record that will be needed a little later (see `prefetchRecord`).
    @inline(__always)
    package func prefetchIndex(of id: Record.Key) {
        slots.withUnsafeBufferPointer { opscope_prefetch($0.baseAddress! + home(id.rawValue)) }
    }

    /// Starts loading the key and the record that the index entry of `id` points at, and the
    /// keys of the entries after it (removing the record reads them to close its entry's hole),
    /// without waiting for them. Unchecked on purpose: when the entry belongs to another id (a
    /// probe run), the wrong record is fetched and nothing else happens. Reads the entries
    /// themselves, so call `prefetchIndex(of:)` some steps before.
    @inline(__always)
    package func prefetchRecord(of id: Record.Key) {
        let mask = slots.count - 1
        let start = home(id.rawValue)
        let entry = Int(slots[start]) - 1
        guard entry >= 0, entry < records.count else { return }
        keys.withUnsafeBufferPointer { keys in
            var slot = start
            for _ in 0..<3 {
                let next = Int(slots[slot]) - 1
                guard next >= 0, next < keys.count else { break }
                opscope_prefetch(keys.baseAddress! + next)
                slot = (slot + 1) & mask
            }
        }
        records.withUnsafeBufferPointer { buffer in
            // Every 64-byte cache line the record touches: it may start anywhere in one.
            let start = Int(bitPattern: buffer.baseAddress! + entry)
            let end = start + MemoryLayout<Record?>.stride
            for line in stride(from: start & ~63, to: end, by: 64) { opscope_prefetch(UnsafeRawPointer(bitPattern: line)) }
        }
    }

    // MARK: Index

    @inlinable @inline(__always)
    func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inlinable @inline(__always)
    func index(of id: Record.Key) -> Int? {
        let mask = slots.count - 1
        let key = id.rawValue
        var slot = home(key)
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let index = Int(entry) - 1
            if keys[index] == key { return index }
            slot = (slot + 1) & mask
        }
    }

    @inlinable func slot(of key: Int) -> Int {
        let mask = slots.count - 1
        var slot = home(key)
        while keys[Int(slots[slot]) - 1] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// Adds the record of an id the table does not hold (moved in, not copied).
    @inlinable mutating func insert(_ record: consuming Record) {
        if (records.count + 1) * 4 > slots.count * 3 { grow() }
        if records.count == records.capacity {
            let wanted = grownCapacity()
            records.reserveCapacity(wanted)
        }
        // Kept in step with the records (the allocator may round the two differently).
        if keys.count == keys.capacity { keys.reserveCapacity(records.capacity) }
        let key = record.id.rawValue
        keys.append(key)
        records.append(record)
        place(key, index: records.count - 1)
    }

    /// The capacity to grow to when the records fill their array.
    ///
    /// Twice as many up to 1,024. Then straight to `growthTarget` (the size a stream's
    /// retention says the table will reach) in one step. Growing by a quarter at a time, a
    /// history filling to its 20,000 finished operations copied every record about four times
    /// over, each time into fresh pages: the copies and their page faults were 28% of the
    /// samples of the history's fold in `opscope-bench hub`, 15% after this change (what is left
    /// is mostly the first write to each reserved page). Reserved pages never written cost no
    /// resident memory (the heap's own count of bytes in use includes them). Past the target, a
    /// quarter more each time, not twice as many: records are large, and a table of 25,000
    /// would otherwise hold room for 40,000.
    @inlinable func grownCapacity() -> Int {
        let count = records.count
        if count < 1_024 { return max(16, count * 2) }
        if count < growthTarget { return growthTarget }
        return count + count / 4
    }

    @inlinable mutating func place(_ key: Int, index: Int) {
        let mask = slots.count - 1
        var slot = home(key)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index + 1)
    }

    @inlinable mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        shift -= 1
        for index in keys.indices { place(keys[index], index: index) }
    }

    /// Removes the (already nil) record at `index`: the last record moves into its place, and
    /// the index entry is deleted by shifting later entries of its probe run back.
    @inlinable mutating func remove(at index: Int, id: Record.Key) {
        let mask = slots.count - 1
        // Find the removed id's slot by probing for the entry that points at `index`.
        var hole = home(id.rawValue)
        while Int(slots[hole]) - 1 != index { hole = (hole + 1) & mask }
        let last = records.count - 1
        if index != last {
            slots[slot(of: keys[last])] = Int32(index + 1)
            // The last record moves into the (empty) entry: moved, not swapped, since a swap of
            // two large records copies both through a temporary.
            records[index] = records.removeLast()
            keys[index] = keys.removeLast()
        } else {
            records.removeLast()
            keys.removeLast()
        }
        closeHole(hole)
    }

    /// Empties the index entry `hole` (its record is gone): backward-shift deletion keeps every
    /// probe run unbroken without tombstones.
    @inlinable mutating func closeHole(_ hole: Int) {
        let mask = slots.count - 1
        var hole = hole
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let entry = Int(slots[next]) - 1
            let wanted = home(keys[entry])
            // Move the entry into the hole if the hole lies on its way from `wanted` to `next`.
            let distanceToNext = (next - wanted) & mask
            let distanceToHole = (hole - wanted) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }

    /// The records, as a random-access collection.
    public struct Values: RandomAccessCollection, Sendable {
        @usableFromInline let records: [Record?]
        @inlinable init(records: [Record?]) { self.records = records }
        /// 0.
        @inlinable public var startIndex: Int { 0 }
        /// The number of records.
        @inlinable public var endIndex: Int { records.count }
        /// The record at a dense slot.
        @inlinable public subscript(position: Int) -> Record { records[position]! }
    }
}

/// An id `RecordsByID` can index by: a small integer.
public protocol RecordKey: Hashable, Sendable {
    /// The id's integer.
    var rawValue: Int { get }
}

/// A record that carries its own id, as `RecordsByID` holds them.
public protocol IdentifiedRecord: Sendable {
    /// Its id type.
    associatedtype Key: RecordKey
    /// Its id.
    var id: Key { get }
}

extension Identifier: RecordKey {}

/// A stream's operations.
public typealias OperationRecords = RecordsByID<OperationRecord>
/// A stream's queues.
public typealias StreamQueues = RecordsByID<StreamQueue>
