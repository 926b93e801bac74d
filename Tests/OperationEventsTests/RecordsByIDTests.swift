import Foundation
import OpScopeTestSupport
@testable import OperationEvents
import Testing

/// The open-addressing table the stream state keeps its operations in: every way of removing a
/// record (the subscript, `remove`, `discard`) must leave the others findable, with their values.
@Suite("Record table: insert, find, remove")
struct RecordTableTests {
    private func record(_ id: Int, _ random: inout SeededRandom) -> OperationRecord {
        let info = OperationInfo(id: OperationID(id), queue: QueueID(Int.random(in: 1...4, using: &random)),
                                 name: Bool.random(using: &random) ? "operation number \(id) with a long name" : nil,
                                 dependencies: (0..<Int.random(in: 0...3, using: &random)).map { _ in OperationID(Int.random(in: 1...500, using: &random)) })
        var record = OperationRecord(info: info, time: UInt64(id) * 1_000, enqueueOrder: UInt64(id))
        record.remember(.isReady, true, time: UInt64(id) * 1_000 + 7, origin: .exact, limit: 12)
        return record
    }

    @Test("a table matches a dictionary through seeded inserts and removals of every kind (200 runs)")
    func matchesADictionary() {
        let seed = SeededRandom.seed(default: 0x7AB1_E000, environment: ProcessInfo.processInfo.environment)
        for run in 0..<200 {
            var random = SeededRandom(seed: seed &+ UInt64(run))
            var table = OperationRecords()
            var expected: [Int: OperationRecord] = [:]
            for _ in 0..<400 {
                let id = Int.random(in: 1...300, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where expected[id] == nil:
                    let made = record(id, &random)
                    table.insert(made)
                    expected[id] = made
                case 1:
                    #expect(table.discard(OperationID(id)) == (expected.removeValue(forKey: id) != nil))
                case 2:
                    #expect(table.remove(OperationID(id))?.id == expected.removeValue(forKey: id)?.id)
                default:
                    table[OperationID(id)] = nil
                    expected[id] = nil
                }
            }
            let problems = (1...300).filter { id in table[OperationID(id)] != expected[id] || table.contains(OperationID(id)) != (expected[id] != nil) }
            #expect(problems.isEmpty && table.count == expected.count,
                    "seed \(seed &+ UInt64(run)) (OPSCOPE_SEED=\(seed) reruns all): ids \(problems.prefix(8)) differ")
            if !problems.isEmpty { return }
        }
    }

    @Test("a table grows to its expected size in one step once past 1,024 records, and by a quarter beyond it")
    func growsToItsExpectedSizeInOneStep() {
        var random = SeededRandom(seed: 0x6A0B)
        var state = StreamState(retention: StreamRetention(maximumFinished: 4_000))
        #expect(state.operations.growthTarget == 4_500, "the retention's finished operations and an eighth more")
        var table = state.operations
        var capacities: [Int] = []
        var keysAfterTheJump = 0
        for id in 1...6_000 {
            table.insert(record(id, &random))
            if capacities.last != table.records.capacity { capacities.append(table.records.capacity) }
            if id == 1_100 { keysAfterTheJump = table.keys.capacity }
        }
        // Doubling (the allocator may round up) to 1,024, then 4,500 at once, then a quarter
        // more of whatever the allocator gave: each step judged from the one before.
        let step = capacities.firstIndex { $0 >= 1_024 }!
        #expect(capacities[step] < 2_048, "doubled up to 1,024: \(capacities)")
        #expect(capacities[step + 1] >= 4_500 && capacities[step + 1] < 4_500 + 4_500 / 4, "then the expected size at once: \(capacities)")
        let previous = capacities[step + 1]
        #expect(capacities[step + 2] >= previous + previous / 4 && capacities[step + 2] < previous * 3 / 2,
                "then a quarter more: \(capacities)")
        #expect(keysAfterTheJump >= 4_500, "the keys are reserved with the records, not doubled on their own: \(keysAfterTheJump)")
        #expect((1...6_000).allSatisfy { table.contains(OperationID($0)) })
        // A changed retention changes the target; a state adopting a keyframe keeps its own.
        state.setRetention(StreamRetention(maximumFinished: 800))
        #expect(state.operations.growthTarget == 900)
        var adopting = StreamState(retention: StreamRetention(maximumFinished: 16_000))
        adopting.adopt(state)
        #expect(adopting.operations.growthTarget == 18_000)
        // A retention of everything reserves no more than 65,536 up front; a negative one none.
        #expect(StreamState(retention: StreamRetention(maximumFinished: .max)).operations.growthTarget == 65_536)
        var negative = StreamRetention(maximumFinished: 10)
        negative.maximumFinished = .min
        #expect(StreamState(retention: negative).operations.growthTarget == 0)
    }

    @Test("a decoded keyframe grows as its retention says, and so does one adopted with the same retention")
    func decodedKeyframesKeepTheirGrowthTarget() throws {
        var state = StreamState(retention: StreamRetention(maximumFinished: 2_000))
        for id in 1...10 {
            _ = state.apply(MonitorEvent(sequence: UInt64(id - 1), time: UInt64(id), change: .operationAdded(OperationInfo(id: OperationID(id)))))
        }
        let decoded = try JSONDecoder().decode(StreamState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.operations.growthTarget == 2_250)
        var blank = StreamState(retention: StreamRetention(maximumFinished: 2_000))
        var unset = decoded
        unset.operations.growthTarget = 0
        blank.adopt(unset)
        #expect(blank.operations.growthTarget == 2_250, "adopting with the same retention sets the target again")
    }
}
