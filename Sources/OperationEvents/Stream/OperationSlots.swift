/// What the sequencer knows of every operation, by id, in memory bounded by the operations still
/// unfinished.
///
/// Ids are small integers handed out in the order operations are first seen, and operations
/// mostly finish in about that order, so the recent ones live in a ring indexed by id: a finished
/// operation costs nothing once the oldest unfinished one has moved past it. An operation that
/// stays unfinished while `maximumSpan` newer ones arrive (a stuck one, a deep suspended queue) is
/// moved to a dictionary instead, so the ring never grows past `maximumSpan` slots.
struct OperationSlots: Sendable {
    /// One operation's state.
    struct Slot: Sendable {
        var flags: SlotFlags = []
        /// While held: the dependency whose finish the held events wait for.
        var blocker = 0
        /// Dependencies that were unfinished when last looked at; pruned as they finish.
        var pending: [Int]?
    }

    /// Where an id stands.
    enum Phase: Equatable {
        /// Never announced, and newer than anything announced.
        case unseen
        /// Skipped: newer ids were announced first (or the id was never used).
        case gap
        /// Announced and not finished.
        case live
        /// Finished (or released): anything more about it is late.
        case done
    }

    private var slots: [Slot]
    /// Ids below `base` are done, or kept in `stragglers`.
    private(set) var base = 0
    /// Ids at or above `end` were never seen.
    private(set) var end = 0
    /// Unfinished (and skipped) ids older than the ring.
    private var stragglers: [Int: Slot] = [:]
    /// The most slots the ring may have.
    let maximumSpan: Int

    init(maximumSpan: Int = 16_384) {
        var span = 64
        while span < maximumSpan { span <<= 1 }
        self.maximumSpan = span
        slots = Array(repeating: Slot(), count: 64)
    }

    private var mask: Int { slots.count - 1 }

    /// Unfinished operations (for tests and statistics).
    var liveCount: Int {
        var count = stragglers.values.count { $0.flags.contains(.live) }
        for id in base..<end where slots[id & mask].flags.contains(.live) { count += 1 }
        return count
    }

    /// Slots in use: the ring's size plus the stragglers (for the memory bound's tests).
    var footprint: Int { slots.count + stragglers.count }

    func phase(of id: Int) -> Phase {
        if id >= end { return .unseen }
        let slot = id >= base ? slots[id & mask] : stragglers[id]
        guard let slot else { return .done }
        if slot.flags.contains(.live) { return .live }
        return slot.flags.contains(.done) ? .done : .gap
    }

    func isLive(_ id: Int) -> Bool { phase(of: id) == .live }

    /// The slot of a live operation.
    subscript(id: Int) -> Slot {
        get { id >= base ? slots[id & mask] : stragglers[id] ?? Slot() }
        set {
            if id >= base { slots[id & mask] = newValue } else { stragglers[id] = newValue }
        }
    }

    /// The flags of a live operation (cheaper than the whole slot: no array is retained).
    func flags(_ id: Int) -> SlotFlags {
        id >= base ? slots[id & mask].flags : stragglers[id]?.flags ?? []
    }

    mutating func insert(_ flags: SlotFlags, into id: Int) {
        if id >= base { slots[id & mask].flags.formUnion(flags) } else { stragglers[id]?.flags.formUnion(flags) }
    }

    mutating func remove(_ flags: SlotFlags, from id: Int) {
        if id >= base { slots[id & mask].flags.subtract(flags) } else { stragglers[id]?.flags.subtract(flags) }
    }

    /// Makes `id` live (it was unseen or a gap).
    mutating func announce(_ id: Int) {
        if id >= end { extend(to: id) }
        self[id] = Slot(flags: .live)
    }

    /// Marks a live operation finished and forgets everything about it.
    mutating func finish(_ id: Int) {
        if id < base {
            stragglers[id] = nil
            return
        }
        slots[id & mask] = Slot(flags: .done)
        while base < end, slots[base & mask].flags.contains(.done) {
            slots[base & mask] = Slot()
            base += 1
        }
    }

    // MARK: Dependencies

    /// Remembers the dependencies of `id` that are unfinished now (others can never hold it).
    mutating func addPending(_ dependencies: some Sequence<Int>, to id: Int) {
        var added: [Int] = []
        for dependency in dependencies where dependency != id && isLive(dependency) { added.append(dependency) }
        guard !added.isEmpty else { return }
        var slot = take(id)
        if slot.pending == nil { slot.pending = added } else { slot.pending!.append(contentsOf: added) }
        self[id] = slot
    }

    mutating func removePending(_ dependency: Int, from id: Int) {
        var slot = take(id)
        slot.pending?.removeAll { $0 == dependency }
        if slot.pending?.isEmpty == true { slot.pending = nil }
        self[id] = slot
    }

    /// The first dependency of `id` that has not finished, forgetting the finished ones on the
    /// way (each is looked at once after it finished, so the work is paid for by the event that
    /// named it).
    mutating func firstUnfinishedDependency(of id: Int) -> Int? {
        if id >= base, slots[id & mask].pending == nil { return nil }
        var slot = take(id)
        guard var pending = slot.pending else {
            self[id] = slot
            return nil
        }
        slot.pending = nil
        var found: Int?
        while let last = pending.last {
            if isLive(last) {
                found = last
                break
            }
            pending.removeLast()
        }
        if !pending.isEmpty { slot.pending = pending }
        self[id] = slot
        return found
    }

    /// The slot of `id`, with the table's copy emptied of its array so that the caller's copy is
    /// the only reference (changing it then costs no copy of the array).
    private mutating func take(_ id: Int) -> Slot {
        var slot = self[id]
        if id >= base { slots[id & mask].pending = nil } else { stragglers[id]?.pending = nil }
        if slot.pending?.isEmpty == true { slot.pending = nil }
        return slot
    }

    // MARK: The ring

    /// Makes room for ids up to `id`: grows the ring up to `maximumSpan`, then moves the oldest
    /// unfinished operations out to `stragglers`. Skipped ids that old are taken as used up: an
    /// announcement arriving after `maximumSpan` newer ones is not waited for.
    private mutating func extend(to id: Int) {
        if id - base >= slots.count { grow(toHold: id - base + 1) }
        let newBase = id - slots.count + 1
        if newBase > base {
            for old in base..<min(end, newBase) where slots[old & mask].flags.contains(.live) {
                stragglers[old] = slots[old & mask]
            }
            for old in base..<min(end, newBase) { slots[old & mask] = Slot() }
            base = newBase
        }
        end = id + 1
    }

    private mutating func grow(toHold span: Int) {
        var size = slots.count
        while size < span, size < maximumSpan { size <<= 1 }
        guard size > slots.count else { return }
        var grown = Array(repeating: Slot(), count: size)
        for id in base..<end { grown[id & (size - 1)] = slots[id & mask] }
        slots = grown
    }
}

/// Bits of an operation's slot.
struct SlotFlags: OptionSet, Sendable {
    let rawValue: UInt16
    /// Announced and not finished.
    static let live = SlotFlags(rawValue: 1 << 0)
    /// Its `started` was emitted.
    static let started = SlotFlags(rawValue: 1 << 1)
    /// Its `cancelled` was emitted (or it was announced cancelled): dependencies no longer hold it.
    static let cancelled = SlotFlags(rawValue: 1 << 2)
    /// Sampled or external: its finish cannot be reported exactly, so it is inferred when needed.
    static let inexact = SlotFlags(rawValue: 1 << 3)
    /// Some of its events wait in `CausalSequencer.held`.
    static let held = SlotFlags(rawValue: 1 << 4)
    /// On the stack of a `settle` (to notice cycles).
    static let settling = SlotFlags(rawValue: 1 << 5)
    /// Finished: the slot waits for the ring to move past it.
    static let done = SlotFlags(rawValue: 1 << 6)
    /// Instrumented: its finish is reported the moment Foundation reads it, before Foundation
    /// lets its dependents go, so a dependent's event waiting for it longer than the window is
    /// one that did not wait (an `isReady` override that ignores dependencies).
    static let announcesFinish = SlotFlags(rawValue: 1 << 7)
    /// It ran ahead of an unfinished dependency: its events no longer wait for dependencies.
    static let wentAhead = SlotFlags(rawValue: 1 << 8)
}
