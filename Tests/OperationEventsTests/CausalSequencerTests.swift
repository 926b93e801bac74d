import OperationEvents
import Testing

@Suite("Causal sequencer: the order every consumer receives")
struct CausalSequencerTests {
    @Test("events already in causal order pass unchanged, numbered from 0")
    func inOrderPassesThrough() {
        var feed = SequencerFeed()
        let input: [MonitorEvent.Change] = [
            Make.appeared(1), Make.added(1), Make.added(2, dependencies: [1]), Make.ready(1), Make.started(1),
            Make.suspended(1), Make.finished(1), Make.ready(2), Make.started(2), Make.finished(2), Make.queueReleased(1),
        ]
        feed.push(input)
        #expect(feed.changes == input)
        #expect(feed.output.map(\.sequence) == (0..<UInt64(input.count)).map { $0 })
        #expect(feed.sequencer.statistics.held == 0)
        #expect(feed.sequencer.statistics.droppedLate == 0)
        #expect(feed.sequencer.unfinishedCount == 0)
    }

    @Test("a dependent's readiness, start and finish reported before its dependency's finish wait for it")
    func dependentWaitsForDependency() {
        // Foundation asks dependents isReady in hash order; the hidden dependent reporting
        // #1's finish was asked last, after #2 had run.
        var feed = SequencerFeed()
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.started(1),
                   Make.ready(2), Make.started(2), Make.finished(2)])
        #expect(feed.changes == [Make.added(1), Make.added(2, dependencies: [1]), Make.started(1)])
        #expect(feed.sequencer.heldCount == 3)
        feed.push(Make.finished(1))
        #expect(feed.changes.suffix(4) == [Make.finished(1), Make.ready(2), Make.started(2), Make.finished(2)])
        #expect(feed.output.map(\.sequence) == (0..<7).map { UInt64($0) })
        #expect(feed.sequencer.heldCount == 0)
        #expect(feed.sequencer.statistics.held == 3)
        #expect(feed.sequencer.statistics.inferredFinishes == 0)
        // Held events keep their own times and origins.
        #expect(feed.event(Make.started(2))?.time == 5_000)
    }

    @Test("a chain of 100,000 whose events all arrive before its root's finish is let out in order, without recursion")
    func deepChainCascade() {
        let depth = 100_000
        var feed = SequencerFeed(window: .init(nanoseconds: .max, events: 1_000_000))
        feed.push(Make.added(1))
        for id in 2...depth { feed.push(Make.added(id, dependencies: [id - 1])) }
        for id in stride(from: depth, through: 2, by: -1) {
            feed.push([Make.ready(id), Make.started(id), Make.finished(id)])
        }
        #expect(feed.sequencer.heldCount == 3 * (depth - 1))
        feed.push([Make.started(1), Make.finished(1)])
        #expect(feed.sequencer.heldCount == 0)
        var finishedAt = [Int](repeating: -1, count: depth + 1)
        var firstProgress = [Int](repeating: -1, count: depth + 1)
        for (index, event) in feed.output.enumerated() {
            switch event.change {
            case .finished(let id, _): finishedAt[id.rawValue] = index
            case .ready(let id, true), .started(let id):
                if firstProgress[id.rawValue] < 0 { firstProgress[id.rawValue] = index }
            default: break
            }
        }
        let wrong = (2...depth).filter { firstProgress[$0] < finishedAt[$0 - 1] || finishedAt[$0] < 0 }
        #expect(wrong.isEmpty, "\(wrong.count) operations out of order, first \(wrong.prefix(3))")
        #expect(feed.sequencer.unfinishedCount == 0)
    }

    @Test("a sampled or external dependency's finish is inferred at once; the late real one is dropped")
    func inexactDependencyInferred() throws {
        var feed = SequencerFeed()
        feed.push([Make.added(1, queue: nil, observation: .external), Make.added(2, dependencies: [1]), Make.ready(2)])
        #expect(feed.changes.suffix(3) == [Make.started(1), Make.finished(1), Make.ready(2)])
        let inferred = try #require(feed.event(Make.finished(1)))
        #expect(inferred.origin == .inferred)
        #expect(inferred.time == 3_000, "stamped with the time of the evidence")
        #expect(feed.event(Make.started(1))?.origin == .inferred)
        feed.push(Make.finished(1), origin: .sampled)
        #expect(feed.output.count == 5)
        #expect(feed.sequencer.statistics.droppedLate == 1)
        #expect(feed.sequencer.statistics.inferredFinishes == 1)
    }

    @Test("a hold that outlasts the window in monitor time ends with an inferred finish")
    func windowInTime() throws {
        var feed = SequencerFeed(window: .init(nanoseconds: 1_000_000, events: 1_000))
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.started(1), Make.started(2)])
        feed.advance(by: 999_000)
        #expect(feed.sequencer.heldCount == 1, "not yet: the window is 1 ms")
        feed.advance(by: 2_000)
        #expect(feed.changes.suffix(2) == [Make.finished(1), Make.started(2)])
        #expect(feed.event(Make.finished(1))?.origin == .inferred)
        #expect(feed.sequencer.statistics.expiredHolds == 1)
        feed.push(Make.finished(1))
        #expect(feed.sequencer.statistics.droppedLate == 1, "the real finish came too late")
    }

    @Test("a hold that outlasts the window in events ends with an inferred finish")
    func windowInEvents() {
        var feed = SequencerFeed(window: .init(nanoseconds: .max, events: 10))
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.ready(1), Make.started(1), Make.started(2)])
        for id in 3...13 { feed.push(Make.added(id)) }
        #expect(feed.sequencer.heldCount == 0)
        #expect(feed.sequencer.statistics.expiredHolds == 1)
        let finish = feed.position(of: Make.finished(1))
        let start = feed.position(of: Make.started(2))
        #expect(finish != nil && start != nil && finish! < start!)
    }

    @Test("a dependent that ran ahead of an instrumented dependency is let out after the window, the dependency left running")
    func wentAheadOfInstrumented() {
        // An isReady override that ignores dependencies: #2 runs while #1 (instrumented, whose
        // finish is reported before Foundation lets any dependent go) still executes.
        var feed = SequencerFeed(window: .init(nanoseconds: 1_000_000, events: 1_000))
        feed.push([Make.added(1, observation: .instrumented), Make.started(1),
                   Make.added(2, dependencies: [1], ready: true), Make.started(2)])
        #expect(feed.sequencer.heldCount == 2, "the claimed readiness and the start wait, as for a late finish")
        feed.advance(by: 2_000_000)
        #expect(feed.changes.suffix(2) == [Make.ready(2), Make.started(2)])
        #expect(feed.position(of: Make.finished(1)) == nil, "nothing inferred: #1 still runs")
        #expect(feed.sequencer.statistics.wentAhead == 1)
        #expect(feed.sequencer.statistics.inferredFinishes == 0)
        // Its own finish no longer waits for #1; #1's real finish comes later and is kept.
        feed.push(Make.finished(2))
        #expect(feed.changes.last == Make.finished(2))
        #expect(feed.sequencer.heldCount == 0)
        feed.push(Make.finished(1))
        #expect(feed.changes.last == Make.finished(1))
        #expect(feed.event(Make.finished(1))?.origin == .exact)
        #expect(feed.sequencer.statistics.droppedLate == 0)
        #expect(feed.sequencer.unfinishedCount == 0)
    }

    @Test("a dependent of an instrumented dependency not started yet, run ahead of it, leaves it waiting")
    func wentAheadOfWaitingInstrumented() {
        // #1 waits in a suspended queue; #2, on another queue, does not wait for it.
        var feed = SequencerFeed(window: .init(nanoseconds: 1_000_000, events: 1_000))
        feed.push([Make.added(1, observation: .instrumented), Make.added(2, queue: 2, dependencies: [1], ready: true),
                   Make.started(2), Make.finished(2)])
        feed.releaseAll()
        #expect(feed.changes.suffix(3) == [Make.ready(2), Make.started(2), Make.finished(2)])
        #expect(feed.position(of: Make.started(1)) == nil)
        #expect(feed.position(of: Make.finished(1)) == nil)
        #expect(feed.sequencer.unfinishedCount == 1, "#1 still waits")
    }

    @Test("a cancelled dependent waits for nothing; a cancel arriving while held goes first and lets it out")
    func cancellationLiftsTheHold() {
        var feed = SequencerFeed()
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.added(3, dependencies: [1]), Make.started(1),
                   Make.cancelled(2), Make.ready(2), Make.finished(2, cancelled: true)])
        #expect(feed.sequencer.heldCount == 0, "cancelled before its readiness: nothing held")
        // #3's readiness caused by a cancel whose report lost the race.
        feed.push([Make.ready(3), Make.cancelled(3)])
        #expect(feed.changes.suffix(2) == [Make.cancelled(3), Make.ready(3)])
        #expect(feed.sequencer.heldCount == 0)
        feed.push(Make.finished(1))
        #expect(feed.sequencer.statistics.inferredFinishes == 0)
    }

    @Test("an announcement claiming ready while a dependency runs is shown not ready until it finished")
    func announcementReadinessSplit() {
        var feed = SequencerFeed()
        feed.push([Make.added(1), Make.started(1), Make.added(2, dependencies: [1], ready: true)])
        #expect(feed.changes.last == Make.added(2, dependencies: [1], ready: false))
        feed.push([Make.started(2), Make.finished(1)])
        #expect(feed.changes.suffix(3) == [Make.finished(1), Make.ready(2), Make.started(2)])
        #expect(feed.event(Make.ready(2))?.time == 3_000, "the readiness keeps the announcement's time")
    }

    @Test("late and duplicate events are dropped and counted; queue events respect the queue's life")
    func lateAndDuplicates() {
        var feed = SequencerFeed()
        feed.push([Make.appeared(1), Make.added(1), Make.started(1), Make.started(1), Make.ready(1, false),
                   Make.cancelled(1), Make.cancelled(1), Make.finished(1, cancelled: true), Make.finished(1),
                   Make.ready(1), Make.added(1), Make.queueReleased(1), Make.suspended(1), Make.queueReleased(1)])
        #expect(feed.changes == [Make.appeared(1), Make.added(1), Make.started(1), Make.cancelled(1),
                                 Make.finished(1, cancelled: true), Make.queueReleased(1)])
        #expect(feed.sequencer.statistics.droppedLate == 8)
        feed.push([Make.suspended(7), Make.started(99)])
        #expect(feed.changes.suffix(2) == [Make.suspended(7), Make.started(99)], "unknown ids pass as they came")
        #expect(feed.sequencer.statistics.unannounced == 2)
    }

    @Test("a dependency cycle broken by cancelling one member: every finish before the dependents' progress")
    func cycleBrokenByCancel() {
        var feed = SequencerFeed()
        // #1 and #2 wait for each other; the app cancels #1, whose readiness is reported first.
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.dependencyAdded(1, on: 2), Make.ready(1, false),
                   Make.ready(1), Make.cancelled(1), Make.finished(1, cancelled: true),
                   Make.ready(2), Make.started(2), Make.finished(2)])
        #expect(feed.changes.suffix(6) == [Make.cancelled(1), Make.ready(1), Make.finished(1, cancelled: true),
                                           Make.ready(2), Make.started(2), Make.finished(2)])
        #expect(feed.sequencer.statistics.inferredFinishes == 0)
        #expect(feed.sequencer.statistics.brokenCycles == 0)
    }

    @Test("a cycle of waiting operations that no reported cancel breaks: the window ends it with an inferred cancel")
    func cycleOfHolds() {
        var feed = SequencerFeed()
        feed.push([Make.added(1), Make.added(2, dependencies: [1]), Make.dependencyAdded(1, on: 2),
                   Make.started(1), Make.started(2)])
        #expect(feed.sequencer.heldCount == 2)
        feed.releaseAll()
        #expect(feed.sequencer.heldCount == 0)
        #expect(feed.sequencer.statistics.brokenCycles == 1)
        // Only a cancel leaves a cycle: #1 waited for #2, so #2 is taken as cancelled, and #1,
        // which started, is still running.
        #expect(feed.changes.suffix(4) == [Make.cancelled(2), Make.started(2), Make.finished(2, cancelled: true), Make.started(1)])
        #expect(feed.event(Make.cancelled(2))?.origin == .inferred)
        #expect(feed.sequencer.unfinishedCount == 1)
    }

    @Test("a dependency-only operation that joins a queue becomes exact: its finish is waited for, not inferred")
    func dependencyJoinsQueue() {
        var feed = SequencerFeed()
        feed.push([Make.added(1, queue: nil, observation: .external), Make.added(2, dependencies: [1]),
                   Make.added(1, observation: .hooked), Make.started(1), Make.started(2)])
        #expect(feed.sequencer.heldCount == 1)
        feed.push(Make.finished(1))
        #expect(feed.changes.suffix(2) == [Make.finished(1), Make.started(2)])
        #expect(feed.sequencer.statistics.inferredFinishes == 0)
    }

    @Test("an announcement overtaken by a newer one is not mistaken for a finished operation")
    func announcementsOutOfOrder() {
        var feed = SequencerFeed()
        feed.push([Make.added(6), Make.added(5), Make.started(5), Make.finished(5), Make.started(6)])
        #expect(feed.output.count == 5)
        #expect(feed.sequencer.statistics.droppedLate == 0)
    }

    @Test("memory: finished operations are forgotten; one stuck operation does not keep the rest")
    func memoryBound() {
        var feed = SequencerFeed(maximumSpan: 4_096)
        feed.push(Make.added(1))
        for id in 2...100_000 { feed.push([Make.added(id), Make.started(id), Make.finished(id)]) }
        #expect(feed.sequencer.unfinishedCount == 1)
        #expect(feed.sequencer.tableFootprint <= 4_096 + 1)
        feed.push(Make.finished(1))
        #expect(feed.sequencer.unfinishedCount == 0)
        feed.push(Make.added(100_001))
        #expect(feed.sequencer.tableFootprint <= 4_096)
    }

    @Test("a removed dependency no longer holds its former dependent")
    func dependencyRemovedWhileWaiting() {
        var feed = SequencerFeed()
        feed.push([Make.added(1), Make.added(2), Make.added(3, dependencies: [1, 2]), Make.finished(2),
                   Make.dependencyRemoved(3, on: 1), Make.started(3)])
        #expect(feed.changes.last == Make.started(3))
        #expect(feed.sequencer.heldCount == 0)
    }
}
