import ArgumentParser
import DashboardModel
import EventCoding
import Foundation
import OpScopeRecording
@_spi(Benchmark) import OperationBridge
import OperationEvents

struct RecordingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recording",
        abstract: "Record and replay: events written per second, file bytes per event, opening and seeking a recording, the bridge with a recorder.")

    @Option(help: "Events in the recording.")
    var events = 1_000_000

    @Option(help: "Seeks to seeded random positions (medians and p90 are reported).")
    var seeks = 31

    @Option(help: "Repetitions of writing and opening (medians are reported).")
    var repetitions = 3

    @Option(help: "Trivial operations per bridge run (with and without a recorder).")
    var bridgeOperations = 100_000

    @Option(help: "Rounds of the bridge comparison (each runs both, shuffled).")
    var bridgeRounds = 7

    @OptionGroup var only: PartSelection<RecordingBenchmark>

    @Option(help: "Keep the recording at this path (and seek in it without writing it again when it is there).")
    var file: String?

    func run() throws {
        warnIfDebugBuild(use: "swift run -c release opscope-bench recording")
        let parts = try only.parts()
        let benchmark = RecordingBenchmark(events: events, seeks: seeks, repetitions: repetitions,
                                           bridgeOperations: bridgeOperations, bridgeRounds: bridgeRounds, parts: parts, file: file)
        if try benchmark.run() > 0 { throw ExitCode(1) }
    }
}

/// The costs of recording and replaying: the recorder's rate and file size on a realistic
/// stream, the time to open (index) a recording of a million events and to seek in it (the
/// target: at most 100 ms, the source's part and the session's loading of the keyframe
/// together), and what a recorder costs an observed queue.
struct RecordingBenchmark {
    var events: Int
    var seeks: Int
    var repetitions: Int
    var bridgeOperations: Int
    var bridgeRounds: Int
    var parts: Set<String>
    var file: String?

    static let allParts: Set<String> = ["write", "seek", "bridge"]

    func run() throws -> Int {
        print("OpScope record and replay benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        let directory = NSTemporaryDirectory() + "opscope-bench-recording-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = file ?? directory + "/bench.jsonl"
        var failures = 0
        if parts.contains("write") || (parts.contains("seek") && !FileManager.default.fileExists(atPath: path)) {
            let stream = CodingBenchmark.eventStream(count: events)
            try write(stream, to: path)
        }
        if parts.contains("seek") { failures += try seek(path) }
        if parts.contains("bridge") { try bridge(directory: directory) }
        print(failures == 0 ? "all targets met" : "\(failures) target(s) not met")
        return failures
    }

    /// The recorder on a source that hands out a prepared stream as fast as it is read.
    private func write(_ stream: [MonitorEvent], to path: String) throws {
        var times: [Double] = []
        var cpu: [Double] = []
        var recorder: Recorder?
        for _ in 0..<repetitions {
            let source = PreparedSource(stream)
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuBefore = processCPUSeconds()
            let writing = try Recorder(source: source, path: path)
            writing.sync()
            writing.stop()
            cpu.append(processCPUSeconds() - cpuBefore)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if let failure = writing.failure { throw ValidationError(failure) }
            recorder = writing
        }
        guard let recorder else { return }
        let rate = Double(stream.count) / Statistics.median(times)
        print(String(format: "  write: %.2f M events/s through the recorder (subscription, fold, coding, write(2)); %.2f s wall, "
                     + "%.2f s CPU (%.1f us per event), medians of %d", rate / 1e6, Statistics.median(times), Statistics.median(cpu),
                     Statistics.median(cpu) / Double(stream.count) * 1e6, repetitions))
        print(String(format: "  file: %.1f MB for %d events: %.1f bytes per event, %d keyframes", Double(recorder.bytesWritten) / 1e6,
                     recorder.eventsWritten, Double(recorder.bytesWritten) / Double(max(1, recorder.eventsWritten)), recorder.keyframesWritten))
    }

    /// Opening (the index pass) and seeking to seeded random positions.
    private func seek(_ path: String) throws -> Int {
        var readTimes: [Double] = []
        for _ in 0..<repetitions {
            let cpuBefore = processCPUSeconds()
            let reader = try EventStreamReader(path: path)
            while try reader.next() != nil {}
            readTimes.append(processCPUSeconds() - cpuBefore)
        }
        var openTimes: [Double] = []
        var openCPU: [Double] = []
        var recording: Recording?
        let residentBefore = currentResidentKilobytes()
        for _ in 0..<repetitions {
            recording = nil
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuBefore = processCPUSeconds()
            recording = try Recording.open(path: path)
            openCPU.append(processCPUSeconds() - cpuBefore)
            openTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        guard let recording else { return 1 }
        let resident = currentResidentKilobytes() - residentBefore
        print(String(format: "  open (read, fold and index every line): %.2f s wall, %.2f s CPU (reading the lines alone: %.2f s CPU), "
                     + "medians; %d saved states, ~%.0f MB estimated, resident memory +%.0f MB", Statistics.median(openTimes),
                     Statistics.median(openCPU), Statistics.median(readTimes), recording.savedStateCount,
                     Double(recording.savedStateBytes) / 1e6, Double(resident) / 1024))
        var random = SplitMix64(seed: 15)
        var sourceTimes: [Double] = []
        var loadTimes: [Double] = []
        var totals: [Double] = []
        for _ in 0..<seeks {
            let position = Int.random(in: 0...recording.eventCount, using: &random)
            let start = DispatchTime.now().uptimeNanoseconds
            let state = try recording.state(at: position)
            let middle = DispatchTime.now().uptimeNanoseconds
            var model = DashboardModel()
            model.load(state)
            let end = DispatchTime.now().uptimeNanoseconds
            precondition(state.nextSequence >= UInt64(position) || position == 0, "a state before event \(position)")
            sourceTimes.append(Double(middle - start) / 1e6)
            loadTimes.append(Double(end - middle) / 1e6)
            totals.append(Double(end - start) / 1e6)
        }
        let median = Statistics.median(totals)
        print(String(format: "  seek to a random point of %d events: %.1f ms median, p90 %.1f ms, max %.1f ms (the replay's state "
                     + "%.1f ms + the session loading it %.1f ms, medians)  [<= 100 ms: %@]", recording.eventCount, median,
                     Statistics.quantile(totals, 0.9), totals.max() ?? 0, Statistics.median(sourceTimes), Statistics.median(loadTimes),
                     median <= 100 ? "met" : "NOT MET"))
        return median <= 100 ? 0 : 1
    }

    /// Observed queues with a dashboard-like consumer against the same with a recorder
    /// consuming instead, shuffled rounds; the ratio of their throughputs.
    private func bridge(directory: String) throws {
        var random = SplitMix64(seed: 3)
        var ratios: [Double] = []
        var withRecorder: [Double] = []
        var without: [Double] = []
        for round in 0..<bridgeRounds {
            var rates: [Bool: Double] = [:]
            for recording in [false, true].shuffled(using: &random) {
                let monitor = OperationMonitor()
                let queue = ObservedOperationQueue(monitor: monitor, name: "bench", maxConcurrentOperationCount: -1)
                let consumer = Consumer(monitor: monitor)
                var recorder: Recorder?
                if recording {
                    recorder = try Recorder(source: monitor, path: directory + "/bridge-\(round).jsonl")
                } else {
                    consumer.start()
                }
                let start = monitor.now()
                for _ in 0..<bridgeOperations { queue.addOperation(ObservableBlockOperation {}) }
                queue.waitUntilAllOperationsAreFinished()
                let elapsed = Double(monitor.now() - start) / 1e9
                if let recorder { recorder.stop() } else { consumer.stop() }
                rates[recording] = Double(bridgeOperations) / elapsed
            }
            withRecorder.append(rates[true]!)
            without.append(rates[false]!)
            ratios.append(rates[true]! / rates[false]!)
        }
        print(String(format: "  bridge, %d trivial operations on an observed queue: %.0f ops/s with a recorder, %.0f ops/s with a "
                     + "dashboard-like consumer: ratio %.3f (min %.2f, max %.2f), median of %d shuffled rounds", bridgeOperations,
                     Statistics.median(withRecorder), Statistics.median(without), Statistics.median(ratios), ratios.min() ?? 0,
                     ratios.max() ?? 0, bridgeRounds))
    }

    /// Resident memory now (kilobytes), from /proc.
    private func currentResidentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}

/// A source that hands out a prepared stream in batches as fast as it is read.
final class PreparedSource: EventSource, @unchecked Sendable {
    // Safety: `next` is guarded by `lock`.
    private let events: [MonitorEvent]
    private let lock = NSLock()
    private var next = 0

    init(_ events: [MonitorEvent]) { self.events = events }

    var sourceInfo: SourceInfo { SourceInfo(kind: .live, program: "bench") }
    var workTemplates: [WorkTemplateInfo] { [] }
    func now() -> UInt64 { lock.withLock { next > 0 ? events[next - 1].time : (events.first?.time ?? 0) } }
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { .failure(CommandError(.unsupported, "no")) }
    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription { Subscription(self) }

    fileprivate func take(_ limit: Int) -> [MonitorEvent] {
        lock.withLock {
            let end = min(events.count, next + limit)
            defer { next = end }
            return Array(events[next..<end])
        }
    }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        let consumer = "recorder"
        let source: PreparedSource
        init(_ source: PreparedSource) { self.source = source }
        func next(limit: Int) -> EventBatch { EventBatch(events: source.take(limit), droppedTotal: 0) }
        func resynchronize() {}
        func close() {}
    }
}

extension RecordingBenchmark: PartedBenchmark {
    static let onlyHelp = "Only these parts (comma-separated: write, seek, bridge)."
}
