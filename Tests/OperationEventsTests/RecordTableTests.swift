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
            var table = OperationTable()
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
}
