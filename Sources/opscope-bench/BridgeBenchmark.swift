import ArgumentParser
import Foundation
import OpScopeOTLP
import OpScopeTelemetry
import ReliabilityRuns
@_spi(Benchmark) import OperationBridge
import OperationEvents

/// Throughput of the observed queues against plain ones, measured side by side.
///
/// Each round runs every mode once, in a shuffled order, and divides each observed mode's
/// throughput by its plain counterpart *of the same round*; the report gives the median ratio
/// over the rounds. A consumer thread reads a subscription every 5 ms as the dashboard does, so
/// the observed runs pay for the whole pipeline: the ring, the hub (causal order, the history,
/// the subscription's buffer) and its thread; the number of dropped events, and of events held
/// back for their causes, is reported.
///
/// Every run waits with `waitUntilAllOperationsAreFinished()`, as a program would; with
/// `OPSCOPE_BENCH_WAIT_LAST` set it waits only for the last operation's block instead (a
/// countdown), to tell the waiting thread's wake-ups (one per finish it waits on) from the
/// observation's own cost.
struct BridgeBenchmark {
    enum Mode: String, CaseIterable, ExpressibleByArgument {
        case plainBlock = "plain-block"
        case plainInstrumented = "plain-instrumented"
        case instrumented = "instrumented"
        case foreign = "hooked"
        case hookFloor = "hook-floor"
        case sampled = "sampled"
        case reported = "reported"
        case queueBlock = "queue-block"

        /// What the mode runs, for the report.
        var title: String {
            switch self {
            case .plainBlock: "plain queue, BlockOperation"
            case .plainInstrumented: "plain queue, ObservableBlockOperation"
            case .instrumented: "observed queue, ObservableBlockOperation"
            case .foreign: "observed queue, BlockOperation (hooked)"
            case .hookFloor: "plain queue, BlockOperation + bare hook"
            case .sampled: "tracked plain queue, BlockOperation"
            case .reported: "adapter (willAdd), BlockOperation"
            case .queueBlock: "observed queue, addOperation { }"
            }
        }

        /// The plain mode this one is compared with (the same operation class, unobserved).
        var baseline: Mode? {
            switch self {
            case .plainBlock, .plainInstrumented: nil
            case .instrumented: .plainInstrumented
            case .foreign, .hookFloor, .sampled, .reported, .queueBlock: .plainBlock
            }
        }
    }

    var operations: Int
    var workMicroseconds: Int
    var rounds: Int
    var seed: UInt64
    /// When not empty, only these modes and their baselines run (for profiling, or to compare
    /// two modes in one invocation).
    var only: [Mode] = []
    /// With `only`: run those modes alone, without their baselines.
    var solo = false
    /// Whether producers drain a nearly full ring themselves (the monitor's default).
    var producersAssist = true
    /// Finished operations the history keeps; nil: the monitor's default.
    var historyRetention: Int?
    /// Whether the observed modes run with the Prometheus metrics following their monitor.
    var metrics = false
    /// A collector the observed modes send spans and metrics to (OTLPExporter), if any.
    var otlp: String?

    private var modes: [Mode] {
        guard !only.isEmpty else { return Mode.allCases }
        // The modes as named, then their baselines: with one mode this is the order earlier
        // builds used, so that the same seed shuffles a round the same way in both.
        var modes: [Mode] = []
        for mode in only + (solo ? [] : only.compactMap(\.baseline)) where !modes.contains(mode) {
            modes.append(mode)
        }
        return modes
    }

    struct Result {
        var throughput: [Mode: [Double]] = [:]
        var ratios: [Mode: [Double]] = [:]
        /// Process CPU time (user + system) per operation, in microseconds.
        var cpuPerOperation: [Mode: [Double]] = [:]
        var dropped = 0
        /// Of them, events the ring dropped (the rest the consumer's subscription lost).
        var ringDropped = 0
        /// Times a producer drained the ring itself because the hub's thread was late.
        var assists = 0
        /// Events the ordering held back until their causes arrived, and finishes it inferred.
        var held = 0
        var inferred = 0
        /// With `metrics`: the metrics threads' CPU and the events they folded, over every run.
        var metricsCPUNanoseconds: UInt64 = 0
        var metricsEvents = 0
        /// With `otlp`: the trace exporter's thread CPU and the events it folded.
        var tracesCPUNanoseconds: UInt64 = 0
        var tracesEvents = 0
        /// The process's peak resident memory after the runs (kB; VmHWM).
        var peakResidentKilobytes = 0
    }

    func run(maxConcurrent: Int) -> Result {
        var result = Result()
        var random = SplitMix64(seed: seed &+ UInt64(bitPattern: Int64(maxConcurrent)))
        for _ in 0..<rounds {
            var round: [Mode: Double] = [:]
            for mode in modes.shuffled(using: &random) {
                let cpuBefore = processCPUSeconds()
                let run = measure(mode, maxConcurrent: maxConcurrent)
                let cpu = processCPUSeconds() - cpuBefore
                round[mode] = run.rate
                result.dropped += run.lost
                result.assists += run.assists
                result.ringDropped += run.ringDropped
                result.metricsCPUNanoseconds += run.metricsCPUNanoseconds
                result.metricsEvents += run.metricsEvents
                result.tracesCPUNanoseconds += run.tracesCPUNanoseconds
                result.tracesEvents += run.tracesEvents
                result.held += run.ordering.held
                result.inferred += run.ordering.inferredFinishes
                result.throughput[mode, default: []].append(run.rate)
                result.cpuPerOperation[mode, default: []].append(cpu / Double(operations) * 1e6)
            }
            result.peakResidentKilobytes = peakResidentKilobytes()
            for mode in modes {
                if let baseline = mode.baseline, let rate = round[mode], let base = round[baseline] {
                    result.ratios[mode, default: []].append(rate / base)
                }
            }
        }
        return result
    }

    /// What one run measured.
    private struct Run {
        /// Operations per second from the first add to the last finish.
        var rate: Double
        /// Events the consumer lost (the ring's drops included), and the ring's drops alone.
        var lost: Int
        var ringDropped: Int
        /// Times a producer drained the ring itself.
        var assists: Int
        var ordering: CausalSequencer.Statistics
        var metricsCPUNanoseconds: UInt64 = 0
        var metricsEvents = 0
        var tracesCPUNanoseconds: UInt64 = 0
        var tracesEvents = 0
    }

    /// One run: operations per second from the first add to the last finish.
    private func measure(_ mode: Mode, maxConcurrent: Int) -> Run {
        var configuration = OperationMonitor.Configuration()
        configuration.producersAssist = producersAssist
        if let historyRetention { configuration.history.maximumFinished = historyRetention }
        let monitor = OperationMonitor(configuration: configuration)
        let consumer = Consumer(monitor: monitor)
        let queue: OperationQueue
        switch mode {
        case .instrumented, .foreign, .queueBlock:
            queue = ObservedOperationQueue(monitor: monitor, name: "bench", maxConcurrentOperationCount: maxConcurrent)
        case .reported:
            queue = ReportingQueue(monitor: monitor)
            queue.maxConcurrentOperationCount = maxConcurrent
        case .plainBlock, .plainInstrumented, .hookFloor, .sampled:
            queue = OperationQueue()
            queue.maxConcurrentOperationCount = maxConcurrent
            if mode == .sampled { monitor.track(queue) }
        }
        let work = workMicroseconds
        let waitLast = ProcessInfo.processInfo.environment["OPSCOPE_BENCH_WAIT_LAST"] != nil
        let countdown = Countdown(operations)
        let block: @Sendable () -> Void
        switch (work == 0, waitLast) {
        case (true, false): block = {}
        case (true, true): block = { countdown.tick() }
        case (false, false): block = { spin(microseconds: work) }
        case (false, true):
            block = {
                spin(microseconds: work)
                countdown.tick()
            }
        }
        consumer.start()
        // The metrics follow the observed modes' monitor as one more consumer (the baselines
        // have nothing for them to follow).
        let metrics = self.metrics && mode.baseline != nil
            ? OperationMetrics(source: monitor, factory: PrometheusExposition().factory) : nil
        var otlpConfiguration = OTLPConfiguration()
        otlpConfiguration.endpoint = otlp
        otlpConfiguration.metrics = false
        let exporter = otlp != nil && mode.baseline != nil
            ? try? OTLPExporter(source: monitor, program: "opscope-bench", configuration: otlpConfiguration) : nil
        let start = monitor.now()
        switch mode {
        case .plainInstrumented, .instrumented:
            for _ in 0..<operations { queue.addOperation(ObservableBlockOperation(block: block)) }
        case .plainBlock, .foreign, .sampled, .reported:
            for _ in 0..<operations { queue.addOperation(BlockOperation(block: block)) }
        case .queueBlock:
            for _ in 0..<operations { queue.addOperation(block) }
        case .hookFloor:
            let pool = BareHookPool()
            for _ in 0..<operations {
                let operation = BlockOperation(block: block)
                pool.take().arm(for: operation, pool: pool)
                queue.addOperation(operation)
            }
        }
        if waitLast { countdown.wait() } else { queue.waitUntilAllOperationsAreFinished() }
        let elapsed = Double(monitor.now() - start) / 1e9
        consumer.stop()
        metrics?.sync()
        metrics?.stop()
        exporter?.sync()
        let traceCost = exporter?.traceCost ?? (cpuNanoseconds: 0, events: 0)
        exporter?.stop()
        let verbose = ProcessInfo.processInfo.environment["OPSCOPE_BENCH_VERBOSE"] != nil
        if verbose, [.sampled, .foreign, .reported, .queueBlock].contains(mode) {
            let cost = monitor.samplerCost
            print(String(format: "  [%@] sampler: %d ticks, %.1f ms CPU over %.2f s", mode.rawValue, cost.ticks,
                         Double(cost.cpuNanoseconds) / 1e6, elapsed))
        }
        if verbose, mode.baseline != nil, mode != .hookFloor {
            let pump = monitor.pumpCost
            let hub = monitor.hubStatistics
            print(String(format: "  [%@] hub thread: %d runs, %.1f ms CPU; consumer took %d events, lost %d (the ring dropped %d, producers drained it %d times); "
                         + "%d repairs, %d keyframes; %d folds, %d on the hub's thread, %d batches copied", mode.rawValue, pump.runs,
                         Double(pump.cpuNanoseconds) / 1e6, consumer.received, consumer.lost, monitor.droppedEvents, hub.assists, hub.repairs,
                         hub.keyframes, hub.folds, hub.pumpFolds, hub.foldCopies))
        }
        if verbose {
            print(String(format: "  [%@] consumer: longest gap between reads %.1f ms, longest read %.1f ms, largest batch %d",
                         mode.rawValue, Double(consumer.longestGap) / 1e6, Double(consumer.longestRead) / 1e6, consumer.largestBatch))
        }
        return Run(rate: Double(operations) / elapsed, lost: consumer.lost, ringDropped: monitor.droppedEvents,
                   assists: monitor.hubStatistics.assists, ordering: monitor.orderingStatistics,
                   metricsCPUNanoseconds: metrics?.cpuNanoseconds ?? 0, metricsEvents: metrics?.eventsFolded ?? 0,
                   tracesCPUNanoseconds: traceCost.cpuNanoseconds, tracesEvents: traceCost.events)
    }
}

/// A queue class of the program's own that reports its adds through the adapter API, as a
/// framework's queue class does (docs/embedding.md, "A queue class of your own").
final class ReportingQueue: OperationQueue, @unchecked Sendable {
    private let monitor: OperationMonitor

    init(monitor: OperationMonitor) {
        self.monitor = monitor
        super.init()
    }

    override func addOperation(_ operation: Operation) {
        monitor.willAdd(operation, to: self)
        super.addOperation(operation)
    }
}

/// User plus system CPU time of the whole process so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue == 0 ? __rusage_who_t(RUSAGE_SELF.rawValue) : 0, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Reads a subscription to a monitor every 5 ms on its own thread, as a dashboard would.
final class Consumer: @unchecked Sendable {
    private let subscription: any EventSubscription
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false
    private(set) var received = 0
    /// Events lost on the way: dropped by the ring (and repaired by the hub), or by the
    /// subscription when it fell behind its buffer.
    private(set) var lost = 0
    /// The longest time between two reads and the longest read, in nanoseconds, and the
    /// largest batch (to tell a starved reader from a slow hub).
    private(set) var longestGap: UInt64 = 0
    private(set) var longestRead: UInt64 = 0
    private(set) var largestBatch = 0
    private var lastRead: UInt64 = 0

    init(monitor: OperationMonitor) {
        subscription = monitor.subscribe(SubscriptionRequest(consumer: "benchmark"))
    }

    func start() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.005)) }
                let stop = stopping
                condition.unlock()
                let before = MonitorClock.monotonic.now()
                if lastRead > 0 { longestGap = max(longestGap, before - lastRead) }
                let batch = subscription.next(limit: .max)
                lastRead = MonitorClock.monotonic.now()
                longestRead = max(longestRead, lastRead - before)
                largestBatch = max(largestBatch, batch.events.count)
                received += batch.events.count
                lost = batch.droppedTotal
                if stop { break }
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// Busy work for about `microseconds` (a sleeping operation would not load the cores).
@inline(never)
func spin(microseconds: Int) {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    let end = Int(spec.tv_sec) * 1_000_000_000 + spec.tv_nsec + microseconds * 1000
    var now = 0
    repeat {
        clock_gettime(CLOCK_MONOTONIC, &spec)
        now = Int(spec.tv_sec) * 1_000_000_000 + spec.tv_nsec
    } while now < end
}

/// Counts operations down; `wait()` returns once every one has ticked.
final class Countdown: @unchecked Sendable {
    private let condition = NSCondition()
    private var left: Int
    init(_ count: Int) { left = count }
    func tick() {
        condition.lock()
        left -= 1
        if left == 0 { condition.broadcast() }
        condition.unlock()
    }
    func wait() {
        condition.lock()
        while left > 0 { condition.wait() }
        condition.unlock()
    }
}
