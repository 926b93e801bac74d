import OperationEvents

/// One subscription's place in the hub: its own bounded buffer of ordered events and its own
/// count of events lost. Guarded by the hub's lock.
///
/// A new subscription holds the keyframe of the moment it subscribed and buffers every event
/// after it, so that a consumer that subscribes before the work sees all of it as events. One
/// that needs a keyframe later (fallen behind, or asking) buffers nothing: the keyframe it gets
/// at its next read covers whatever happened meanwhile. One that would hold more than its
/// capacity drops its buffer, counts what it lost (the buffered events and every later one
/// until it reads), and starts again from a keyframe, so a consumer that never reads costs a
/// counter and no memory. Every event published while it is open is either handed out, or
/// counted as lost or as discarded at the consumer's request, and the next keyframe stands for it.
struct SubscriberBuffer {
    let id: Int
    let consumer: String
    let capacity: Int
    /// Events lost so far: dropped with the buffer, or arriving while it had overflowed.
    private(set) var lost = 0
    /// Events dropped because the consumer asked for a fresh keyframe (`resynchronize()`): the
    /// buffered ones, and those arriving until its next read. Not a loss (the consumer chose
    /// it), so not in `droppedTotal`, but counted so that every event is accounted for.
    private(set) var discarded = 0
    /// Keyframes handed out, the first one included.
    var keyframes = 0
    /// The history when it subscribed, for its first batch.
    private(set) var firstKeyframe: StreamState?
    /// Its next batch starts with a keyframe of the history at that read.
    private(set) var needsKeyframe = false
    /// It fell behind: events arriving until the next read are lost (not just skipped).
    private var overflowed = false
    private var events: [MonitorEvent] = []
    /// Events before this index were taken already.
    private var first = 0

    init(id: Int, consumer: String, capacity: Int, keyframe: StreamState) {
        self.id = id
        self.consumer = consumer
        self.capacity = capacity
        firstKeyframe = keyframe
    }

    /// Hands out the keyframe it subscribed with (once).
    mutating func takeFirstKeyframe() -> StreamState? {
        defer { firstKeyframe = nil }
        return firstKeyframe
    }

    /// Events waiting to be taken.
    var buffered: Int { events.count - first }

    /// Appends ordered events, or counts them lost when the buffer would exceed its capacity.
    mutating func receive(_ batch: [MonitorEvent]) {
        if needsKeyframe {
            if overflowed { lost += batch.count } else { discarded += batch.count }
            return
        }
        if buffered + batch.count > capacity {
            lost += buffered + batch.count
            events = []
            first = 0
            firstKeyframe = nil
            needsKeyframe = true
            overflowed = true
            return
        }
        if first > 0, first * 2 >= events.count {
            events.removeFirst(first)
            first = 0
        }
        events.append(contentsOf: batch)
    }

    /// Takes up to `limit` events, oldest first.
    mutating func take(limit: Int) -> [MonitorEvent] {
        let count = min(limit, buffered)
        if count == 0 { return [] }
        if first == 0, count == events.count {
            defer { events = [] }
            return events
        }
        let taken = Array(events[first..<(first + count)])
        first += count
        if first == events.count {
            events.removeAll(keepingCapacity: events.capacity <= 4_096)
            first = 0
        }
        return taken
    }

    /// A keyframe was handed out: events from now on are buffered again.
    mutating func restart() {
        needsKeyframe = false
        overflowed = false
        events = []
        first = 0
    }

    /// The consumer asked to start afresh: the buffer is dropped (the keyframe covers it).
    mutating func discard() {
        discarded += buffered
        firstKeyframe = nil
        needsKeyframe = true
        events = []
        first = 0
    }
}
