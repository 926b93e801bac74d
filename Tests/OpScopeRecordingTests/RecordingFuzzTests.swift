import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// Whatever the bytes, opening a recording, seeking in it, replaying it, reporting and
/// exporting it end in a value or an error, never a crash. Seeded (OPSCOPE_SEED replays one).
@Suite("Recording: fuzzed files never crash the reader, the replay or the export")
struct RecordingFuzzTests {
    private static let seed = SeededRandom.seed(default: 2_025, environment: ProcessInfo.processInfo.environment)

    private func goodBytes() throws -> [UInt8] {
        let directory = TemporaryDirectory()
        let path = directory.path("good.jsonl")
        var options = RecorderOptions()
        options.keyframeEvery = 30
        try record(ScriptedSource(longScript(count: 40)), to: path, options: options)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Everything a person can do with a file: open, seek, step, play, report, export.
    private func exercise(_ bytes: [UInt8], _ note: String) {
        var options = Recording.IndexOptions()
        options.savedStateInterval = 16
        let recording: Recording
        do {
            recording = try Recording.read(bytes: bytes, name: "fuzz.jsonl", options: options)
        } catch {
            #expect(error.description.hasPrefix("fuzz.jsonl"), "\(note): \(error)")
            return
        }
        for position in [0, recording.eventCount / 3, recording.eventCount / 2, recording.eventCount] {
            _ = try? recording.state(at: position)
            _ = try? recording.events(max(0, position - 5)..<(position + 5))
        }
        _ = try? recording.model(at: recording.eventCount / 2).report()
        let clock = ManualClock()
        let replay = ReplaySource(recording: recording, clock: clock.function)
        let subscription = replay.subscribe(SubscriptionRequest(consumer: "fuzz"))
        _ = subscription.next(limit: 100)
        clock.advance(nanoseconds: 5_000_000_000)
        _ = subscription.next(limit: 10_000)
        for request: PlaybackRequest in [.step(events: -1), .seek(seconds: -1), .seekToMark(forward: false, operation: OperationID(3)),
                                          .seekTo(seconds: 0.01), .step(events: 2), .restart] {
            _ = replay.playback(request)
            _ = subscription.next(limit: 10_000)
        }
        _ = try? PerfettoExport.export(recording) { _ in }
    }

    @Test("random bytes, with and without a valid header in front")
    func randomBytes() throws {
        var random = SeededRandom(seed: Self.seed)
        let header = Array(try goodBytes().prefix { $0 != 0x0A }) + [0x0A]
        for round in 0..<200 {
            let count = Int.random(in: 0..<400, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round % 2 == 0 { bytes = header + bytes }
            exercise(bytes, "seed \(Self.seed), round \(round)")
        }
    }

    @Test("mutations of a real recording: flipped bytes, cut lines, duplicated and swapped lines")
    func mutations() throws {
        var random = SeededRandom(seed: Self.seed)
        let good = try goodBytes()
        let lines = good.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        for round in 0..<50 {
            var mutated: [[UInt8]] = lines
            switch round % 5 {
            case 0:
                var flat = good
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let index = Int.random(in: 0..<flat.count, using: &random)
                    flat[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                }
                exercise(flat, "seed \(Self.seed), round \(round): flipped bits")
                continue
            case 1:
                let index = Int.random(in: 0..<mutated.count, using: &random)
                mutated[index] = Array(mutated[index].prefix(Int.random(in: 0...mutated[index].count, using: &random)))
            case 2:
                let index = Int.random(in: 0..<mutated.count, using: &random)
                mutated.insert(mutated[index], at: Int.random(in: 0...mutated.count, using: &random))
            case 3:
                let first = Int.random(in: 1..<mutated.count, using: &random)
                let second = Int.random(in: 1..<mutated.count, using: &random)
                mutated.swapAt(first, second)
            default:
                let cut = Int.random(in: 0..<good.count, using: &random)
                exercise(Array(good.prefix(cut)), "seed \(Self.seed), round \(round): cut at \(cut)")
                continue
            }
            exercise(Array(mutated.joined(separator: [0x0A])), "seed \(Self.seed), round \(round)")
        }
    }
}
