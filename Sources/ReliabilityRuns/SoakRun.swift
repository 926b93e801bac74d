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

/// The dashboard's side of a run, headless: a thread draining the monitor into a model, the way
/// the dashboard does, counting what it saw.
public final class LiveReducer: @unchecked Sendable {
    private let monitor: OperationMonitor
    private let lock = NSLock()
    private var model: DashboardModel
    private var thread: Thread?
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Events the model received, and whether their sequence numbers had gaps.
    public private(set) var seen = 0
    public private(set) var gaps = 0
    public private(set) var resyncs = 0
    private var expected: UInt64 = 0
    /// Pause (seconds) after each drain: a slow consumer, to force drops.
    let lag: Double

    public init(monitor: OperationMonitor, configuration: ModelConfiguration = ModelConfiguration(), lag: Double = 0) {
        self.monitor = monitor
        self.lag = lag
        model = DashboardModel(configuration: configuration)
    }

    public func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                if drainOnce() == 0 { Thread.sleep(forTimeInterval: 0.002) } else if lag > 0 { Thread.sleep(forTimeInterval: lag) }
            }
            while drainOnce() > 0 {}
            finished.store(true, ordering: .releasing)
        }
        thread.name = "opscope.reducer"
        self.thread = thread
        thread.start()
    }

    /// Stops after draining everything the monitor holds.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
    }

    @discardableResult
    private func drainOnce() -> Int {
        let batch = monitor.drainEvents(limit: 16_384)
        lock.lock()
        defer { lock.unlock() }
        // A keyframe (the first batch, or after falling behind) brings the events before it in
        // its state; the events resume after it.
        if case .keyframe(let keyframe) = batch.start, keyframe.nextSequence >= expected {
            seen += Int(keyframe.nextSequence - expected)
            expected = keyframe.nextSequence
        }
        for event in batch.events {
            if event.sequence != expected { gaps += 1 }
            expected = event.sequence &+ 1
        }
        seen += batch.events.count
        if model.apply(batch, resyncFrom: monitor.snapshot) { resyncs += 1 }
        return batch.events.count
    }

    /// The model now (a copy).
    public var current: DashboardModel {
        lock.lock()
        defer { lock.unlock() }
        var copy = model
        copy.advance(to: monitor.now())
        return copy
    }
}

/// Figures of a run.
public struct RunResult: Sendable, CustomStringConvertible {
    public var operations = 0
    public var cancelled = 0
    public var seconds = 0.0
    public var created = 0
    public var released = 0
    public var accepted = 0
    public var dropped = 0
    public var seen = 0
    public var gaps = 0
    public var resyncs = 0
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
            "events: accepted \(accepted), dropped \(dropped), seen by the model \(seen), sequence gaps \(gaps), re-syncs \(resyncs)",
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
        let model = reducer.current
        created = life.createdCount
        released = life.releasedCount
        accepted = monitor.acceptedEvents
        dropped = monitor.droppedEvents
        seen = reducer.seen
        gaps = reducer.gaps
        resyncs = reducer.resyncs
        modelFinished = model.queues.values.reduce(0) { $0 + $1.finished }
        modelCancelled = model.queues.values.reduce(0) { $0 + $1.cancelled }
        modelUnfinished = model.operations.values.filter { $0.state != .finished }.count
        retainedInModel = model.operations.count
        peakRSSKilobytes = peakResidentKilobytes()
    }

    /// What must hold after any run: every operation released, every accepted event seen in
    /// order, no operation left unfinished in the model, drops answered by a re-sync.
    func sharedProblems() -> [String] {
        var problems: [String] = []
        if released != created { problems.append("\(created - released) operations never released") }
        if seen != accepted { problems.append("the model saw \(seen) of \(accepted) accepted events") }
        if gaps != 0 { problems.append("\(gaps) gaps in the sequence numbers the model saw") }
        if modelUnfinished != 0 { problems.append("\(modelUnfinished) operations still unfinished in the model (ghost states)") }
        if dropped > 0, resyncs == 0 { problems.append("\(dropped) events dropped but the model never re-synchronised") }
        return problems
    }
}

/// Peak resident memory of this process (VmHWM), in kilobytes.
public func peakResidentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// The soak: many operations through several observed queues with dependencies, cancellations
/// and suspend/resume, reduced live; then every figure is checked.
public struct SoakRun: Sendable {
    public var operations: Int
    public var queues = 4
    /// Events the monitor buffers (small values force drops and re-syncs).
    public var bufferCapacity = 65_536
    /// A slow consumer (seconds per drain) to force drops.
    public var consumerLag = 0.0
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
        let monitor = OperationMonitor(configuration: configuration)
        let life = LifeCounter()
        let reducer = LiveReducer(monitor: monitor, lag: consumerLag)
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
                var made: [CountedOperation] = []
                made.reserveCapacity(count)
                for index in 0..<count {
                    let operation = CountedOperation(life, spin: Int.random(in: 10...200, using: &random))
                    // Chains inside the batch, sometimes across queues.
                    if index > 0, index % 3 != 0 { operation.addDependency(made[index - 1 - Int.random(in: 0..<min(index, 4), using: &random)]) }
                    made.append(operation)
                }
                // About 3% are cancelled before they are added. Every tenth batch one queue is
                // suspended while the batch goes in, and some of its operations are cancelled
                // while they wait (a suspended queue starts nothing, so each is counted exactly).
                // Only operations without dependencies are cancelled by the "app" here: cancelling
                // one that waits for a dependency and then dropping it crashes Foundation on Linux
                // (dependents are held unretained; see README). The dashboard's cancel command
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
