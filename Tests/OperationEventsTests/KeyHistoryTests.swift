import Foundation
import OpScopeTestSupport
@testable import OperationEvents
import Testing

/// The packed key history kept in each record: inside the record while it fits, on the heap
/// beyond that. Whatever the path, it must hold exactly the latest `limit` changes.
@Suite("Key history: packed changes, inline then on the heap")
struct KeyHistoryTests {
    /// A random change near `base`: times before and long after it, every key, origin and a
    /// detail that is sometimes zero, small, negative or large.
    private func randomChange(_ random: inout SeededRandom, base: UInt64) -> KeyChange {
        let offsets: [UInt64] = [0, 1, 500, 90_000, 3_000_000_000, 1 << 40, UInt64.max / 4]
        let offset = offsets[Int.random(in: 0..<offsets.count, using: &random)] &+ UInt64.random(in: 0...1_000, using: &random)
        let before = Int.random(in: 0..<6, using: &random) == 0
        let time = before ? base &- min(offset, base) : base &+ offset
        let details: [Int32] = [0, 0, 0, 1, -8, 70_000, Int32.max, Int32.min]
        return KeyChange(time: time, key: KeyChange.Key.allCases.randomElement(using: &random)!,
                         value: Bool.random(using: &random), origin: [EventOrigin.exact, .sampled, .inferred].randomElement(using: &random)!,
                         detail: details.randomElement(using: &random)!)
    }

    @Test("holds the latest `limit` changes, exactly, across the move to the heap (1,000 seeded runs)")
    func matchesAList() {
        let seed = SeededRandom.seed(default: 0x4B45_5900, environment: ProcessInfo.processInfo.environment)
        for run in 0..<1_000 {
            var random = SeededRandom(seed: seed &+ UInt64(run))
            let base = UInt64.random(in: 0...(1 << 50), using: &random)
            let limit = Int.random(in: 1...20, using: &random)
            var history = KeyHistory()
            var expected: [KeyChange] = []
            for step in 0..<Int.random(in: 1...40, using: &random) {
                let change = randomChange(&random, base: base)
                history.append(change, base: base, limit: limit)
                expected.append(change)
                if expected.count > limit { expected.removeFirst(expected.count - limit) }
                guard history.decoded(base: base) == expected, history.count == expected.count else {
                    Issue.record("seed \(seed &+ UInt64(run)) (OPSCOPE_SEED=\(seed) reruns all), step \(step): \(history.decoded(base: base)) != \(expected)")
                    return
                }
            }
        }
    }

    @Test("two histories of the same changes are equal however each was kept")
    func equalityIgnoresWhereTheBytesAre() {
        let base: UInt64 = 1_000_000
        let small = KeyChange(time: base + 5, key: .isReady, value: true, origin: .exact)
        let large = KeyChange(time: base + 300_000_000_000, key: .dependencies, value: true, origin: .sampled, detail: -70_000)
        // One that moved to the heap (many large entries), then kept only the last two.
        var spilled = KeyHistory()
        for _ in 0..<6 { spilled.append(large, base: base, limit: 2) }
        spilled.append(small, base: base, limit: 2)
        // One that never left the record.
        var inline = KeyHistory()
        inline.append(large, base: base, limit: 2)
        inline.append(small, base: base, limit: 2)
        #expect(spilled == inline)
        #expect(spilled.decoded(base: base) == [large, small])
        var other = inline
        other.append(small, base: base, limit: 3)
        #expect(other != inline)
        #expect(KeyHistory() == KeyHistory())
    }

    @Test("a limit of zero keeps nothing")
    func zeroLimit() {
        var history = KeyHistory()
        history.append(KeyChange(time: 1, key: .added, value: true, origin: .exact), base: 1, limit: 0)
        #expect(history.count == 0 && history.decoded(base: 1).isEmpty)
    }
}
