import DequeModule
import Foundation

/// The entries of finished operations that wait for the operation to be released, so that the
/// registry can forget them. Part of the `Registry`, guarded by its lock.
///
/// A finished operation often stays alive a while: the app holds it, or a thread is in
/// `waitUntilAllOperationsAreFinished()`, which holds every operation the queue had when it was
/// called until each has finished. Checking every survivor on every tick cost the sampler more
/// than observing the operations (about 12 checks per operation in `opscope-bench bridge`, 50 µs
/// work each, hooked). So new entries are checked once (at most a budget per tick), and the
/// survivors in rounds: those of a round's start all within `survivorRounds` ticks, at least
/// `survivorSlice` per tick; a released one is forgotten within two rounds.
///
/// A check is made in three steps, so that the registry lock, which every finishing thread
/// takes, is held only to move entries: `take` (lock held) hands out a batch, `sort` (no lock)
/// reads each entry's weak reference, and `settle` (lock held, in slices) forgets the released.
/// Done in one hold, a tick held the lock through every check (a dictionary lookup and a weak
/// load each, about 800 per tick at 16,000 operations a second). And a weak load retains the
/// operation for a moment: when the app let go of it meanwhile, the operation's deinit, app
/// code, ran under the lock, and an operation whose deinit reached the monitor (releasing an
/// observed queue it owned) would have deadlocked. The throughput did not change with the
/// split: the hooked mode with 50 µs of work at max 1 ran at 0.944 of the plain queue before
/// and after (ten alternating invocations each, BENCHMARKS.md).
struct RetiredEntries {
    /// A finished operation's entry, filed under the operation's identifier.
    struct Filed {
        let object: ObjectIdentifier
        let entry: SampledEntry
    }

    /// A batch `take` handed out, sorted by `sort`.
    struct Sorted {
        var released: [Filed] = []
        var alive: [Filed] = []
    }

    /// Entries not yet checked: each is checked once, at the next tick (or a later one when more
    /// than a tick's budget wait).
    private(set) var new = Deque<Filed>()
    /// Entries found alive at that check, checked again a slice per tick.
    private(set) var survivors = Deque<Filed>()
    /// Survivors left to check in the current round, and how many per tick in it.
    private var survivorsLeftInRound = 0
    private var survivorRoundSlice = 0

    /// Survivors checked per tick, at least...
    static let survivorSlice = 256
    /// ...and enough to check all of them within this many ticks.
    static let survivorRounds = 64
    /// Released entries forgotten per hold of the registry lock.
    static let settleSlice = 256

    /// Files the entry of an operation that finished. Registry lock held.
    mutating func file(_ entry: SampledEntry, for object: ObjectIdentifier) {
        new.append(Filed(object: object, entry: entry))
    }

    /// The entries to check this tick: a slice of the survivors and up to `budget` new ones.
    /// Registry lock held.
    mutating func take(budget: Int) -> [Filed] {
        if survivorsLeftInRound == 0 {
            survivorsLeftInRound = survivors.count
            survivorRoundSlice = max(Self.survivorSlice, (survivorsLeftInRound + Self.survivorRounds - 1) / Self.survivorRounds)
        }
        let slice = min(survivorsLeftInRound, survivorRoundSlice, survivors.count)
        survivorsLeftInRound -= slice
        let fresh = min(budget, new.count)
        var batch: [Filed] = []
        batch.reserveCapacity(slice + fresh)
        batch.append(contentsOf: survivors.prefix(slice))
        survivors.removeFirst(slice)
        batch.append(contentsOf: new.prefix(fresh))
        new.removeFirst(fresh)
        return batch
    }

    /// Splits a batch into released and live operations. No lock held: reading a weak reference
    /// retains the operation for a moment, and when the app lets go of it meanwhile, its deinit
    /// (app code) runs here.
    static func sort(_ batch: [Filed]) -> Sorted {
        var sorted = Sorted()
        for filed in batch {
            if filed.entry.operation == nil {
                sorted.released.append(filed)
            } else {
                sorted.alive.append(filed)
            }
        }
        return sorted
    }

    /// Takes back a sorted batch: the live entries become survivors, and up to `settleSlice`
    /// released ones from `start` on are forgotten; returns where the next slice starts
    /// (`released.count` when done). An entry replaced meanwhile (the identifier now names
    /// another operation, or the same one filed again) is left to its replacement. Registry
    /// lock held.
    mutating func settle(_ sorted: Sorted, from start: Int, objects: inout ObjectTable) -> Int {
        // Live entries are kept without a lookup (they can be many: operations the app still
        // holds). One replaced meanwhile is found out when it is released: the check below
        // leaves the replacement alone.
        if start == 0 { survivors.append(contentsOf: sorted.alive) }
        let end = min(sorted.released.count, start + Self.settleSlice)
        for filed in sorted.released[start..<end] where objects[sampled: filed.object] === filed.entry {
            objects[sampled: filed.object] = nil
        }
        return end
    }
}
