import Foundation
@testable import OperationBridge
import OperationEvents
import Testing

/// The registry keeps a weak entry for each finished foreign operation while it lives (a
/// dependent enqueued later names it by it); the sampler forgets the entries of released ones.
/// Driven through `MonitorCore.forgetReleasedOperations()`, what a sampling tick runs, on a
/// monitor without a sampler thread: the test decides when a tick happens.
@Suite("Registry: entries of finished operations")
struct RetiredEntryTests {
    private let core: MonitorCore
    private let monitor: OperationMonitor

    init() {
        var configuration = OperationMonitor.Configuration()
        configuration.samplesAutomatically = false
        monitor = OperationMonitor(configuration: configuration)
        core = monitor.core
    }

    private func entry(for operation: Operation, id: Int) -> SampledEntry {
        SampledEntry(
            id: OperationID(id), operation: operation, queue: nil,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: true, isCancelled: false))
    }

    /// Files finished operations as a finishing thread does: an entry, and its place in line.
    private func file(_ operations: some Sequence<Operation>, firstID: Int, in registry: inout Registry) {
        for (offset, operation) in operations.enumerated() {
            let object = ObjectIdentifier(operation)
            let entry = entry(for: operation, id: firstID + offset)
            registry.objects[sampled: object] = entry
            registry.retired.file(entry, for: object)
        }
    }

    /// The same, in the monitor's registry.
    private func file(_ operations: some Sequence<Operation>, firstID: Int) {
        core.withRegistry { file(operations, firstID: firstID, in: &$0) }
    }

    private var entries: Int { core.withRegistry { $0.objects.sampledCount } }
    private var survivors: Int { core.withRegistry { $0.retired.survivors.count } }

    @Test("a released operation's entry is dropped; one still held is checked again a slice per tick, not on every tick")
    func survivorsInSlices() {
        var held: [Operation] = (0..<2_000).map { _ in BlockOperation {} }
        var released: [Operation] = (0..<10).map { _ in BlockOperation {} }
        file(held + released, firstID: 1)
        released.removeAll()

        // The next tick looks at every new entry once and drops the released ones.
        #expect(SamplingPass(core: core).forgetReleasedOperations() == 2_010)
        #expect(entries == 2_000 && survivors == 2_000)
        // Later ticks look at a slice of the survivors, not at all of them again.
        #expect(SamplingPass(core: core).forgetReleasedOperations() == RetiredEntries.survivorSlice)
        #expect(entries == 2_000)

        // The app lets go of some: their entries go within one round of the survivors.
        held.removeLast(100)
        let rounds = (2_000 + RetiredEntries.survivorSlice - 1) / RetiredEntries.survivorSlice
        var ticks = 0
        while entries > 1_900, ticks < rounds + 1 {
            SamplingPass(core: core).forgetReleasedOperations()
            ticks += 1
        }
        #expect(entries == 1_900 && ticks <= rounds, "after \(ticks) ticks: \(entries)")

        // New entries are still checked at the next tick, whatever the survivors.
        var late: [Operation] = (0..<5).map { _ in BlockOperation {} }
        file(late, firstID: 3_000)
        late.removeAll()
        SamplingPass(core: core).forgetReleasedOperations()
        #expect(entries == 1_900)
        withExtendedLifetime(held) {}
    }

    @Test("many survivors are still all checked, in rounds of a bounded number of ticks")
    func manySurvivors() {
        var held: [Operation] = (0..<40_000).map { _ in BlockOperation {} }
        file(held, firstID: 1)
        #expect(SamplingPass(core: core).forgetReleasedOperations() == 16_384)
        #expect(SamplingPass(core: core).forgetReleasedOperations() == 16_384 + 16_384 / RetiredEntries.survivorRounds)
        held.removeAll()
        // Checked in rounds of at most `survivorRounds` ticks: all forgotten within two.
        var ticks = 0
        while entries > 0, ticks < 3 * RetiredEntries.survivorRounds {
            SamplingPass(core: core).forgetReleasedOperations()
            ticks += 1
        }
        #expect(entries == 0, "\(entries) entries left after \(ticks) ticks")
        #expect(ticks <= 2 * RetiredEntries.survivorRounds)
    }

    @Test("released entries are forgotten in slices, every one by the end of the tick")
    func releasedInSlices() {
        var operations: [Operation] = (0..<(RetiredEntries.settleSlice * 2 + 10)).map { _ in BlockOperation {} }
        file(operations, firstID: 1)
        operations.removeAll()
        #expect(SamplingPass(core: core).forgetReleasedOperations() == RetiredEntries.settleSlice * 2 + 10)
        #expect(entries == 0 && survivors == 0)
    }

    @Test("a batch is settled a slice per call: each call forgets at most one slice")
    func settleSlices() {
        var registry = Registry()
        var operations: [Operation] = (0..<(RetiredEntries.settleSlice * 2 + 10)).map { _ in BlockOperation {} }
        file(operations, firstID: 1, in: &registry)
        let batch = registry.retired.take(budget: 16_384)
        operations.removeAll()
        let sorted = RetiredEntries.sort(batch)
        var next = 0
        var calls = 0
        repeat {
            next = registry.retired.settle(sorted, from: next, objects: &registry.objects)
            calls += 1
            #expect(registry.objects.sampledCount == sorted.released.count - next)
        } while next < sorted.released.count
        #expect(calls == 3 && registry.objects.sampledCount == 0)
    }

    @Test("an entry filed again between the check and the settle is left to its replacement")
    func replacedBetweenCheckAndSettle() {
        var registry = Registry()
        var first: Operation? = BlockOperation {}
        let object = ObjectIdentifier(first!)
        file([first!], firstID: 1, in: &registry)
        let batch = registry.retired.take(budget: 16_384)
        first = nil
        let sorted = RetiredEntries.sort(batch)
        #expect(sorted.released.count == 1 && sorted.alive.isEmpty)
        // Before the settle, another entry takes the identifier (as one made for a new operation
        // at the same address would): the settle must not forget it.
        let newcomer = BlockOperation {}
        let replacement = entry(for: newcomer, id: 2)
        registry.objects[sampled: object] = replacement
        #expect(registry.retired.settle(sorted, from: 0, objects: &registry.objects) == 1)
        #expect(registry.objects[sampled: object] === replacement)
        withExtendedLifetime(newcomer) {}
    }

    @Test("an entry replaced while its operation lives is left to its replacement when the operation goes")
    func replacedWhileAlive() {
        var operation: Operation? = BlockOperation {}
        let object = ObjectIdentifier(operation!)
        file([operation!], firstID: 1)
        // Found alive: kept as a survivor.
        #expect(SamplingPass(core: core).forgetReleasedOperations() == 1)
        #expect(survivors == 1)
        // Filed again under the same identifier (an operation the app enqueues again gets a new
        // entry), then released.
        let replacement = entry(for: operation!, id: 2)
        core.withRegistry { $0.objects[sampled: object] = replacement }
        operation = nil
        // The old entry's next check finds the operation gone; the replacement is not the old
        // entry's to forget.
        #expect(SamplingPass(core: core).forgetReleasedOperations() == 1)
        #expect(survivors == 0)
        #expect(core.withRegistry { $0.objects[sampled: object] } === replacement)
    }
}
