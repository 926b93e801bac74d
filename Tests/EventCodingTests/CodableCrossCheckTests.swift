@testable import EventCoding
import Foundation
import OperationEvents
import Testing

/// The hand-written coder held to an independent implementation of the same format through
/// `JSONEncoder`/`JSONDecoder`: each must read what the other writes.
@Suite struct CodableCrossCheckTests {
    @Test func foundationReadsWhatTheHandWrittenEncoderWrites() throws {
        let seed = SeededGenerator.seed(default: 0x5EED_C0DE)
        var random = SeededGenerator(seed: seed)
        let events = Samples.events + (0 ..< 2000).map { Samples.randomEvent(&random, sequence: UInt64($0)) }
        for event in events {
            let bytes = StreamLine.event(event).encoded
            let decoded = try JSONDecoder().decode(CodableEventLine.self, from: Data(bytes))
            #expect(decoded.event == event, "seed \(seed): \(bytes.text)")
            if decoded.event != event { return }
        }
    }

    @Test func theHandWrittenDecoderReadsWhatFoundationWrites() throws {
        let seed = SeededGenerator.seed(default: 0xF00D)
        var random = SeededGenerator(seed: seed)
        let events = Samples.events + (0 ..< 2000).map { Samples.randomEvent(&random, sequence: UInt64($0)) }
        let encoder = JSONEncoder()
        for (index, event) in events.enumerated() {
            // Foundation orders keys its own way, escapes "/" and may pretty-print: all must be read.
            encoder.outputFormatting = index % 2 == 0 ? [] : [.prettyPrinted, .sortedKeys]
            var bytes = Array(try encoder.encode(CodableEventLine(event)))
            if index % 2 == 1 { bytes = bytes.filter { $0 != 0x0A } } // one line, whitespace kept
            let decoded = try StreamLine(decoding: bytes)
            #expect(decoded == .event(event), "seed \(seed): \(bytes.text)")
            if decoded != .event(event) { return }
        }
    }

    /// The third coding, the synthesized `Codable` (a keyframe's held events), for every kind.
    @Test func everyKindRoundTripsThroughTheSynthesizedCodable() throws {
        for event in Samples.events {
            let decoded = try JSONDecoder().decode(MonitorEvent.self, from: JSONEncoder().encode(event))
            #expect(decoded == event, "\(event.change.kind)")
        }
    }

    @Test func wordsAreTheEnumsOwnSpellings() {
        for qos in QoSClass.allCases { #expect("\(Vocabulary.qualities.word(for: qos))" == qos.rawValue) }
        for priority in OperationPriority.allCases {
            #expect("\(Vocabulary.priorities.word(for: priority))" == priority.description)
        }
        for mode in ObservationMode.allCases {
            #expect("\(Vocabulary.operationObservations.word(for: mode))" == mode.rawValue)
        }
        for mode in [QueueObservation.observed, .sampled] {
            #expect("\(Vocabulary.queueObservations.word(for: mode))" == mode.rawValue)
        }
        for origin in [EventOrigin.exact, .sampled, .inferred] {
            #expect("\(Vocabulary.origins.word(for: origin))" == origin.rawValue)
        }
        // A kind's word is its Swift name, and the word table reads every kind back.
        for kind in MonitorEvent.Change.Kind.allCases {
            #expect("\(kind.word)" == "\(kind)")
            #expect("\(Vocabulary.changes.word(for: kind))" == "\(kind)")
            let read = "\(kind.word)".utf8.withContiguousStorageIfAvailable { Vocabulary.changes.value(matching: $0) }
            #expect(read == kind)
        }
        for field in MonitorEvent.Change.IntegerField.allCases { #expect("\(field.key)" == "\(field)") }
        for field in MonitorEvent.Change.FlagField.allCases { #expect("\(field.key)" == "\(field)") }
        for field in MonitorEvent.Change.TextField.allCases { #expect("\(field.key)" == "\(field)") }
        for field in MonitorEvent.Change.PriorityField.allCases { #expect("\(field.key)" == "\(field)") }
    }
}
