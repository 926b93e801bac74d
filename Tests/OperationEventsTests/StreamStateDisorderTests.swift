import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// Random valid histories, disordered: the state survives, does bounded work, and converges to
/// the state of the history applied in order.
@Suite("Stream state: any order, repeats and losses", .timeLimit(.minutes(5)))
struct StreamStateDisorderTests {
    static let environment = ProcessInfo.processInfo.environment
    /// Seeds tried per test; `OPSCOPE_SEED` replays one.
    static var seeds: [UInt64] {
        if let seed = environment["OPSCOPE_SEED"].flatMap(UInt64.init) { return [seed] }
        return Array(1...150)
    }

    /// The history applied in order.
    static func truth(_ events: [MonitorEvent]) -> StreamState {
        var state = StreamState(retention: StreamRetention(maximumFinished: 100_000))
        for event in events { state.apply(event) }
        return state
    }

    /// Applies events, checking the amortised bound on deduced work: each operation is finished
    /// by deduction at most once more than it is shown alive.
    static func apply(_ events: [MonitorEvent], to state: inout StreamState, seed: UInt64) {
        var deduced = 0
        var revived = 0
        for event in events {
            let change = state.apply(event)
            deduced += change.impliedFinishes.count + change.released.reduce(0) { $0 + $1.change.impliedFinishes.count }
            if change.revived { revived += 1 }
            revived += change.released.filter(\.change.revived).count
        }
        #expect(deduced <= state.operations.count + revived, "seed \(seed): \(deduced) deduced finishes, \(revived) revivals")
    }

    @Test("valid histories in order: no anomaly at all")
    func inOrder() {
        for seed in Self.seeds {
            let truth = Self.truth(RandomHistory(seed: seed).events)
            #expect(truth.counters.anomalies == 0, "seed \(seed) (OPSCOPE_SEED=\(seed) replays it)")
            #expect(truth.corrections(toMatch: truth.liveSnapshot()).isEmpty, "seed \(seed)")
        }
    }

    @Test("out of order within windows and repeated: finished work converges at once, the rest after a snapshot")
    func disorderAndRepeats() {
        for seed in Self.seeds {
            let events = RandomHistory(seed: seed).events
            let truth = Self.truth(events)
            var random = SeededRandom(seed: seed &* 7_919)
            let disordered = StreamDisorder.disorder(events, window: Int(random.next() % 12) + 2, repeats: 0.1, using: &random)
            var state = StreamState(retention: StreamRetention(maximumFinished: 100_000))
            Self.apply(disordered, to: &state, seed: seed)
            let finished = state.differences(from: truth, finishedOnly: true)
            #expect(finished.isEmpty, "seed \(seed) (OPSCOPE_SEED=\(seed) replays it): \(finished.prefix(5))")
            _ = state.catchUp(to: truth.liveSnapshot())
            let rest = state.differences(from: truth)
            #expect(rest.isEmpty, "seed \(seed) (OPSCOPE_SEED=\(seed) replays it): \(rest.prefix(5))")
            for queue in truth.queues.values {
                #expect((state[queue: queue.id]?.finished, state[queue: queue.id]?.cancelled) == (queue.finished, queue.cancelled),
                        "seed \(seed): counts of \(queue.id)")
            }
        }
    }

    @Test("events lost, with or without renumbering: after a snapshot the live state converges")
    func losses() {
        for seed in Self.seeds {
            let events = RandomHistory(seed: seed).events
            let truth = Self.truth(events)
            var random = SeededRandom(seed: seed &* 104_729)
            let renumber = seed % 2 == 0
            let damaged = StreamDisorder.disorder(events, window: Int(random.next() % 8) + 1, repeats: 0.05, losses: 0.1,
                                                  renumber: renumber, using: &random)
            var state = StreamState(retention: StreamRetention(maximumFinished: 100_000))
            Self.apply(damaged, to: &state, seed: seed)
            if !renumber, damaged.count < events.count {
                #expect(state.counters.sequenceGaps > 0, "seed \(seed): lost events leave gaps")
            }
            _ = state.catchUp(to: truth.liveSnapshot())
            let differences = state.differences(from: truth)
            #expect(differences.isEmpty, "seed \(seed) (OPSCOPE_SEED=\(seed) replays it): \(differences.prefix(5))")
        }
    }
}
