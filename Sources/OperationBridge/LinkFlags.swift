import OperationEvents

/// Bits of an `ObservableOperation`'s link to its monitor, kept in one atomic word so that
/// every key change is reported exactly once whichever thread sees it first.
struct LinkFlags: OptionSet, Sendable {
    let rawValue: UInt32

    /// The operation has an id and a monitor; reports may be made.
    static let registered = LinkFlags(rawValue: 1 << 0)
    /// The last reported value of `isReady`.
    static let ready = LinkFlags(rawValue: 1 << 1)
    /// `started` has been reported.
    static let started = LinkFlags(rawValue: 1 << 2)
    /// `finished` has been reported.
    static let finished = LinkFlags(rawValue: 1 << 3)
    /// `cancelled` has been reported.
    static let cancelled = LinkFlags(rawValue: 1 << 4)
    /// `queuePriority` was set explicitly (Foundation reports an unset one as `.normal`).
    static let priorityExplicit = LinkFlags(rawValue: 1 << 5)
    /// The operation was added to an observed queue (not only seen as a dependency).
    static let queued = LinkFlags(rawValue: 1 << 6)
    /// `addDependency` was called at least once, so `dependencies` is worth reading.
    static let hasDependencies = LinkFlags(rawValue: 1 << 7)
    /// A thread is updating and reporting `ready` (a one-bit lock, see `ObservableOperation.refreshReady`).
    static let readyChanging = LinkFlags(rawValue: 1 << 15)
    /// Foundation's cancel took effect: its `isCancelled` was seen true (by `cancel()`, by the
    /// readiness that cancel reports, or at the finish).
    static let cancelSet = LinkFlags(rawValue: 1 << 11)
    /// A `cancel()` is under way: readiness reported meanwhile looks at Foundation's flag first,
    /// so that a cancel that took effect is reported before the readiness it causes.
    static let cancelling = LinkFlags(rawValue: 1 << 16)

    /// Bits 12-14 hold the quality of service set through the setter (0 = never set: `.default`).
    static let qosMask = LinkFlags(rawValue: 0b111 << 12)

    /// The flags holding `qos`.
    static func qos(_ qos: QoSClass) -> LinkFlags {
        LinkFlags(rawValue: UInt32(qos.flagIndex + 1) << 12)
    }

    /// The quality of service stored in these flags.
    var qualityOfService: QoSClass {
        QoSClass(flagIndex: Int((rawValue & LinkFlags.qosMask.rawValue) >> 12) - 1) ?? .default
    }

    /// Bits 8-10 hold the effective priority (its index in `OperationPriority.schedulingOrder`).
    static let priorityMask = LinkFlags(rawValue: 0b111 << 8)

    /// The flags holding `priority` as the effective priority.
    static func effective(_ priority: OperationPriority) -> LinkFlags {
        LinkFlags(rawValue: UInt32(priority.schedulingIndex) << 8)
    }

    /// The effective priority stored in these flags.
    var effectivePriority: OperationPriority {
        OperationPriority(schedulingIndex: Int((rawValue & LinkFlags.priorityMask.rawValue) >> 8)) ?? .normal
    }
}

// A switch, not a search of `allCases`: every registration packs and unpacks the class, and
// `QoSClass.allCases` builds a new array at each call (two per unpacking). In a profile of
// `opscope-bench micro` these were two array allocations and two searches per added operation.

extension QoSClass {
    /// The position in declaration order (`background` 0 ... `userInteractive` 4).
    var flagIndex: Int {
        switch self {
        case .background: 0
        case .utility: 1
        case .default: 2
        case .userInitiated: 3
        case .userInteractive: 4
        }
    }

    /// The class at `flagIndex`, or nil outside 0...4.
    init?(flagIndex: Int) {
        switch flagIndex {
        case 0: self = .background
        case 1: self = .utility
        case 2: self = .default
        case 3: self = .userInitiated
        case 4: self = .userInteractive
        default: return nil
        }
    }
}
