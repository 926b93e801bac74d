import Foundation
import Synchronization
import OperationEvents

extension OperationPriority {
    /// The value of Foundation's `Operation.QueuePriority`.
    init(foundation priority: Operation.QueuePriority) {
        self = OperationPriority(rawValue: priority.rawValue) ?? .normal
    }

    /// Foundation's `Operation.QueuePriority`; `barrier` has no public counterpart.
    var foundation: Operation.QueuePriority? {
        Operation.QueuePriority(rawValue: rawValue)
    }
}

extension QoSClass {
    /// The value of Foundation's `QualityOfService`.
    init(foundation qos: QualityOfService) {
        switch qos {
        case .userInteractive: self = .userInteractive
        case .userInitiated: self = .userInitiated
        case .utility: self = .utility
        case .background: self = .background
        case .default: self = .default
        @unknown default: self = .default
        }
    }

    /// Foundation's `QualityOfService`.
    public var foundation: QualityOfService {
        switch self {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .default: .default
        case .utility: .utility
        case .background: .background
        }
    }
}

/// The priority list Foundation puts an operation in when it is enqueued
/// (swift-corelibs-foundation `OperationQueue._addOperations`): an explicit `queuePriority`,
/// otherwise the one derived from its QoS, except that a serial queue ignores QoS (FIFO).
///
/// `explicit == nil` means the caller cannot tell whether `queuePriority` was set; a non-normal
/// value must have been set, and a `.normal` one is taken as unset, the common case.
func effectivePriority(declared: OperationPriority, explicit: Bool?, qos: QoSClass, serialQueue: Bool) -> OperationPriority {
    let isExplicit = explicit ?? (declared != .normal)
    if isExplicit { return declared }
    return serialQueue ? .normal : qos.derivedPriority
}

/// Names of operation classes, cached because `String(describing:)` on a metatype costs
/// hundreds of nanoseconds and every added operation needs one.
final class TypeNameCache: @unchecked Sendable {
    // Safety: `names` is guarded by `lock`; `latest` is atomic and points only at entries that
    // `names` keeps alive for the cache's whole life (never removed), so a reader may use the
    // entry it loaded without retaining it first.
    private let lock = NSLock()
    private var names: [ObjectIdentifier: Entry] = [:]
    /// The entry found or made last: a program adds operations of one or a few classes, so most
    /// lookups end here, without the lock or a hash (the lock and the dictionary's hashing were
    /// a sixth of the registration of an instrumented operation in `opscope-bench micro`).
    private let latest = Atomic<Unmanaged<Entry>?>(nil)

    private final class Entry {
        let key: ObjectIdentifier
        let name: TypeNameStorage
        init(key: ObjectIdentifier, name: TypeNameStorage) {
            self.key = key
            self.name = name
        }
    }

    /// The class's name, interned (see `InternedTypeNames`).
    func name(of operation: Operation) -> TypeNameStorage {
        let type = type(of: operation)
        let key = ObjectIdentifier(type)
        if let entry = latest.load(ordering: .acquiring),
           let name = entry._withUnsafeGuaranteedRef({ $0.key == key ? $0.name : nil }) {
            return name
        }
        lock.lock()
        if let cached = names[key] {
            latest.store(Unmanaged.passUnretained(cached), ordering: .releasing)
            lock.unlock()
            return cached.name
        }
        lock.unlock()
        let entry = Entry(key: key, name: TypeNameStorage(interning: String(describing: type)))
        lock.lock()
        // Another thread may have made one meanwhile: keep the first, so published entries live.
        let kept = names[key] ?? entry
        names[key] = kept
        latest.store(Unmanaged.passUnretained(kept), ordering: .releasing)
        lock.unlock()
        return kept.name
    }
}
