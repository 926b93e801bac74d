import Foundation
import OperationEvents

/// The foreign operations the monitor knows by identity, hooked and sampled, in one table.
/// Part of the `Registry`, guarded by its lock.
///
/// An operation is either hooked (an armed sentinel watches it in an observed queue) or sampled
/// (seen only by sampling, or finished and kept weakly until released), never both. One table
/// lets a hooked operation's finish change its entry's kind with a single lookup: that runs on
/// the finishing thread before Foundation starts the queue's next operation, so with a queue of
/// one every lookup there delays the chain (two tables took two, each a likely cache miss in a
/// table of thousands).
struct ObjectTable {
    enum Entry {
        case hooked(FinishSentinel)
        case sampled(SampledEntry)
    }

    private(set) var entries: [ObjectIdentifier: Entry] = [:]

    /// The armed sentinel filed for the operation. Setting one replaces whatever was filed;
    /// setting nil removes a hooked entry only.
    subscript(hooked object: ObjectIdentifier) -> FinishSentinel? {
        get {
            if case .hooked(let sentinel)? = entries[object] { return sentinel }
            return nil
        }
        set {
            if let newValue {
                entries[object] = .hooked(newValue)
            } else if case .hooked? = entries[object] {
                entries[object] = nil
            }
        }
    }

    /// The sampled entry filed for the operation. Setting one replaces whatever was filed;
    /// setting nil removes a sampled entry only.
    subscript(sampled object: ObjectIdentifier) -> SampledEntry? {
        get {
            if case .sampled(let entry)? = entries[object] { return entry }
            return nil
        }
        set {
            if let newValue {
                entries[object] = .sampled(newValue)
            } else if case .sampled? = entries[object] {
                entries[object] = nil
            }
        }
    }

    /// The id filed for `operation`, in one lookup: its armed sentinel's, or its sampled entry's
    /// when that entry is still this operation's (an identifier can be reused after a release).
    func id(of operation: Operation) -> OperationID? {
        switch entries[ObjectIdentifier(operation)] {
        case .hooked(let sentinel)?: sentinel.id
        case .sampled(let entry)? where entry.operation === operation: entry.id
        default: nil
        }
    }

    /// Files `sentinel` for the operation and returns what was filed before (one lookup).
    mutating func fileHooked(_ sentinel: FinishSentinel, for object: ObjectIdentifier) -> Entry? {
        entries.updateValue(.hooked(sentinel), forKey: object)
    }

    /// A hooked operation finished: its entry becomes `identity`, in one lookup. When another
    /// sentinel is filed under the identifier, that one stays and false is returned.
    mutating func finishHooked(_ object: ObjectIdentifier, sentinel: FinishSentinel, becoming identity: SampledEntry) -> Bool {
        let previous = entries.updateValue(.sampled(identity), forKey: object)
        if case .hooked(let filed)? = previous, filed !== sentinel {
            entries[object] = previous
            return false
        }
        return true
    }

    /// Every sampled entry (a walk of the whole table: for commands and snapshots, not ticks).
    var sampledEntries: [SampledEntry] {
        entries.values.compactMap { entry in
            if case .sampled(let sampled) = entry { return sampled }
            return nil
        }
    }

    /// How many sampled entries are filed (a walk; for tests).
    var sampledCount: Int { sampledEntries.count }

    /// How many armed sentinels are filed (a walk; for tests).
    var hookedCount: Int {
        entries.values.reduce(0) { count, entry in
            if case .hooked = entry { return count + 1 }
            return count
        }
    }
}
