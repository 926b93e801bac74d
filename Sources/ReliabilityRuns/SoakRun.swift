import DashboardModel
import Foundation
import OperationBridge
import OperationEvents
import Synchronization

/// Counts operations created and deinitialised: every operation must be released after it
/// finished (the monitor holds them weakly).
public final class LifeCounter: Sendable {
    let created = Atomic<Int>(0)
    let released = Atomic<Int>(0)
    public init() {}
    public var createdCount: Int { created.load(ordering: .acquiring) }
    public var releasedCount: Int { released.load(ordering: .acquiring) }
}

/// An operation that counts its life and does a little work (a few microseconds).
final class CountedOperation: ObservableOperation, @unchecked Sendable {
    private let counter: LifeCounter
    private let spin: Int

    init(_ counter: LifeCounter, spin: Int) {
        self.counter = counter
        self.spin = spin
        super.init()
        counter.created.wrappingAdd(1, ordering: .relaxed)
    }

    deinit { counter.released.wrappingAdd(1, ordering: .releasing) }

    override func main() {
        var value = 0
        for index in 0..<spin { value &+= index }
        if value == -1 { print(value) }
    }
}

/// Figures of a run.
public struct RunResult: Sendable, CustomStringConvertible {
    public var operations = 0
    public var cancelled = 0
    public var seconds = 0.0
    public var created = 0
    public var released = 0
    /// Events the monitor's stream numbered (its hub), and events its producers' buffer dropped.
    public var accepted = 0
    public var dropped = 0
    /// Sequence numbers the model accounts for (events received, or stood for by a keyframe).
    public var seen = 0
    public var received = 0
    public var keyframes = 0
    /// Events keyframes stood for after the first, and what the subscription's books say it
    /// lost (fell behind) and discarded (asked for a fresh start): they must agree.
    public var covered = 0
    public var subscriptionLost = 0
    public var subscriptionDiscarded = 0
    public var gaps = 0
    /// Fresh starts after the first keyframe: asked for by the model after a loss, or given by
    /// the hub after the subscription fell behind. `resyncRequests` counts the first kind.
    public var resyncs = 0
    public var resyncRequests = 0
    /// Where the model and the monitor's history (the truth the hub kept) disagree at the end.
    public var divergences: [String] = []
    public var modelFinished = 0
    public var modelCancelled = 0
    public var modelUnfinished = 0
    public var peakRSSKilobytes = 0
    public var retainedInModel = 0
    public var commands = 0
    public var refused = 0
    public var problems: [String] = []

    public var description: String {
        var lines = [
            "operations submitted \(operations)\(cancelled > 0 ? " (cancelled \(cancelled) by the app)" : "") in \(String(format: "%.1f", seconds)) s",
            "released \(released) of \(created) created",
            "events: accepted \(accepted), dropped \(dropped), seen by the model \(seen), sequence gaps \(gaps), re-syncs \(resyncs) (asked \(resyncRequests))",
            "consumer: received \(received), keyframes \(keyframes) standing for \(covered) events "
                + "(subscription lost \(subscriptionLost), discarded \(subscriptionDiscarded))",
            "model: finished \(modelFinished) (cancelled \(modelCancelled)), unfinished \(modelUnfinished), retained \(retainedInModel)",
            "peak RSS \(peakRSSKilobytes / 1024) MB",
        ]
        if commands > 0 { lines.append("commands performed \(commands) (refused with an error \(refused))") }
        lines.append(problems.isEmpty ? "all checks held" : "PROBLEMS:\n  " + problems.joined(separator: "\n  "))
        return lines.joined(separator: "\n")
    }
}

extension RunResult {
    /// Waits (up to 10 s) for every operation to be released, stops the reducer, and fills in
    /// the figures both runs share.
    mutating func collect(life: LifeCounter, reducer: LiveReducer, monitor: OperationMonitor) {
        let deadline = Date().addingTimeInterval(10)
        while life.releasedCount < life.createdCount, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reducer.stop()
        created = life.createdCount
        released = life.releasedCount
        accepted = monitor.acceptedEvents
        dropped = monitor.droppedEvents
        // Anything the monitor numbered since the reducer's last read (nothing, once the work
        // is done) is read now, so that the model and the truth are compared at one point.
        reducer.catchUp()
        let truth = monitor.history
        let model = reducer.current
        let books = monitor.hubStatistics.subscriptions.first { $0.consumer == LiveReducer.consumer }
        seen = reducer.seen
        received = reducer.received
        keyframes = reducer.keyframes
        covered = reducer.covered
        subscriptionLost = books?.lost ?? -1
        subscriptionDiscarded = books?.discarded ?? -1
        gaps = reducer.gaps + reducer.backwards
        resyncs = max(0, reducer.keyframes - 1)
        resyncRequests = reducer.requests
        divergences = Self.divergences(of: model.stream, from: truth, subscriptionLost: subscriptionLost)
        modelFinished = model.queues.values.reduce(0) { $0 + $1.finished }
        modelCancelled = model.queues.values.reduce(0) { $0 + $1.cancelled }
        modelUnfinished = model.operations.values.filter { $0.state != .finished }.count
        retainedInModel = model.operations.count
        peakRSSKilobytes = peakResidentKilobytes()
    }

    /// Where a consumer's fold of the stream differs from the monitor's own (its history):
    /// the same stream must give the same queues, counts, operations and losses (the consumer's
    /// own losses aside, which only its count shows).
    static func divergences(of model: StreamState, from truth: StreamState, subscriptionLost: Int) -> [String] {
        var found: [String] = []
        if model.nextSequence != truth.nextSequence {
            found.append("the model is at sequence \(model.nextSequence), the monitor at \(truth.nextSequence)")
        }
        if model.counters.eventsLost != truth.counters.eventsLost + subscriptionLost {
            found.append("the model counts \(model.counters.eventsLost) events lost; the monitor's buffer dropped "
                         + "\(truth.counters.eventsLost) and the subscription lost \(subscriptionLost)")
        }
        let truthQueues = truth.queues.values.sorted { $0.id < $1.id }
        let modelQueues = model.queues.values.sorted { $0.id < $1.id }
        if truthQueues.map(\.id) != modelQueues.map(\.id) {
            found.append("queues \(modelQueues.map(\.id)) in the model, \(truthQueues.map(\.id)) in the monitor")
        }
        for (seen, real) in zip(modelQueues, truthQueues) where seen.id == real.id {
            let counts = { (queue: StreamQueue) in [queue.finished, queue.cancelled, queue.pending, queue.ready, queue.executing] }
            if counts(seen) != counts(real) || seen.isReleased != real.isReleased {
                found.append("queue \(real.name): finished, cancelled, pending, ready, executing \(counts(seen)) in the model, "
                             + "\(counts(real)) in the monitor")
            }
        }
        let unfinished = { (state: StreamState) in
            Dictionary(uniqueKeysWithValues: state.operations.values.filter { $0.state != .finished }.map { ($0.id, $0.state) })
        }
        let modelUnfinished = unfinished(model)
        let truthUnfinished = unfinished(truth)
        if modelUnfinished != truthUnfinished {
            found.append("\(modelUnfinished.count) unfinished operations in the model, \(truthUnfinished.count) in the monitor")
        }
        return found
    }

    /// What must hold after any run: every operation released; every sequence number the
    /// monitor gave out either received by the model or stood for by a keyframe, with the
    /// subscription's books agreeing; the model equal to the monitor's own history; no operation
    /// left unfinished in the model; drops answered by a re-sync.
    func sharedProblems() -> [String] {
        var problems: [String] = []
        if released != created { problems.append("\(created - released) operations never released") }
        if seen != accepted { problems.append("the model saw \(seen) of \(accepted) accepted events") }
        if covered != subscriptionLost + subscriptionDiscarded {
            problems.append("keyframes stood for \(covered) events, but the subscription lost \(subscriptionLost) "
                            + "and discarded \(subscriptionDiscarded)")
        }
        if gaps != 0 { problems.append("\(gaps) gaps in the sequence numbers the model saw") }
        problems += divergences.map { "the model diverged from the monitor: \($0)" }
        if modelUnfinished != 0 { problems.append("\(modelUnfinished) operations still unfinished in the model (ghost states)") }
        if dropped > 0, resyncs == 0 { problems.append("\(dropped) events dropped but the model never re-synchronised") }
        return problems
    }
}

/// The soak: many operations through several observed queues with dependencies, cancellations
/// and suspend/resume, reduced live; then every figure is checked.
public struct SoakRun: Sendable {
    public var operations: Int
    public var queues = 4
    /// Events the monitor buffers: its producers' buffer, and the consumer's subscription
    /// (small values force drops, repairs and fresh keyframes).
    public var bufferCapacity = 65_536
    /// A slow consumer (seconds per drain) to force drops.
    public var consumerLag = 0.0
    /// Whether producers drain a nearly full buffer themselves (the default); false lets the
    /// buffer overflow so that the repair of ring drops is exercised.
    public var producersAssist = true
    /// Percent cancelled before they are added, and (of a suspended queue's) while they wait.
    public var cancelBeforeAdd = 3
    public var cancelWhileSuspended = 10
    /// Suspend one queue every this many batches (0: never).
    public var suspendEvery = 10

    public init(operations: Int) { self.operations = operations }

    public func run(progress: ((Int) -> Void)? = nil) -> RunResult {
        var result = RunResult()
        let started = Date()
        var configuration = OperationMonitor.Configuration()
        configuration.bufferCapacity = bufferCapacity
        configuration.producersAssist = producersAssist
        let monitor = OperationMonitor(configuration: configuration)
        let life = LifeCounter()
        let reducer = LiveReducer(monitor: monitor, lag: consumerLag, bufferCapacity: bufferCapacity)
        reducer.start()
        var cancelled = 0
        do {
            let queueList = (0..<queues).map {
                ObservedOperationQueue(monitor: monitor, name: "soak-\($0)", maxConcurrentOperationCount: 2 + $0 * 2)
            }
            var random = SystemRandomNumberGenerator()
            var submitted = 0
            let batch = 2_000
            while submitted < operations {
                let count = min(batch, operations - submitted)
                var made = CountedOperation.chainedBatch(count: count, life: life, using: &random)
                // About 3% are cancelled before they are added. Every tenth batch one queue is
                // suspended while the batch goes in, and some of its operations are cancelled
                // while they wait (a suspended queue starts nothing, so each is counted exactly).
                // Only operations without dependencies are cancelled by the "app" here: cancelling
                // one that waits for a dependency and then dropping it crashes Foundation on Linux
                // (dependents are held unretained; see docs/foundation-on-linux.md). The dashboard's cancel command
                // guards against that itself; the stress run exercises it.
                for operation in made where operation.dependencies.isEmpty && Int.random(in: 0..<100, using: &random) < cancelBeforeAdd {
                    operation.cancel()
                    cancelled += 1
                }
                let pausedIndex = suspendEvery > 0 && submitted % (batch * suspendEvery) == 0 ? Int.random(in: 0..<queueList.count, using: &random) : nil
                if let pausedIndex { queueList[pausedIndex].isSuspended = true }
                for (index, operation) in made.enumerated() {
                    queueList[index % queueList.count].addOperation(operation)
                }
                if let pausedIndex {
                    for (index, operation) in made.enumerated() where index % queueList.count == pausedIndex && !operation.isCancelled
                        && operation.dependencies.isEmpty && Int.random(in: 0..<100, using: &random) < cancelWhileSuspended {
                        operation.cancel()
                        cancelled += 1
                    }
                    queueList[pausedIndex].isSuspended = false
                }
                made.removeAll()
                submitted += count
                // Back-pressure: at most a few batches in flight.
                while queueList.reduce(0, { $0 + $1.operationCount }) > batch * 4 { Thread.sleep(forTimeInterval: 0.001) }
                progress?(submitted)
            }
            for queue in queueList { queue.waitUntilAllOperationsAreFinished() }
        }
        // Queues and operations are gone: every operation must have been released.
        result.collect(life: life, reducer: reducer, monitor: monitor)
        result.operations = operations
        result.cancelled = cancelled
        result.seconds = Date().timeIntervalSince(started)
        result.problems = check(result)
        return result
    }

    private func check(_ result: RunResult) -> [String] {
        var problems = result.sharedProblems()
        if result.created != operations { problems.append("created \(result.created), expected \(operations)") }
        if result.dropped == 0 {
            // Nothing dropped: the model's totals must be exactly what was submitted.
            if result.modelFinished != operations { problems.append("model finished \(result.modelFinished), submitted \(operations)") }
            if result.modelCancelled != result.cancelled { problems.append("model cancelled \(result.modelCancelled), cancelled \(result.cancelled)") }
        }
        return problems
    }
}
