import Synchronization

/// Operation class names interned for the life of the process, so that an event names its
/// operation's class by a small index instead of carrying a string.
///
/// Every announcement the bridge makes names a class, and the announcement is copied several
/// times between the adding thread and every consumer: a class name longer than fifteen bytes
/// is a heap string, and each copy retained and released it, on a reference count every thread
/// that adds or reads operations shares. Interned, a copy retains nothing for the name.
///
/// A program has a few hundred operation classes at most; past `capacity` names are not interned
/// (and kept as strings, at the old cost). Names are never removed: an index stays valid for
/// the process's life, and a reader needs no lock.
package final class InternedTypeNames: @unchecked Sendable {
    // Safety: slot i is written once, by the thread holding `writing`, before the releasing
    // store that makes `count` exceed i; a reader reads slot i only after an acquiring load saw
    // that count. Slots are never written again or freed. `index` is touched only by the thread
    // holding `writing`.
    //
    // `writing` is a flag taken by compare-and-swap, not a lock: this module uses nothing but
    // the standard library, and the Synchronization module's `Mutex` waits on a futex that
    // ThreadSanitizer does not see on Linux (it reported the dictionary's accesses under it as
    // a race). A writer holds it for one dictionary lookup and insert, once per class.
    /// The table every monitor of the process shares.
    package static let shared = InternedTypeNames(capacity: 4_096)

    /// Names the table can hold.
    package let capacity: Int
    private let slots: UnsafeMutablePointer<String>
    private let count = Atomic<Int>(0)
    private let writing = Atomic<Bool>(false)
    private var index: [String: UInt32] = [:]

    /// A table with room for `capacity` names (allocated at once; tests make small ones).
    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        slots = .allocate(capacity: self.capacity)
    }

    deinit {
        slots.deinitialize(count: count.load(ordering: .acquiring))
        slots.deallocate()
    }

    /// The index of `name`, added if new; nil when the table is full.
    package func intern(_ name: String) -> UInt32? {
        while !writing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        defer { writing.store(false, ordering: .releasing) }
        if let known = index[name] { return known }
        let next = count.load(ordering: .relaxed)
        guard next < capacity else { return nil }
        (slots + next).initialize(to: name)
        count.store(next + 1, ordering: .releasing)
        index[name] = UInt32(next)
        return UInt32(next)
    }

    /// The name at `position`, which `intern` returned.
    package func name(at position: UInt32) -> String {
        let known = count.load(ordering: .acquiring)
        precondition(Int(position) < known, "type name \(position) was never interned (\(known) are)")
        return slots[Int(position)]
    }

    /// Names interned so far.
    package var internedCount: Int { count.load(ordering: .acquiring) }
}
