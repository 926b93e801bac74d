import ArgumentParser
import EventCoding
import Foundation
import OperationEvents

struct CodingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coding",
        abstract: "Event lines per second, hand-written coder against JSONEncoder/JSONDecoder; reading and seeking a recording.")

    @Option(help: "Events in the recording.")
    var events = 1_000_000

    @Option(help: "Events between keyframes in the recording.")
    var keyframeEvery = 10_000

    @Option(help: "Operations in each keyframe's state (a stand-in state: a snapshot of that many operations).")
    var keyframeOperations = 1_000

    @Option(help: "Repetitions (medians are reported).")
    var repetitions = 7

    @OptionGroup var only: PartSelection<CodingBenchmark>

    func run() throws {
        warnIfDebugBuild(use: "swift run -c release opscope-bench coding")
        let parts = try only.parts()
        if try CodingBenchmark(events: events, keyframeEvery: keyframeEvery, keyframeOperations: keyframeOperations,
                               repetitions: repetitions, parts: parts).run() > 0
        {
            throw ExitCode(1)
        }
    }
}

/// The coding's targets: write at least 1 M events/s, and replay 10,000 events from a keyframe
/// well under 100 ms. Both coders are measured on the same events, one line at a time, as a
/// recorder writes and a replay reads them.
struct CodingBenchmark {
    var events: Int
    var keyframeEvery: Int
    var keyframeOperations: Int
    var repetitions: Int
    var parts = allParts

    static let allParts: Set<String> = ["encode", "decode", "recording"]

    func run() throws -> Int {
        print("OpScope event coding benchmark, medians of \(repetitions) repetitions")
        let stream = Self.eventStream(count: events)
        let lines = stream.map { StreamLine.event($0).encoded }
        let totalBytes = lines.reduce(0) { $0 + $1.count + 1 }
        print(String(format: "  %d events, %.1f bytes per event line on average", stream.count, Double(totalBytes) / Double(stream.count)))
        var failures = 0

        // Foundation's coders are measured on a tenth of the events: they are an order slower.
        let sample = Array(stream.prefix(max(1, stream.count / 10)))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        if parts.contains("encode") {
        let handEncode = rate(count: stream.count) {
            for event in stream {
                StreamLine.encode(event, into: &buffer)
                buffer.append(0x0A)
                // A writer hands its buffer to the file about every megabyte.
                if buffer.count >= 1 << 20 { buffer.removeAll(keepingCapacity: true) }
            }
        }
        let encoder = JSONEncoder()
        let foundationEncode = rate(count: sample.count) {
            for event in sample { buffer = Array(try! encoder.encode(CodableEventLine(event))) }
        }
        failures += report("encode, hand-written", handEncode, target: 1_000_000)
        report("encode, JSONEncoder per line", foundationEncode, versus: handEncode)
        }

        if parts.contains("decode") {
        var decodedCount = 0
        let handDecode = rate(count: lines.count) {
            for line in lines { if case .event = try! StreamLine(decoding: line) { decodedCount += 1 } }
        }
        let decoder = JSONDecoder()
        let sampleLines = lines.prefix(sample.count).map { Data($0) }
        let foundationDecode = rate(count: sampleLines.count) {
            for line in sampleLines { decodedCount += Int(try! decoder.decode(CodableEventLine.self, from: line).event.sequence & 1) }
        }
        report("decode, hand-written", handDecode, target: nil)
        report("decode, JSONDecoder per line", foundationDecode, versus: handDecode)
        }

        if parts.contains("recording") { failures += try recording(stream) }
        print(failures == 0 ? "all targets met" : "\(failures) target(s) not met")
        return failures
    }

    /// A recording with keyframes, read whole and sought into, from memory and from a file.
    private func recording(_ stream: [MonitorEvent]) throws -> Int {
        let state = Self.keyframeState(operations: keyframeOperations)
        var bytes: [UInt8] = []
        let header = StreamHeader(program: "bench", processID: 1, startedAt: WallClockTime(nanosecondsSince1970: 0), startMonitorTime: 0)
        StreamLine.header(header).encode(into: &bytes)
        bytes.append(0x0A)
        for event in stream {
            if event.sequence % UInt64(keyframeEvery) == 0 {
                StreamLine.keyframe(try Keyframe(sequence: event.sequence, time: event.time, state: state)).encode(into: &bytes)
                bytes.append(0x0A)
            }
            StreamLine.encode(event, into: &bytes)
            bytes.append(0x0A)
        }
        print(String(format: "  recording: %.1f MB, a keyframe every %d events (%d operations, %.0f KB each)",
                     Double(bytes.count) / 1e6, keyframeEvery, keyframeOperations,
                     Double(try Keyframe(sequence: 0, time: 0, state: state).stateJSON.count) / 1e3))

        let path = NSTemporaryDirectory() + "opscope-bench-\(getpid()).jsonl"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        var keyframes: [StreamPosition] = []
        let readAll = rate(count: stream.count) {
            let reader = try! EventStreamReader(path: path)
            keyframes.removeAll()
            while let record = try! reader.next() {
                if case .keyframe = record.line { keyframes.append(record.position) }
            }
        }
        report("read the whole file, indexing keyframes", readAll, target: nil)

        // Seek to the last keyframe, decode its state, then read the events up to the next one.
        let reader = try EventStreamReader(path: path)
        var seekTimes: [Double] = []
        var stateTimes: [Double] = []
        for round in 0 ..< repetitions * 3 {
            let position = keyframes[keyframes.count - 1 - round % min(keyframes.count, 5)]
            var keyframe: Keyframe?
            var read = 0
            stateTimes.append(measure {
                reader.seek(to: position)
                if case .keyframe(let found) = try! reader.next()?.line { keyframe = found }
                _ = try! keyframe!.decodeState(as: MonitorSnapshot.self)
            })
            seekTimes.append(stateTimes.last! + measure {
                while read < keyframeEvery, let record = try! reader.next() {
                    if case .event = record.line { read += 1 }
                }
            })
            precondition(read == min(keyframeEvery, stream.count), "read \(read) events after a keyframe")
        }
        let seek = Statistics.median(seekTimes) * 1e3
        print(String(format: "  seek to a keyframe in the file, decode its state, read %d events: %.2f ms median "
                     + "(state alone %.2f ms), p90 %.2f ms  [<= 100 ms: %@]", keyframeEvery, seek,
                     Statistics.median(stateTimes) * 1e3, Statistics.quantile(seekTimes, 0.9) * 1e3, seek <= 100 ? "met" : "NOT MET"))
        return seek <= 100 ? 0 : 1
    }

    @discardableResult
    private func report(_ title: String, _ rate: Double, target: Double?) -> Int {
        var line = "  " + title + ": " + String(format: "%.2f M events/s (%.0f ns per event)", rate / 1e6, 1e9 / rate)
        if let target { line += String(format: "  [>= %.0f M/s: %@]", target / 1e6, rate >= target ? "met" : "NOT MET") }
        print(line)
        return target.map { rate >= $0 ? 0 : 1 } ?? 0
    }

    private func report(_ title: String, _ rate: Double, versus hand: Double) {
        print("  " + title + ": " + String(format: "%.2f M events/s (%.0f ns per event), hand-written is %.1fx faster",
                                           rate / 1e6, 1e9 / rate, hand / rate))
    }

    /// Events per second over `repetitions` runs of `body` (median).
    private func rate(count: Int, _ body: () -> Void) -> Double {
        body() // warm-up
        let times = (0 ..< repetitions).map { _ in measure(body) }
        return Double(count) / Statistics.median(times)
    }

    private func measure(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Events shaped like a real run: four queues; per operation added (half named, a third
    /// with a dependency), ready when it had one, started, finished; now and then a cancel.
    static func eventStream(count: Int) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        events.reserveCapacity(count + 8)
        var time: UInt64 = 1_000_000_000
        func emit(_ change: MonitorEvent.Change) {
            time += 1_700
            events.append(MonitorEvent(sequence: UInt64(events.count), time: time, change: change))
        }
        for queue in 1 ... 4 {
            emit(.queueAppeared(QueueInfo(id: QueueID(queue), name: "queue \(queue)", maxConcurrentOperationCount: 4)))
        }
        var index = 0
        while events.count < count {
            let id = OperationID(index + 1)
            let dependencies = index % 3 == 2 ? [OperationID(index)] : []
            emit(.operationAdded(OperationInfo(
                id: id, queue: QueueID(index % 4 + 1), name: index % 2 == 0 ? "download-\(index)" : nil,
                typeName: index % 2 == 0 ? "DownloadOperation" : "BlockOperation", dependencies: dependencies,
                isReady: dependencies.isEmpty)))
            if !dependencies.isEmpty { emit(.ready(operation: id, isReady: true)) }
            if index % 50 == 49 { emit(.cancelled(operation: id)) }
            emit(.started(operation: id))
            emit(.finished(operation: id, cancelled: index % 50 == 49))
            index += 1
        }
        return Array(events.prefix(count))
    }

    /// The keyframe state stands in for the stream state: a snapshot of `operations` operations.
    static func keyframeState(operations: Int) -> MonitorSnapshot {
        MonitorSnapshot(
            sequence: 0, time: 0,
            queues: (1 ... 4).map { QueueInfo(id: QueueID($0), name: "queue \($0)") },
            operations: (0 ..< operations).map {
                OperationInfo(id: OperationID($0 + 1), queue: QueueID($0 % 4 + 1), name: "download-\($0)",
                              typeName: "DownloadOperation", dependencies: $0 % 3 == 2 ? [OperationID($0)] : [])
            },
            droppedEvents: 0)
    }
}

extension CodingBenchmark: PartedBenchmark {
    static let onlyHelp = "Only these parts (comma-separated: encode, decode, recording), e.g. for profiling."
}
