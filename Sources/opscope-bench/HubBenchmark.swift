import ArgumentParser
import Foundation
import HeapStatistics
@_spi(Benchmark) import OperationBridge
import OperationEvents

/// The monitor's hub alone: what it costs per event to order, keep in the history and hand out
/// an event; the memory of the history per retained operation and of a subscription's buffer
/// per event; and the CPU an idle monitor with no consumer takes.
struct HubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub",
        abstract: "The monitor's hub: cost per event, memory of the history, idle CPU of a monitor.")

    @Option(help: "Operations per measurement (three events each).")
    var operations = 100_000

    @Option(help: "Repetitions of the timed parts (medians are reported).")
    var repetitions = 9

    @Option(help: "Seconds of idle CPU measurement.")
    var idleSeconds = 10.0

    func run() throws {
        warnIfDebugBuild(use: "swift run -c release opscope-bench hub")
        let benchmark = HubBenchmark(operations: operations)
        print("OpScope hub benchmark: \(operations) operations, 3 events each (announced, started, finished)")
        for subscriptions in [0, 1, 4] {
            let costs = (0..<repetitions).map { _ in benchmark.nanosecondsPerEvent(subscriptions: subscriptions, foldOnPump: false) }
            print(String(format: "hub, CPU per event, %d subscription(s) reading: %.0f ns (min %.0f, max %.0f)",
                         subscriptions, Statistics.median(costs), costs.min()!, costs.max()!))
        }
        // A long class name, as a string and interned as the bridge reports it, alternately.
        let longName = "ThumbnailRenderingOperation"
        var asText = benchmark
        asText.typeName = .text(longName)
        var interned = benchmark
        interned.typeName = TypeNameStorage(interning: longName)
        var textCosts: [Double] = []
        var internedCosts: [Double] = []
        for _ in 0..<repetitions {
            textCosts.append(asText.nanosecondsPerEvent(subscriptions: 1, foldOnPump: false))
            internedCosts.append(interned.nanosecondsPerEvent(subscriptions: 1, foldOnPump: false))
        }
        print(String(format: "  with a %d-byte class name, one subscription: as a string %.0f ns, interned %.0f ns (medians, alternating)",
                     longName.utf8.count, Statistics.median(textCosts), Statistics.median(internedCosts)))
        let served = (0..<repetitions).map { _ in benchmark.nanosecondsPerEvent(subscriptions: 1, foldOnPump: true) }
        print(String(format: "  of which on the reader's thread when the pump folds the history: %.0f ns (min %.0f, max %.0f)",
                     Statistics.median(served), served.min()!, served.max()!))
        let memory = (0..<3).map { _ in benchmark.historyBytesPerOperation() }
        // The measured history keeps every operation it is given (`--operations` of them).
        print(String(format: "history, per retained finished operation, %d retained: %.0f B (runs: %@)", operations,
                     Statistics.median(memory), memory.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
        let buffered = (0..<3).map { _ in benchmark.bufferBytesPerEvent() }
        print(String(format: "subscription buffer, per event waiting: %.0f B (runs: %@)", Statistics.median(buffered),
                     buffered.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
        for hooked in [false, true] {
            let idle = benchmark.idleCPU(seconds: idleSeconds, hooked: hooked)
            print(String(format: "idle monitor, no consumer, after %@ work: %.2f ms CPU over %.0f s (hub thread woke %d times, "
                         + "sampler ticked %d times)", hooked ? "hooked" : "instrumented", idle.milliseconds, idleSeconds,
                         idle.pumpRuns, idle.samplerTicks))
        }
    }
}

struct HubBenchmark {
    let operations: Int
    /// The class name the announcements carry (short enough to be kept inline by default).
    var typeName: TypeNameStorage = .text("BlockOperation")

    private func quietMonitor() -> OperationMonitor {
        var configuration = OperationMonitor.Configuration()
        // Room for every event of a measurement: the hub runs only when the benchmark says.
        configuration.bufferCapacity = operations * 3 + 16
        configuration.subscriptionBufferCapacity = operations * 3 + 16
        configuration.history = StreamRetention(maximumFinished: operations, historyLimit: 12)
        configuration.pumpsAutomatically = false
        return OperationMonitor(configuration: configuration)
    }

    /// The events the hooks report for `count` operations of one queue.
    private func emit(_ monitor: OperationMonitor, operations range: Range<Int>) {
        for index in range {
            let id = OperationID(index + 1)
            var info = OperationInfo(id: id, queue: QueueID(1), typeName: "", observation: .hooked)
            info.typeNameStorage = typeName
            monitor.emitForBenchmark(.operationAdded(info))
            monitor.emitForBenchmark(.started(operation: id))
            monitor.emitForBenchmark(.finished(operation: id, cancelled: false))
        }
    }

    /// CPU time (of the serving thread: other processes on the machine do not count) the hub
    /// takes to serve what the ring holds (order, apply to the history, append to each
    /// subscription), per event, as it runs in a monitor with the default configuration:
    /// served every quarter of the ring (when the producers would wake its thread), the history
    /// trimming beyond its default retention; the subscriptions take their events after each.
    ///
    /// With `foldOnPump`, the hub's thread runs as in a real monitor and folds the history
    /// itself: only the serving thread's part is timed (drain, order, hand out).
    func nanosecondsPerEvent(subscriptions count: Int, foldOnPump: Bool) -> Double {
        var configuration = OperationMonitor.Configuration()
        configuration.pumpsAutomatically = foldOnPump
        let monitor = OperationMonitor(configuration: configuration)
        monitor.emitForBenchmark(.queueAppeared(QueueInfo(id: QueueID(1), name: "bench")))
        let subscriptions = (0..<count).map { index in monitor.subscribe(SubscriptionRequest(consumer: "bench \(index)")) }
        for subscription in subscriptions { _ = subscription.next(limit: .max) }
        // Just under the quarter of the ring that wakes the hub's thread to drain it.
        let chunk = (configuration.bufferCapacity / 4 - 1) / 3
        var elapsed: UInt64 = 0
        var taken = 0
        var emitted = 0
        while emitted < operations {
            let next = min(operations, emitted + chunk)
            emit(monitor, operations: emitted..<next)
            emitted = next
            let start = callingThreadCPUNanoseconds()
            monitor.serviceForBenchmark()
            elapsed += callingThreadCPUNanoseconds() - start
            for subscription in subscriptions { taken += subscription.next(limit: .max).events.count }
        }
        if taken != count * operations * 3 || monitor.droppedEvents > 0 {
            print("  (subscriptions took \(taken) events, the ring dropped \(monitor.droppedEvents))")
        }
        return Double(elapsed) / Double(operations * 3)
    }

    /// Heap bytes the history holds per retained finished operation.
    func historyBytesPerOperation() -> Double {
        let (bytes, retained) = heapGrowth(buffering: false)
        return Double(bytes) / Double(max(1, retained))
    }

    /// Heap bytes per event waiting in the buffer of a subscription that does not read: the
    /// growth with such a subscription, less the growth without it.
    func bufferBytesPerEvent() -> Double {
        let (withBuffer, _) = heapGrowth(buffering: true)
        let (without, _) = heapGrowth(buffering: false)
        return Double(withBuffer - without) / Double(operations * 3)
    }

    /// How much the heap grows while the hub serves `operations` operations (the ring's slots
    /// are allocated before), and how many finished operations the history then retains.
    private func heapGrowth(buffering: Bool) -> (bytes: Int, retained: Int) {
        let monitor = quietMonitor()
        monitor.emitForBenchmark(.queueAppeared(QueueInfo(id: QueueID(1), name: "bench")))
        let subscription = buffering ? monitor.subscribe(SubscriptionRequest(consumer: "waiting")) : nil
        _ = subscription?.next(limit: .max)
        emit(monitor, operations: 0..<operations)
        let before = opscope_heap_bytes_in_use()
        monitor.serviceForBenchmark()
        let after = opscope_heap_bytes_in_use()
        let retained = monitor.history.retainedFinished
        withExtendedLifetime(subscription) {}
        return (Int(after) - Int(before), retained)
    }

    /// CPU the process takes over `seconds` while a monitor with no consumer sits idle after
    /// real work (its hub thread started), measured from /proc/self/stat.
    func idleCPU(seconds: Double, hooked: Bool) -> (milliseconds: Double, pumpRuns: Int, samplerTicks: Int) {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "idle")
        for _ in 0..<100_000 {
            if hooked { queue.addOperation(BlockOperation {}) } else { queue.addOperation {} }
        }
        queue.waitUntilAllOperationsAreFinished()
        _ = monitor.acceptedEvents
        // The history folded, and the hub's thread done with its last turn, before the window.
        _ = monitor.history.nextSequence
        Thread.sleep(forTimeInterval: 0.5)
        let runsBefore = monitor.hubStatistics.pumpRuns
        let ticksBefore = monitor.samplerCost.ticks
        let before = processCPUTicks()
        Thread.sleep(forTimeInterval: seconds)
        let after = processCPUTicks()
        let ticks = Double(after - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        return (ticks, monitor.hubStatistics.pumpRuns - runsBefore, monitor.samplerCost.ticks - ticksBefore)
    }
}

/// CPU time of the calling thread, in nanoseconds.
func callingThreadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// utime + stime of this process, in clock ticks, from /proc/self/stat.
func processCPUTicks() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return 0 }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command: state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
    return user + system
}
