import Foundation
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
    // Safety: `names` is guarded by `lock`.
    private let lock = NSLock()
    private var names: [ObjectIdentifier: String] = [:]

    func name(of operation: Operation) -> String {
        let type = type(of: operation)
        let key = ObjectIdentifier(type)
        lock.lock()
        if let cached = names[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let name = String(describing: type)
        lock.lock()
        names[key] = name
        lock.unlock()
        return name
    }
}
