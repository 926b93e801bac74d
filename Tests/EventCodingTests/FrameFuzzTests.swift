import EventCoding
import OperationEvents
import Testing

/// Seeded fuzzing of the frame reader: random bytes, and a real framed stream cut or with bytes
/// flipped (length prefixes included), delivered in random pieces. A failure prints its seed;
/// `OPSCOPE_SEED=<seed>` replays it.
@Suite struct FrameFuzzTests {
    private static let limit = 2048

    private struct Outcome {
        var records: [StreamRecord] = []
        var error: EventStreamError?
        var finishError: EventStreamError?
    }

    /// Feeds `bytes` in random pieces; checks what holds for any input: positions increase, an
    /// error names the connection, and once the framing is lost (a frame too large or empty) the
    /// reader keeps failing the same way.
    private func feed(_ bytes: [UInt8], _ random: inout SeededGenerator, context: String) -> Outcome {
        var reader = FrameReader(source: "peer", maximumFrameSize: Self.limit)
        var outcome = Outcome()
        var index = 0
        feeding: while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1 ... 97, using: &random))
            reader.append(bytes[index ..< end])
            index = end
            do {
                while let record = try reader.next() { outcome.records.append(record) }
            } catch {
                outcome.error = error
                break feeding
            }
        }
        do { try reader.finish() } catch { outcome.finishError = error }
        if let error = outcome.error {
            #expect(error.source == "peer" && error.line != nil, "\(context): \(error)")
            let framingLost = switch error.kind {
            case .frameTooLarge: true
            case .corruptLine(let reason): reason.hasPrefix("empty frame")
            default: false
            }
            if framingLost {
                #expect(throws: error, "\(context)") { try reader.next() }
                #expect(outcome.finishError == error, "\(context)")
            }
        }
        var previous = StreamPosition(offset: -1, line: 0)
        for record in outcome.records {
            #expect(record.position.offset > previous.offset && record.position.line == previous.line + 1, "\(context)")
            previous = record.position
        }
        return outcome
    }

    @Test func randomBytesNeverCrashTheFrameReader() {
        let seed = SeededGenerator.seed(default: 0xF5A3)
        var random = SeededGenerator(seed: seed)
        let header = FrameEncoder.frame(.header(Samples.header))
        for iteration in 0 ..< 1500 {
            let noise = (0 ..< Int.random(in: 0 ... 400, using: &random)).map { _ in
                // Small length prefixes are likely enough to reach the line decoder.
                Bool.random(using: &random) ? UInt8.random(in: 0 ... 3, using: &random) : UInt8.random(in: 0 ... 255, using: &random)
            }
            _ = feed(iteration % 2 == 0 ? noise : header + noise, &random, context: "seed \(seed), iteration \(iteration)")
        }
    }

    @Test func cutAndFlippedStreamsAreReadOrRefusedAsTheyShouldBe() throws {
        let seed = SeededGenerator.seed(default: 0xC47F)
        var random = SeededGenerator(seed: seed)
        var events = Samples.events
        for index in 0 ..< 30 {
            var event = Samples.randomEvent(&random, sequence: UInt64(index))
            if StreamLine.event(event).encoded.count > Self.limit { event.change = .started(operation: OperationID(index)) }
            events.append(event)
        }
        let (lines, _) = try Samples.stream(events: events)
        let frames = lines.map(FrameEncoder.frame)
        let bytes = frames.flatMap { $0 }
        for iteration in 0 ..< 800 {
            let context = "seed \(seed), iteration \(iteration)"
            if iteration % 2 == 0 {
                // Cut: every whole frame is read; finishing says whether the cut fell inside one.
                let cut = Int.random(in: 0 ... bytes.count, using: &random)
                let outcome = feed(Array(bytes[..<cut]), &random, context: context)
                var whole = 0
                var end = 0
                while whole < frames.count, end + frames[whole].count <= cut {
                    end += frames[whole].count
                    whole += 1
                }
                #expect(outcome.error == nil, "\(context)")
                #expect(outcome.records.map(\.line) == Array(lines.prefix(whole)), "\(context)")
                if end < cut {
                    guard case .truncatedFrame(_, let received) = outcome.finishError?.kind else {
                        Issue.record("\(context): \(String(describing: outcome.finishError))")
                        continue
                    }
                    #expect(received == cut - end, "\(context)")
                } else {
                    #expect(outcome.finishError?.kind == (cut == 0 ? .empty : nil), "\(context)")
                }
            } else {
                // Flipped bytes: whatever is read before the first damaged frame is what was sent.
                var damaged = bytes
                let position = Int.random(in: 0 ..< bytes.count, using: &random)
                damaged[position] ^= UInt8(1 << Int.random(in: 0 ..< 8, using: &random))
                let outcome = feed(damaged, &random, context: context)
                var intact = 0
                var end = 0
                while intact < frames.count, end + frames[intact].count <= position {
                    end += frames[intact].count
                    intact += 1
                }
                #expect(Array(outcome.records.prefix(intact).map(\.line)) == Array(lines.prefix(intact)), "\(context)")
            }
        }
    }
}
