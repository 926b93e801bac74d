/// Events that arrive before the operation or queue they name was announced (a stream out of
/// order) are held, a bounded number, and applied right after the announcement: a finish that
/// overtook its `operationAdded` is not lost. What is held longest goes first when the bound is
/// reached, counted as an anomaly of the unknown kind. A keyframe carries them: a consumer that
/// starts from it (an attached console, across the socket) must apply them when the
/// announcement follows, as the state it was made from does.
struct HeldEvents: Sendable {
    /// Events held at most.
    static let capacity = 4_096

    private var byOperation: [OperationID: [MonitorEvent]] = [:]
    private var byQueue: [QueueID: [MonitorEvent]] = [:]
    /// Keys in the order they were first held: the eviction order.
    private var order: [Key] = []
    private var head = 0
    /// Events held.
    private(set) var count = 0

    enum Key: Hashable, Sendable {
        case operation(OperationID)
        case queue(QueueID)
    }

    var isEmpty: Bool { count == 0 }

    /// Holds an event; returns the events evicted to make room (with the key they were held for).
    mutating func hold(_ event: MonitorEvent, for key: Key) -> [(Key, Int)] {
        switch key {
        case .operation(let id):
            if byOperation[id] == nil { order.append(key) }
            byOperation[id, default: []].append(event)
        case .queue(let id):
            if byQueue[id] == nil { order.append(key) }
            byQueue[id, default: []].append(event)
        }
        count += 1
        var evicted: [(Key, Int)] = []
        while count > Self.capacity, head < order.count {
            let oldest = order[head]
            head += 1
            let dropped = take(oldest).count
            if dropped > 0 { evicted.append((oldest, dropped)) }
        }
        if head >= 1_024, head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
        return evicted
    }

    /// Every held event with the key it is held for, the longest-held key first and each
    /// key's events in arrival order (the order `hold` rebuilds them in).
    var entries: [HeldEntry] {
        var result: [HeldEntry] = []
        var seen: Set<Key> = []
        for key in order[head...] where seen.insert(key).inserted {
            switch key {
            case .operation(let id):
                if let events = byOperation[id] { result.append(HeldEntry(operation: id, queue: nil, events: events)) }
            case .queue(let id):
                if let events = byQueue[id] { result.append(HeldEntry(operation: nil, queue: id, events: events)) }
            }
        }
        return result
    }

    /// Removes and returns the events held for `key`, in arrival order.
    mutating func take(_ key: Key) -> [MonitorEvent] {
        let events: [MonitorEvent]
        switch key {
        case .operation(let id): events = byOperation.removeValue(forKey: id) ?? []
        case .queue(let id): events = byQueue.removeValue(forKey: id) ?? []
        }
        count -= events.count
        // Its place in `order` stays; taking an empty key there later is harmless.
        return events
    }
}

/// The events held for one operation or queue, as a keyframe writes them.
struct HeldEntry: Codable, Sendable {
    /// The operation they wait for, or nil for a queue.
    var operation: OperationID?
    /// The queue they wait for, when `operation` is nil.
    var queue: QueueID?
    /// The events, in arrival order.
    var events: [MonitorEvent]

    /// The key they are held for; nil when the entry names neither.
    var key: HeldEvents.Key? {
        if let operation { return .operation(operation) }
        return queue.map { .queue($0) }
    }
}

/// An event that arrived before what it names was announced, applied after the announcement.
public struct ReleasedEvent: Sendable, Equatable {
    /// The event as it arrived.
    public var event: MonitorEvent
    /// What applying it changed.
    public var change: StreamChange
}
