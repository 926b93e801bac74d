import EventCoding
import OperationEvents

/// States of a recording kept in memory while it is indexed: the state before event `position`,
/// and where that event's line is in the file. Reaching any position costs at most one
/// interval of events from the nearest saved state before it.
///
/// Bounded: states are saved every `interval` events; when they take more than the budget, the
/// interval doubles and every other one goes. States that replaced the stream (a keyframe
/// after lost events) always stay: the events before them do not lead to them.
struct SavedStates {
    struct Entry {
        /// Events applied before this state.
        var position: Int
        var state: StreamState
        /// The line of event `position`, once it was read (nil: no event follows).
        var readFrom: StreamPosition?
        /// The state came from a keyframe that replaced the stream.
        var isReset: Bool
        var estimatedBytes: Int
    }

    private(set) var entries: [Entry] = []
    /// Events between saved states.
    private(set) var interval: Int
    let budget: Int
    private var bytes = 0

    init(interval: Int, budget: Int) {
        self.interval = max(1, interval)
        self.budget = max(1, budget)
    }

    /// True when a state should be saved after `position` events.
    func isDue(_ position: Int) -> Bool { position % interval == 0 }

    /// Saves the state before event `position`.
    mutating func save(_ state: StreamState, at position: Int, isReset: Bool) {
        // Records are small structs with shared strings and arrays: a rough size suffices to
        // bound the total.
        let estimate = 256 + state.operations.count * 160 + state.queues.count * 128
        entries.append(Entry(position: position, state: state, readFrom: nil, isReset: isReset, estimatedBytes: estimate))
        bytes += estimate
        if bytes > budget { thin() }
    }

    /// Notes where event `position`'s line is, for the states saved before it.
    mutating func noteLine(of position: Int, at place: StreamPosition) {
        var index = entries.count - 1
        while index >= 0, entries[index].position == position, entries[index].readFrom == nil {
            entries[index].readFrom = place
            index -= 1
        }
    }

    /// The last state saved at or before `position` (a later reset wins over an earlier save
    /// at the same position).
    func entry(atOrBefore position: Int) -> Entry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].position <= position { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? entries[low - 1] : nil
    }

    /// Memory taken, estimated.
    var estimatedBytes: Int { bytes }

    private mutating func thin() {
        while bytes > budget, interval < Int.max / 4 {
            interval *= 2
            let before = entries.count
            entries.removeAll { !$0.isReset && $0.position % interval != 0 && $0.position != 0 }
            bytes = entries.reduce(0) { $0 + $1.estimatedBytes }
            if entries.count == before { break }
        }
    }
}
