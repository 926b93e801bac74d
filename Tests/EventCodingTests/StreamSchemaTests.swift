import EventCoding
import Foundation
import OperationEvents
import OpScopeTestSupport
import Testing

/// The stream format's schema (schemas/stream.schema.json) describes what the writer writes:
/// a line of every kind and an event of every change, encoded by the real coding, validate
/// against it with every object closed; a renamed, missing or mistyped field fails; its
/// vocabularies are the code's.
@Suite("Stream lines against their JSON Schema", .serialized, .timeLimit(.minutes(1)))
struct StreamSchemaTests {
    /// The lines of a stream with every line kind and every change, as the writer encodes them.
    static func streamLines() throws -> [String] {
        // A keyframe of a state that went through every change, holding an event about an
        // operation not announced yet.
        var state = StreamState()
        for event in Samples.events { state.apply(event) }
        state.apply(MonitorEvent(sequence: state.nextSequence, time: 6_000_000, change: .started(operation: OperationID(77))))
        let keyframe = try Keyframe(sequence: state.nextSequence, time: state.time, state: state)
        let start = state.nextSequence
        let events = Samples.events.enumerated().map { index, event in
            var event = event
            event.sequence = start + UInt64(index)
            return StreamLine.event(event)
        }
        let after = start + UInt64(events.count)
        let lines: [StreamLine] = [.header(Samples.header), .keyframe(keyframe)] + events + [
            .dropped(DroppedMarker(count: 3, sequence: after, time: 7_000_000)),
            .dropped(DroppedMarker(count: 1)),
            .keyframe(try Keyframe(sequence: after + 4, time: 7_000_001, state: StreamState())),
            .end(EndMarker(time: 8_000_000, events: events.count, dropped: 4, reason: "finished")),
        ]
        return lines.map { String(decoding: $0.encoded, as: UTF8.self) }
    }

    private static func write(_ lines: [String], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-stream-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("every line kind and every change, as encoded, is valid with every object closed")
    func everyLineValidates() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.streamLines()
        #expect(lines.contains { $0.contains("\"held\":") }, "the keyframe holds no event: its held events go unchecked")
        let path = try Self.write(lines, "stream.jsonl", in: directory)
        let outcome = try SchemaCheck.run(.stream, [path], options: ["--require-kinds", "header,keyframe,event,dropped,end",
                                                                     "--require-every-change"])
        #expect(outcome.valid, "\(outcome.output)")
    }

    @Test("a renamed, missing, mistyped or unknown field, a wrong value or an unknown kind fails validation")
    func mutationsFail() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.streamLines()
        // Each: which line to change (the first that contains the marker), how, whether only the
        // closed schema refuses it, and the validator's reason.
        typealias Mutation = (name: String, marker: String, change: (String) -> String, closedOnly: Bool, reason: String)
        let mutations: [Mutation] = [
            ("header without startMonitorTime", "\"kind\":\"header\"",
             { $0.replacingOccurrences(of: ",\"startMonitorTime\":1000000", with: "") }, false,
             "'startMonitorTime' is a required property"),
            ("header of version 2", "\"kind\":\"header\"",
             { $0.replacingOccurrences(of: "\"version\":1", with: "\"version\":2") }, false, ".version: 1 was expected"),
            ("finished with isCancelled renamed", "\"change\":\"finished\"",
             { $0.replacingOccurrences(of: "\"isCancelled\"", with: "\"cancelled\"") }, false, "'isCancelled' is a required property"),
            ("an origin that does not exist", "\"change\":\"started\"",
             { $0.replacingOccurrences(of: "\"origin\":\"", with: "\"origin\":\"very") }, false, ".origin: 'very"),
            ("a time as a string", "\"change\":\"ready\"",
             { $0.replacingOccurrences(of: "\"time\":", with: "\"time\":\"").replacingOccurrences(of: ",\"origin\"", with: "\",\"origin\"") },
             false, "is not of type 'integer'"),
            ("a change that does not exist", "\"change\":\"cancelled\"",
             { $0.replacingOccurrences(of: "\"change\":\"cancelled\"", with: "\"change\":\"canceled\"") }, false,
             ".change: 'canceled' is not one of"),
            ("keyframe state without queues", "\"kind\":\"keyframe\"",
             { $0.replacingOccurrences(of: "\"queues\":[", with: "\"queueList\":[") }, false, ".state: 'queues' is a required property"),
            ("dropped with a negative count", "\"kind\":\"dropped\"",
             { $0.replacingOccurrences(of: "\"count\":3", with: "\"count\":-3") }, false, ".count: -3 is less than the minimum of 0"),
            ("operationAdded with its optional priorityIsExplicit renamed", "\"change\":\"operationAdded\"",
             { $0.replacingOccurrences(of: "\"priorityIsExplicit\"", with: "\"explicitPriority\"") }, true,
             "'explicitPriority' was unexpected"),
            ("a line of a kind the format does not have", "\"kind\":\"end\"",
             { $0.replacingOccurrences(of: "\"kind\":\"end\"", with: "\"kind\":\"marker\"") }, true, "were unexpected"),
        ]
        var closedFiles: [String] = []
        var openFiles: [String] = []
        for (index, mutation) in mutations.enumerated() {
            let target = try #require(lines.firstIndex { $0.contains(mutation.marker) }, "no line for \(mutation.name)")
            var mutated = lines
            mutated[target] = mutation.change(lines[target])
            #expect(mutated[target] != lines[target], "\(mutation.name) changed nothing")
            let path = try Self.write(mutated, "mutation-\(index).jsonl", in: directory)
            closedFiles.append(path)
            if mutation.closedOnly { openFiles.append(path) }
        }
        let closed = try SchemaCheck.run(.stream, closedFiles, options: ["--expect-invalid"])
        #expect(closed.valid, "\(closed.output)")
        // Each for its own reason, not for another one.
        let verdicts = closed.output.split(separator: "\n").map(String.init)
        for (index, mutation) in mutations.enumerated() {
            let verdict = verdicts.first { $0.hasPrefix(closedFiles[index] + ":") } ?? ""
            #expect(verdict.contains(mutation.reason), "\(mutation.name): \(verdict)")
        }
        // What readers must accept, the published (open) schema accepts.
        let open = try SchemaCheck.run(.stream, openFiles, options: ["--open"])
        #expect(open.valid, "\(open.output)")
    }

    // Not CaseIterable: each list is checked by a switch that stops compiling when a case is added.
    static let origins = [EventOrigin.exact, .sampled, .inferred].filter {
        switch $0 { case .exact, .sampled, .inferred: true }
    }
    static let queueObservations = [QueueObservation.observed, .sampled, .reported].filter {
        switch $0 { case .observed, .sampled, .reported: true }
    }

    @Test("the schema's vocabularies are the code's")
    func vocabularies() throws {
        func words(_ path: String...) throws -> Set<String> { Set(try SchemaCheck.vocabulary(.stream, at: path)) }
        #expect(try words("$defs", "event", "properties", "change") == Set(MonitorEvent.Change.Kind.allCases.map { "\($0.word)" }))
        #expect(try words("$defs", "qualityOfService") == Set(QoSClass.allCases.map(\.rawValue)))
        #expect(try words("$defs", "priority") == Set(OperationPriority.allCases.map(\.description)))
        #expect(try words("$defs", "operationObservation") == Set(ObservationMode.allCases.map(\.rawValue)))
        #expect(try words("$defs", "queueObservation") == Set(Self.queueObservations.map(\.rawValue)))
        #expect(try words("$defs", "origin") == Set(Self.origins.map(\.rawValue)))
        #expect(try words("$defs", "keyChange", "properties", "key") == Set(KeyChange.Key.allCases.map(\.name)))
        #expect(try words("$defs", "counters", "properties", "anomalies", "propertyNames") == Set(StreamAnomaly.allCases.map(\.rawValue)))
    }
}
