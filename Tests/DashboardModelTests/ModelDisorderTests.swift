import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// The model survives any order: it never crashes, keeps its derived facts consistent with its
/// stream state after every batch, and converges to the model of the history in order.
@Suite("Model: any order, repeats and losses", .timeLimit(.minutes(5)))
struct ModelDisorderTests {
    static var seeds: [UInt64] {
        if let seed = ProcessInfo.processInfo.environment["OPSCOPE_SEED"].flatMap(UInt64.init) { return [seed] }
        return Array(1...80)
    }

    static var largeRetention: ModelConfiguration {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = 100_000
        configuration.finishedRetention = .max / 2
        return configuration
    }

    /// The facts derived incrementally agree with the same facts derived afresh from the stream.
    static func checkDerivedFacts(_ model: DashboardModel, seed: UInt64, _ when: String) {
        var fresh = DashboardModel(configuration: model.configuration)
        fresh.load(model.stream)
        fresh.advance(to: model.now)
        let levels = { (model: DashboardModel) in model.operations.values.map { ($0.id, $0.level) }.sorted { $0.0 < $1.0 }.map(\.1) }
        #expect(levels(model) == levels(fresh), "seed \(seed) \(when): levels")
        #expect(model.cycles == fresh.cycles, "seed \(seed) \(when): cycles")
        for queue in model.queues.ids {
            let order = model.startOrder(of: queue)
            #expect(Set(order).count == order.count, "seed \(seed) \(when): \(queue) lists an operation twice")
            // The order may differ (an operation whose priority changed goes to the end of its
            // new list, a rebuilt list goes by add order); who is startable may not.
            #expect(Set(order) == Set(fresh.startOrder(of: queue)), "seed \(seed) \(when): startable in \(queue)")
        }
        var counts: [QueueID: [Int]] = [:]
        model.operations.forEach { record in
            guard let queue = record.pointee.queue else { return }
            var count = counts[queue, default: [0, 0, 0]]
            switch record.pointee.state {
            case .pending: count[0] += 1
            case .ready: count[1] += 1
            case .executing: count[2] += 1
            case .finished: break
            }
            counts[queue] = count
        }
        for queue in model.queues.values {
            #expect([queue.pending, queue.ready, queue.executing] == counts[queue.id, default: [0, 0, 0]], "seed \(seed) \(when): counts of \(queue.id)")
        }
    }

    @Test("cycle break (regression): a member's start arrives before the cancellation that broke the cycle")
    func cycleBreakOrder() throws {
        // test_DependencyCycleBreak of Foundation's suite: #1 and #2 wait on each other; #2 is
        // cancelled, which releases it; it starts, finishes, and #1 runs. The start of #2 was
        // seen before its cancellation: the reducer recursed (markFinished ↔ impliedFinish)
        // until the stack overflowed.
        var inOrder = EventScript()
        inOrder.queue(1, "q")
        // BlockOperations, as in Foundation's test: hooked, so a dependent's start deduces the
        // finish of a dependency not seen finishing (an instrumented one's is never deduced).
        inOrder.add(1, queue: 1, "first", after: [2], observation: .hooked)
        inOrder.add(2, queue: 1, "second", after: [1], observation: .hooked)
        var seen = inOrder
        inOrder.cancel(2)
        inOrder.ready(2)
        inOrder.start(2)
        inOrder.finish(2, cancelled: true)
        inOrder.ready(1)
        inOrder.start(1)
        inOrder.finish(1)
        seen.start(2)
        seen.cancel(2)
        seen.ready(2)
        seen.finish(2, cancelled: true)
        seen.ready(1)
        seen.start(1)
        seen.finish(1)
        let expected = inOrder.model()
        let model = seen.model()
        #expect(model.stream.differences(from: expected.stream).isEmpty, "\(model.stream.differences(from: expected.stream))")
        #expect(model[1]?.state == .finished && model[1]?.finishWasInferred == false && model[1]?.isCancelled == false)
        #expect(model[2]?.state == .finished && model[2]?.isCancelled == true)
        #expect(model.cycles.isEmpty && expected.cycles.isEmpty)
        #expect(model.queues[QueueID(1)]?.finished == 2 && model.queues[QueueID(1)]?.cancelled == 1)
        // Halfway, before #1's own events: the cycle is gone, nothing is stuck in a loop.
        var halfway = DashboardModel()
        halfway.apply(EventBatch(events: Array(seen.events.prefix(5)), droppedTotal: 0))
        #expect(halfway.cycles.isEmpty && halfway[1]?.state == .finished)
    }

    @Test("random histories out of order, repeated and lost, in random batches: derived facts stay consistent, then converge")
    func fuzz() {
        for seed in Self.seeds {
            let history = RandomHistory(seed: seed, operations: 60)
            var truth = DashboardModel(configuration: Self.largeRetention)
            truth.apply(EventBatch(events: history.events, droppedTotal: 0))
            var random = SeededRandom(seed: seed &* 31)
            let lossy = seed % 3 == 0
            let events = StreamDisorder.disorder(history.events, window: Int(random.next() % 10) + 2, repeats: 0.08,
                                                 losses: lossy ? 0.08 : 0, renumber: seed % 5 != 0, using: &random)
            var model = DashboardModel(configuration: Self.largeRetention)
            var position = 0
            var batches = 0
            while position < events.count {
                let size = Int(random.next() % 40) + 1
                model.apply(EventBatch(events: Array(events[position..<min(events.count, position + size)]), droppedTotal: 0))
                position += size
                batches += 1
                if batches % 5 == 0 { Self.checkDerivedFacts(model, seed: seed, "after batch \(batches)") }
            }
            Self.checkDerivedFacts(model, seed: seed, "at the end")
            model.resync(from: truth.stream.liveSnapshot())
            Self.checkDerivedFacts(model, seed: seed, "after the snapshot")
            let differences = model.stream.differences(from: truth.stream)
            #expect(differences.isEmpty, "seed \(seed) (OPSCOPE_SEED=\(seed) replays it): \(differences.prefix(5))")
            #expect(model.cycles == truth.cycles, "seed \(seed): cycles \(model.cycles), in order \(truth.cycles)")
        }
    }
}
