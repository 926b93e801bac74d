import EventCoding
import Foundation
import OperationEvents
import Testing

/// Seeded fuzzing of the reader: random bytes, and a real stream cut, flipped, with lines
/// duplicated, swapped or blown up. Nothing may crash, and what is read or refused must be what
/// the damage implies. A failure prints its seed; `OPSCOPE_SEED=<seed>` replays it.
@Suite struct ReaderFuzzTests {
    private static let limit = 4096

    private struct Outcome {
        var records: [StreamRecord] = []
        var error: EventStreamError?
        var truncation: TruncatedLine?
    }

    /// Reads `bytes` (from memory, or from a file in tiny chunks) and checks what holds whatever
    /// the input: positions increase and lie inside the input, errors name the source and a line
    /// that exists.
    private func read(_ bytes: [UInt8], viaFile: Bool, chunk: Int, context: String) throws -> Outcome {
        var outcome = Outcome()
        let name = "fuzz.jsonl"
        func run(_ open: () throws(EventStreamError) -> EventStreamReader) {
            do {
                let reader = try open()
                while let record = try reader.next() { outcome.records.append(record) }
                outcome.truncation = reader.truncation
            } catch {
                outcome.error = error
            }
        }
        if viaFile {
            try Samples.withTemporaryFile(bytes) { path in
                run { () throws(EventStreamError) in try EventStreamReader(path: path, maximumLineLength: Self.limit, chunkSize: chunk) }
                if outcome.error?.source == path { outcome.error?.source = name }
                if outcome.truncation?.source == path { outcome.truncation?.source = name }
            }
        } else {
            run { () throws(EventStreamError) in try EventStreamReader(bytes: bytes, name: name, maximumLineLength: Self.limit) }
        }
        let lineCount = bytes.count(where: { $0 == 0x0A }) + 1
        var previous = StreamPosition(offset: -1, line: 0)
        for record in outcome.records {
            #expect(record.position.offset > previous.offset && record.position.line > previous.line, "\(context)")
            #expect(record.position.offset + record.length <= bytes.count, "\(context)")
            previous = record.position
        }
        if let error = outcome.error {
            #expect(error.source == name, "\(context)")
            #expect(error.description.hasPrefix(name + (error.kind == .empty ? ": " : ":\(error.line ?? -1): ")), "\(context): \(error)")
            if error.kind != .empty { #expect((1 ... lineCount).contains(error.line ?? 0), "\(context): \(error)") }
        }
        return outcome
    }

    @Test func randomBytesNeverCrashTheReader() throws {
        let seed = SeededGenerator.seed(default: 0xB17E5)
        var random = SeededGenerator(seed: seed)
        let header = Samples.fileBytes([.header(Samples.header)])
        let alphabet = Array(#"{}[]",:0123456789-.eE truefalsnkidv\/u"#.utf8) + [0x0A, 0x0D, 0x09, 0x00, 0xFF, 0xC3]
        for iteration in 0 ..< 1500 {
            let count = Int.random(in: 0 ... 600, using: &random)
            var bytes: [UInt8] = switch iteration % 3 {
            case 0: (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            case 1: (0 ..< count).map { _ in alphabet.randomElement(using: &random)! }
            default: header + (0 ..< count).map { _ in alphabet.randomElement(using: &random)! }
            }
            if iteration % 50 == 0 { bytes += Array(repeating: UInt8(ascii: "["), count: 5000) }
            _ = try read(bytes, viaFile: iteration % 10 == 0, chunk: Int.random(in: 1 ... 64, using: &random),
                         context: "seed \(seed), iteration \(iteration)")
        }
    }

    @Test func mutationsOfARealStreamAreReadOrRefusedAsTheyShouldBe() throws {
        let seed = SeededGenerator.seed(default: 0x3A7E)
        var random = SeededGenerator(seed: seed)
        var events = Samples.events
        for index in 0 ..< 40 {
            var event = Samples.randomEvent(&random, sequence: UInt64(events.count + index))
            if StreamLine.event(event).encoded.count > 1000 { event.change = .started(operation: OperationID(index)) }
            events.append(event)
        }
        let (lines, bytes) = try Samples.stream(events: events, keyframeEvery: 15)
        let encoded = lines.map(\.encoded)
        for iteration in 0 ..< 600 {
            let context = "seed \(seed), iteration \(iteration)"
            let viaFile = iteration % 12 == 0
            let chunk = Int.random(in: 1 ... 300, using: &random)
            func lineBytes(_ lines: [[UInt8]]) -> [UInt8] { lines.flatMap { $0 + [0x0A] } }
            switch iteration % 6 {
            case 0: // cut anywhere: every complete line before the cut is read, the rest is a notice
                let cut = Int.random(in: 0 ... bytes.count, using: &random)
                let outcome = try read(Array(bytes[..<cut]), viaFile: viaFile, chunk: chunk, context: context)
                // Lines that end at or before the cut are whole; bytes after the last of them are a cut line.
                var complete = 0
                var start = 0
                while complete < encoded.count, start + encoded[complete].count <= cut {
                    start += encoded[complete].count + 1
                    complete += 1
                }
                if cut == 0 {
                    #expect(outcome.error?.kind == .empty, "\(context)")
                } else if complete == 0 {
                    #expect(outcome.error?.line == 1, "\(context)")
                } else {
                    #expect(outcome.error == nil, "\(context): \(outcome.error.map(String.init(describing:)) ?? "")")
                    #expect(outcome.records.map(\.line) == Array(lines.prefix(complete)), "\(context)")
                    #expect((outcome.truncation != nil) == (start < cut), "\(context)")
                }
            case 1: // flipped bytes: read or refused, never a crash (checked by `read`)
                var damaged = bytes
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
                    damaged[Int.random(in: 0 ..< damaged.count, using: &random)] ^= UInt8(1 << Int.random(in: 0 ..< 8, using: &random))
                }
                _ = try read(damaged, viaFile: viaFile, chunk: chunk, context: context)
            case 2: // a duplicated line is read again; a duplicated header is a second header
                let index = Int.random(in: 0 ..< encoded.count, using: &random)
                var damaged = encoded
                damaged.insert(encoded[index], at: index + 1)
                let outcome = try read(lineBytes(damaged), viaFile: viaFile, chunk: chunk, context: context)
                if index == 0 {
                    #expect(outcome.error?.kind == .corruptLine("a second header (two streams joined together?)"), "\(context)")
                    #expect(outcome.error?.line == 2, "\(context)")
                } else {
                    var expected = lines
                    expected.insert(lines[index], at: index + 1)
                    #expect(outcome.records.map(\.line) == expected, "\(context)")
                }
            case 3: // swapped lines are read in their new order, unless the header moved
                let first = Int.random(in: 0 ..< encoded.count, using: &random)
                let second = Int.random(in: 0 ..< encoded.count, using: &random)
                var damaged = encoded
                damaged.swapAt(first, second)
                let outcome = try read(lineBytes(damaged), viaFile: viaFile, chunk: chunk, context: context)
                if first != second, first == 0 || second == 0 {
                    guard case .notAnOpScopeStream = outcome.error?.kind else {
                        Issue.record("\(context): \(String(describing: outcome.error))")
                        continue
                    }
                } else {
                    var expected = lines
                    expected.swapAt(first, second)
                    #expect(outcome.records.map(\.line) == expected, "\(context)")
                }
            case 4: // a line over the limit is refused at its line
                let index = Int.random(in: 1 ... encoded.count, using: &random)
                var damaged = encoded
                let huge = (0 ..< Int.random(in: Self.limit + 1 ... Self.limit * 3, using: &random)).map { _ in
                    UInt8.random(in: 0x20 ... 0x7E, using: &random)
                }
                damaged.insert(huge, at: index)
                let outcome = try read(lineBytes(damaged), viaFile: viaFile, chunk: chunk, context: context)
                #expect(outcome.error?.kind == .lineTooLong(limit: Self.limit), "\(context)")
                #expect(outcome.error?.line == index + 1, "\(context)")
            default: // a long but valid line is read
                let index = Int.random(in: 1 ... encoded.count, using: &random)
                let name = String(repeating: "ü\"\\", count: Int.random(in: 1 ... Self.limit / 8, using: &random))
                let long = StreamLine.event(MonitorEvent(time: 1, change: .queueRenamed(queue: QueueID(1), name: name)))
                var damaged = encoded
                damaged.insert(long.encoded, at: index)
                var expected = lines
                expected.insert(long, at: index)
                let outcome = try read(lineBytes(damaged), viaFile: viaFile, chunk: chunk, context: context)
                #expect(outcome.records.map(\.line) == expected, "\(context)")
            }
        }
    }

    /// What the decoder accepts is JSON (Foundation agrees), and decodes the same once re-encoded.
    @Test func acceptedMutantsAreJSONAndStable() throws {
        let seed = SeededGenerator.seed(default: 0x1DE4)
        var random = SeededGenerator(seed: seed)
        let lines = Samples.events.map { StreamLine.event($0).encoded } + [StreamLine.header(Samples.header).encoded]
        var accepted = 0
        for iteration in 0 ..< 6000 {
            var bytes = lines.randomElement(using: &random)!
            for _ in 0 ..< Int.random(in: 1 ... 2, using: &random) {
                let index = Int.random(in: 0 ..< bytes.count, using: &random)
                switch Int.random(in: 0 ..< 3, using: &random) {
                case 0: bytes[index] = Array(#"{}[]",:0-9eE.tfn \"#.utf8).randomElement(using: &random)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(Array(#" ,"0-1"#.utf8).randomElement(using: &random)!, at: index)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            guard let line = try? StreamLine(decoding: bytes) else { continue }
            accepted += 1
            let context = "seed \(seed), iteration \(iteration): \(bytes.text)"
            #expect(try StreamLine(decoding: line.encoded) == line, "\(context)")
            if String(validating: bytes, as: UTF8.self) != nil, !bytes.text.contains("\\u") {
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any], "\(context)")
            }
        }
        #expect(accepted > 100, "seed \(seed): only \(accepted) mutants decoded; the test lost its teeth")
    }
}
