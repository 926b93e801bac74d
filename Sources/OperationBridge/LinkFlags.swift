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

    /// The flags holding `qos` (its lane index plus one). Packed and unpacked by switches: a
    /// search of `QoSClass.allCases` builds a new array at each read, two allocations per
    /// registration in a profile of `opscope-bench micro`.
    static func qos(_ qos: QoSClass) -> LinkFlags {
        LinkFlags(rawValue: UInt32(qos.laneIndex + 1) << 12)
    }

    /// The quality of service stored in these flags.
    var qualityOfService: QoSClass {
        QoSClass(laneIndex: Int((rawValue & LinkFlags.qosMask.rawValue) >> 12) - 1) ?? .default
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
