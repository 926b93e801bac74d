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
        registry.sampled[object] = SampledEntry(
            id: OperationID(id), operation: operation, queue: nil,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: true, isCancelled: false))
        registry.retired.append(object)
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
        #expect(registry.sampled.count == 2_000 && registry.retiredSurvivors.count == 2_000)
        // Later ticks look at a slice of the survivors, not at all of them again.
        #expect(registry.pruneRetired(budget: 16_384) == Registry.survivorSlice)
        #expect(registry.sampled.count == 2_000)

        // The app lets go of some: their entries go within one round of the survivors.
        held.removeLast(100)
        let rounds = (2_000 + Registry.survivorSlice - 1) / Registry.survivorSlice
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
        #expect(registry.pruneRetired(budget: 16_384) == 16_384 + 16_384 / Registry.survivorRounds)
        held.removeAll()
        // Checked in rounds of at most `survivorRounds` ticks: all forgotten within two.
        var ticks = 0
        while !registry.sampled.isEmpty, ticks < 3 * Registry.survivorRounds {
            registry.pruneRetired(budget: 16_384)
            ticks += 1
        }
        #expect(registry.sampled.isEmpty, "\(registry.sampled.count) entries left after \(ticks) ticks")
        #expect(ticks <= 2 * Registry.survivorRounds)
    }
}
