import Foundation
@testable import OperationBridge
import OperationEvents
import Testing

/// The registry keeps a weak entry for each finished foreign operation while it lives (a
/// dependent enqueued later names it by it); the sampler forgets the entries of released ones.
@Suite("Registry: entries of finished operations")
struct RetiredEntryTests {
    private func file(_ operation: Operation, id: Int, in registry: inout Registry) {
        let object = ObjectIdentifier(operation)
        let entry = SampledEntry(
            id: OperationID(id), operation: operation, queue: nil,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: true, isCancelled: false))
        registry.sampled[object] = entry
        registry.retired.file(entry, for: object)
    }

    @Test("a released operation's entry is dropped; one still held is checked again a slice per tick, not on every tick")
    func survivorsInSlices() {
        var registry = Registry()
        var held: [Operation] = (0..<2_000).map { _ in BlockOperation {} }
        var released: [Operation] = (0..<10).map { _ in BlockOperation {} }
        for (index, operation) in (held + released).enumerated() { file(operation, id: index + 1, in: &registry) }
        released.removeAll()

        // The next tick looks at every new entry once and drops the released ones.
        #expect(registry.pruneRetired(budget: 16_384) == 2_010)
        #expect(registry.sampled.count == 2_000 && registry.retired.survivors.count == 2_000)
        // Later ticks look at a slice of the survivors, not at all of them again.
        #expect(registry.pruneRetired(budget: 16_384) == RetiredEntries.survivorSlice)
        #expect(registry.sampled.count == 2_000)

        // The app lets go of some: their entries go within one round of the survivors.
        held.removeLast(100)
        let rounds = (2_000 + RetiredEntries.survivorSlice - 1) / RetiredEntries.survivorSlice
        var ticks = 0
        while registry.sampled.count > 1_900, ticks < rounds + 1 {
            registry.pruneRetired(budget: 16_384)
            ticks += 1
        }
        #expect(registry.sampled.count == 1_900 && ticks <= rounds, "after \(ticks) ticks: \(registry.sampled.count)")

        // New entries are still checked at the next tick, whatever the survivors.
        var late: [Operation] = (0..<5).map { _ in BlockOperation {} }
        for (index, operation) in late.enumerated() { file(operation, id: 3_000 + index, in: &registry) }
        late.removeAll()
        registry.pruneRetired(budget: 16_384)
        #expect(registry.sampled.count == 1_900)
        withExtendedLifetime(held) {}
    }

    @Test("many survivors are still all checked, in rounds of a bounded number of ticks")
    func manySurvivors() {
        var registry = Registry()
        var held: [Operation] = (0..<40_000).map { _ in BlockOperation {} }
        for (index, operation) in held.enumerated() { file(operation, id: index + 1, in: &registry) }
        #expect(registry.pruneRetired(budget: 16_384) == 16_384)
        #expect(registry.pruneRetired(budget: 16_384) == 16_384 + 16_384 / RetiredEntries.survivorRounds)
        held.removeAll()
        // Checked in rounds of at most `survivorRounds` ticks: all forgotten within two.
        var ticks = 0
        while !registry.sampled.isEmpty, ticks < 3 * RetiredEntries.survivorRounds {
            registry.pruneRetired(budget: 16_384)
            ticks += 1
        }
        #expect(registry.sampled.isEmpty, "\(registry.sampled.count) entries left after \(ticks) ticks")
        #expect(ticks <= 2 * RetiredEntries.survivorRounds)
    }

    @Test("the check runs apart from the settle: an entry filed again meanwhile is left to its replacement")
    func replacedBetweenCheckAndSettle() {
        var registry = Registry()
        var first: Operation? = BlockOperation {}
        let object = ObjectIdentifier(first!)
        file(first!, id: 1, in: &registry)
        let batch = registry.retired.take(budget: 16_384)
        #expect(batch.count == 1 && registry.retired.new.isEmpty)
        first = nil
        let sorted = RetiredEntries.sort(batch)
        #expect(sorted.released.count == 1 && sorted.alive.isEmpty)
        // Before the settle, another entry takes the identifier (as one made for a new operation
        // at the same address would): the settle must not forget it.
        let replacement = SampledEntry(
            id: OperationID(2), operation: BlockOperation {}, queue: nil,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: false, isCancelled: false))
        registry.sampled[object] = replacement
        #expect(registry.retired.settle(sorted, from: 0, sampled: &registry.sampled) == 1)
        #expect(registry.sampled[object] === replacement)
        #expect(registry.retired.survivors.isEmpty)
    }

    @Test("released entries are forgotten a slice per hold of the lock, every one by the last slice")
    func settleInSlices() {
        var registry = Registry()
        var operations: [Operation] = (0..<(RetiredEntries.settleSlice * 2 + 10)).map { _ in BlockOperation {} }
        for (index, operation) in operations.enumerated() { file(operation, id: index + 1, in: &registry) }
        let batch = registry.retired.take(budget: 16_384)
        operations.removeAll()
        let sorted = RetiredEntries.sort(batch)
        var next = 0
        var holds = 0
        repeat {
            next = registry.retired.settle(sorted, from: next, sampled: &registry.sampled)
            holds += 1
            #expect(registry.sampled.count == sorted.released.count - next)
        } while next < sorted.released.count
        #expect(holds == 3 && registry.sampled.isEmpty)
    }
}
