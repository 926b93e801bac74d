/// Everything a stream says about one operation: the bridge's description of it as last
/// reported, where it is in its life, when it got there, and its recent key changes.
///
/// The record stores the bridge's `OperationInfo` and keeps it current (readiness, execution,
/// cancellation, dependencies, priority, queue): each fact has that one definition, and the
/// properties below read it. Times are kept with a sentinel rather than as optionals, and the
/// key changes packed, so that a long retained history stays small.
public struct OperationRecord: Sendable {
    // The stored properties are declared in this order so that the small ones fill the end of
    // `info` (whose size is not a multiple of 8) instead of padding the record: a retained
    // history holds many thousands of records, each moved whole when the table grows.

    /// The operation's keys as last reported.
    public internal(set) var info: OperationInfo
    /// The dependency depth a consumer keeps here (see `level`); not a fact of the stream.
    @usableFromInline var storedLevel: Int32 = 0
    /// Entries of `dependents` no longer retained; the list is compacted when they outnumber
    /// the live ones, so that a long-lived hub's list does not grow without bound.
    var staleDependents: Int32 = 0
    @usableFromInline var flags: Flags = []
    /// How each moment was seen, two bits per `Moment` (0 exact, 1 sampled, 2 inferred).
    @usableFromInline var origins: UInt8 = 0
    /// The dependency a consumer keeps here as unfinished (see `blocker`); 0: none.
    @usableFromInline var storedBlocker: Int32 = 0
    // The times next, near the keys `state` reads (the end of `info`): a pass over every
    // record that reads states touches fewer cache lines.
    @usableFromInline var finishTime = Self.never
    @usableFromInline var startTime = Self.never
    @usableFromInline var readyTime = Self.never
    /// When it was first seen (monitor clock, ns).
    public let addedAt: UInt64
    /// Its place in the stream's add order (the sequence number of its `operationAdded`, or of
    /// the announcement that moved it into its queue): Foundation starts operations of one
    /// priority in this order.
    public internal(set) var enqueueOrder: UInt64
    /// The operations that wait for it (retained or announced later).
    public internal(set) var dependents: [OperationID] = []
    var changes = KeyHistory()

    /// "No such time yet".
    @usableFromInline static let never = UInt64.max

    @usableFromInline struct Flags: OptionSet, Sendable, Hashable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The finish was deduced (from a dependent's start, a snapshot, a release), not seen.
        @usableFromInline static let finishInferred = Flags(rawValue: 1)
        @usableFromInline static let unsignalledFinish = Flags(rawValue: 2)
        @usableFromInline static let vanished = Flags(rawValue: 4)
        /// Already added when the stream first saw it (see `firstSeenLate`).
        @usableFromInline static let firstSeenLate = Flags(rawValue: 8)
    }

    /// The moments of an operation's life whose time the record keeps.
    public enum Moment: Int, Sendable, CaseIterable {
        case added, ready, started, finished
    }

    init(info: OperationInfo, time: UInt64, enqueueOrder: UInt64, origin: EventOrigin = .exact) {
        self.info = info
        addedAt = time
        self.enqueueOrder = enqueueOrder
        setOrigin(origin, of: .added)
        if info.isReady || info.isCancelled {
            readyTime = time
            setOrigin(origin, of: .ready)
        }
        if info.isExecuting {
            startTime = time
            setOrigin(origin, of: .started)
        }
    }

    // MARK: Facts

    /// The operation's id.
    @inlinable public var id: OperationID { info.id }
    /// Its queue; nil for an operation known only as a dependency.
    @inlinable public var queue: QueueID? { info.queue }
    /// `name`, if set.
    @inlinable public var name: String? { info.name }
    /// The class name.
    @inlinable public var typeName: String { info.typeName }
    /// `queuePriority` as declared.
    @inlinable public var priority: OperationPriority { info.priority }
    /// The priority the queue schedules it by.
    @inlinable public var effectivePriority: OperationPriority { info.effectivePriority }
    /// `qualityOfService`.
    @inlinable public var qualityOfService: QoSClass { info.qualityOfService }
    /// `isAsynchronous`.
    @inlinable public var isAsynchronous: Bool { info.isAsynchronous }
    /// A barrier block.
    @inlinable public var isBarrier: Bool { info.isBarrier }
    /// How it is observed.
    @inlinable public var observation: ObservationMode { info.observation }
    /// The operations it waits for.
    @inlinable public var dependencies: [OperationID] { info.dependencies }
    /// `isCancelled`.
    @inlinable public var isCancelled: Bool { info.isCancelled }

    /// Pending, ready, executing or finished: read from the keys (`isExecuting`, `isReady`) and
    /// whether a finish was seen or deduced.
    @inlinable public var state: OperationState {
        if finishTime != Self.never { return .finished }
        if info.isExecuting { return .executing }
        return info.isReady ? .ready : .pending
    }

    /// When it became ready, if it did.
    @inlinable public var readyAt: UInt64? { readyTime == Self.never ? nil : readyTime }
    /// When it started, if it did.
    @inlinable public var startedAt: UInt64? { startTime == Self.never ? nil : startTime }
    /// When it finished, if it did.
    @inlinable public var finishedAt: UInt64? { finishTime == Self.never ? nil : finishTime }
    /// The finish was deduced rather than seen: a later exact finish replaces it, and a sign of
    /// life (a ready or started event, a snapshot listing it) undoes it.
    @inlinable public var finishWasInferred: Bool { flags.contains(.finishInferred) }
    /// `isFinished` reads true but the queue was never told.
    @inlinable public var unsignalledFinish: Bool { flags.contains(.unsignalledFinish) }
    /// Disappeared without a finish being seen (sampled operations only).
    @inlinable public var vanished: Bool { flags.contains(.vanished) }
    /// It was already in its queue when the stream first saw it (a state corrected from a live
    /// snapshot after lost events, a monitor that attached late): `addedAt` is when it was first seen, not
    /// when it was added, so its wait time is unknown; a `readyAt` or `startedAt` equal to
    /// `addedAt` is when that was first seen, too. Its history starts with what was read then.
    @inlinable public var firstSeenLate: Bool { flags.contains(.firstSeenLate) }

    /// How `moment` was seen: at the moment it happened, by sampling (up to one sampling
    /// interval late), or deduced; nil when the operation has not got there.
    public func origin(of moment: Moment) -> EventOrigin? {
        switch moment {
        case .added: break
        case .ready: if readyTime == Self.never { return nil }
        case .started: if startTime == Self.never { return nil }
        case .finished: if finishTime == Self.never { return nil }
        }
        switch (origins >> (moment.rawValue * 2)) & 3 {
        case 1: return .sampled
        case 2: return .inferred
        default: return .exact
        }
    }

    /// Records how `moment` was seen (see `origin(of:)`).
    mutating func setOrigin(_ origin: EventOrigin, of moment: Moment) {
        let code: UInt8
        switch origin {
        case .exact: code = 0
        case .sampled: code = 1
        case .inferred: code = 2
        }
        let shift = moment.rawValue * 2
        origins = origins & ~(3 << shift) | code << shift
    }

    /// Recent key changes, oldest first (at most the stream's `historyLimit`).
    public var history: [KeyChange] { changes.decoded(base: addedAt) }

    /// 1 + the largest level of its dependencies (0 without dependencies), as the dashboard
    /// model keeps it: also the earliest wave in which it can run. Not part of the stream's
    /// facts (not coded, not compared).
    @inlinable public var level: Int { Int(storedLevel) }

    /// A dependency that was retained and unfinished when the dashboard model last looked at
    /// this operation's dependencies (nil: none, or not looked), so that a pass over every
    /// pending operation can tell most are still waiting by one lookup, without reading their
    /// dependency lists. A hint to check, not a fact of the stream (not coded, not compared):
    /// the model sets it again whenever the operation's dependencies change.
    @inlinable package var blocker: OperationID? { storedBlocker == 0 ? nil : OperationID(Int(storedBlocker)) }

    /// Appends a key change to the history (at most `limit` kept).
    mutating func remember(_ key: KeyChange.Key, _ value: Bool, time: UInt64, origin: EventOrigin, detail: Int32 = 0,
                           limit: Int) {
        guard limit > 0 else { return }
        changes.append(KeyChange(time: time, key: key, value: value, origin: origin, detail: detail), base: addedAt, limit: limit)
    }

    /// Sets the level a consumer derives (see `level`).
    package mutating func setLevel(_ level: Int) {
        storedLevel = Int32(clamping: level)
    }

    /// Sets the dependency a consumer found unfinished (see `blocker`); an id beyond 32 bits is
    /// kept as none.
    package mutating func setBlocker(_ blocker: OperationID?) {
        storedBlocker = blocker.flatMap { Int32(exactly: $0.rawValue) } ?? 0
    }

    // MARK: Derived

    /// The name to show: the app's name, else the type name.
    @inlinable public var displayName: String { info.displayName }

    /// `#12 parse` (or `#12 ParseOperation`), for messages.
    public var label: String { "\(id) \(displayName)" }

    /// Wait time so far or until it started (ns).
    public func waitTime(now: UInt64) -> UInt64 {
        let end = startedAt ?? finishedAt ?? now
        return end &- min(addedAt, end)
    }

    /// Run time so far or until it finished (ns); nil if it never started.
    public func runTime(now: UInt64) -> UInt64? {
        guard let startedAt else { return nil }
        let end = finishedAt ?? now
        return end >= startedAt ? end - startedAt : 0
    }
}

extension OperationRecord: IdentifiedRecord {}
