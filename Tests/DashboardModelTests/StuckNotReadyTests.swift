import Foundation
import DashboardModel
import OpScopeTestSupport
import OperationEvents
import Testing

/// The "not ready although nothing it waits for is unfinished" warning, against the rule written
/// out plainly: the model answers it for every pending operation of every frame through a kept
/// hint (a dependency it last saw unfinished), which must never hide a stuck operation.
@Suite("Model: operations stuck not ready, against the plain rule")
struct StuckNotReadyTests {
    /// The operations the rule names at `now`, from the model's public facts only.
    static func stuck(_ model: DashboardModel, now: UInt64) -> Set<OperationID> {
        var result: Set<OperationID> = []
        for record in model.operations.values {
            guard record.state == .pending, !record.isCancelled, !record.isBarrier, let queue = record.queue,
                  let queueRecord = model.queues[queue], !queueRecord.isReleased, !model.isInCycle(record.id) else { continue }
            if record.dependencies.isEmpty {
                result.insert(record.id)
                continue
            }
            guard record.observation != .sampled else { continue }
            var since = record.addedAt
            var allFinished = true
            for dependency in record.dependencies {
                guard let other = model.operations[dependency], other.state == .finished else {
                    allFinished = false
                    break
                }
                since = max(since, other.finishedAt ?? since)
            }
            if allFinished, now >= since, now - since > model.configuration.notReadyGrace { result.insert(record.id) }
        }
        return result
    }

    static func warned(_ model: DashboardModel, now: UInt64) -> Set<OperationID> {
        Set(model.warnings(now: now).compactMap { [.notReadyWithoutDependencies, .heldByCondition].contains($0.kind) ? $0.operation : nil })
    }

    @Test("random histories cut anywhere, in order and out of order, then loaded from a keyframe: the same operations are named (150 seeds)")
    func matchesTheRule() {
        let base = SeededRandom.seed(default: 0x57C0_0000, environment: ProcessInfo.processInfo.environment)
        var named = 0
        for round in 0..<150 {
            let seed = base &+ UInt64(round)
            var random = SeededRandom(seed: seed)
            let history = RandomHistory(seed: seed, operations: 50)
            let events = round % 2 == 0 ? history.events
                : StreamDisorder.disorder(history.events, window: 6, repeats: 0.05, losses: 0, renumber: true, using: &random)
            var model = DashboardModel(configuration: ModelStuckConfiguration.large)
            var position = 0
            while position < events.count {
                let size = Int(random.next() % 30) + 1
                model.apply(EventBatch(events: Array(events[position..<min(events.count, position + size)]), droppedTotal: 0))
                position += size
                // Far enough ahead that every grace period has passed.
                let now = model.now + max(model.configuration.conditionGrace, model.configuration.notReadyGrace) + 1_000_000_000
                let expected = Self.stuck(model, now: now)
                named += expected.count
                var loaded = DashboardModel(configuration: model.configuration)
                loaded.load(model.stream)
                loaded.advance(to: model.now)
                guard Self.warned(model, now: now) == expected, Self.warned(loaded, now: now) == expected else {
                    Issue.record("seed \(seed) (OPSCOPE_SEED=\(base) reruns all), after \(position) events: warned \(Self.warned(model, now: now).sorted()), loaded \(Self.warned(loaded, now: now).sorted()), the rule \(expected.sorted())")
                    return
                }
            }
        }
        #expect(named > 0, "the histories must reach the case at all")
    }
}

/// A configuration that keeps every finished operation, so that dependencies stay known.
enum ModelStuckConfiguration {
    static var large: ModelConfiguration {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = 100_000
        configuration.finishedRetention = .max
        return configuration
    }
}
