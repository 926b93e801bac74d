import OperationEvents

/// What a hub did since its monitor was created (for tests and benchmarks).
package struct HubStatistics: Sendable {
    /// Events ordered, applied to the history and handed out.
    package var events = 0
    /// Times the ring was served.
    package var services = 0
    /// Times the pump thread served it.
    package var pumpRuns = 0
    /// The most events one service moved out of the ring (at most the ring's capacity: a
    /// service takes what the ring held when it started).
    package var largestDrain = 0
    /// Times a producer drained the ring itself because it was three quarters full.
    package var assists = 0
    /// Repairs after the ring dropped events.
    package var repairs = 0
    /// Keyframes handed to subscriptions.
    package var keyframes = 0
    /// Folds of the history's log, and how many of them the pump thread made.
    package var folds = 0
    package var pumpFolds = 0
    /// Batches of the log that were shared when folded, so that the fold copied them (retaining
    /// every event's payload) before taking their events: none while the log is the fold's alone.
    package var foldCopies = 0
    /// The ordering's own statistics.
    package var ordering = CausalSequencer.Statistics()
    /// Each open subscription's books.
    package var subscriptions: [SubscriptionStatistics] = []
}

/// One subscription's books: every event published while it is open was handed out, or is
/// waiting, or was lost (its buffer overflowed), or discarded at its request; a keyframe stands
/// for the lost and discarded ones.
package struct SubscriptionStatistics: Sendable {
    /// Who reads it.
    package var consumer: String
    /// Events waiting in its buffer now.
    package var buffered: Int
    /// Events it lost because it fell behind (in its `droppedTotal`).
    package var lost: Int
    /// Events dropped because it asked for a fresh keyframe (`resynchronize()`).
    package var discarded: Int
    /// Keyframes it was given, its first one included.
    package var keyframes: Int
}
