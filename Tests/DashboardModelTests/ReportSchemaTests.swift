import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// The JSON report's schema (schemas/report.schema.json) describes what `OpScopeReport.json()`
/// writes: reports of runs with every kind of fact validate with every object closed, a
/// renamed, missing or mistyped field fails, and its vocabularies are the code's.
@Suite("Model: the JSON report against its JSON Schema", .serialized, .timeLimit(.minutes(1)))
struct ReportSchemaTests {
    /// Reports of a story with every kind of fact (dropped events too), of the stuck demo's
    /// script and of the pipeline's, as `json()` writes them.
    static func reports() -> [[UInt8]] {
        var story = ReportStoryTests.run()
        story.add(40, queue: 1, "late", priority: .veryHigh, qos: .userInitiated)
        var model = DashboardModel(configuration: .report)
        model.apply(EventBatch(events: story.events, droppedTotal: 7))
        let stuck = stuckScript().model(.report)
        let pipeline = pipelineScript().model(.report)
        return [model.report(now: story.time + 60_000_000_000).json(), stuck.report(now: stuck.now + 10_000_000_000).json(),
                pipeline.report().json()]
    }

    private static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-report-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func write(_ report: [UInt8], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(report).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("reports with cycles, diagnoses, warnings and dropped events are valid, with every object closed")
    func reportsValidate() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reports = Self.reports()
        let text = reports.map { String(decoding: $0, as: UTF8.self) }.joined()
        // The facts whose fields are optional appear, so that the schema is held to them.
        for field in ["\"cycles\":[[", "\"diagnoses\":[{", "\"warnings\":[{", "\"finishedAt\"", "\"startedAt\"", "\"readyAt\"",
                      "\"seen\"", "\"rootCause\"", "\"next\"", "\"droppedEvents\":7"] {
            #expect(text.contains(field), "no report shows \(field)")
        }
        let paths = try reports.enumerated().map { try Self.write($0.element, "report-\($0.offset).json", in: directory) }
        let outcome = try SchemaCheck.run(.report, paths)
        #expect(outcome.valid, "\(outcome.output)")
    }

    @Test("a renamed, missing or mistyped field, or a value the format does not have, fails validation")
    func mutationsFail() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = String(decoding: Self.reports()[0], as: UTF8.self)
        let mutations: [(name: String, from: String, to: String, reason: String)] = [
            ("a queue's maxConcurrent renamed", "\"maxConcurrent\":", "\"maxConcurrency\":", "'maxConcurrent' is a required property"),
            ("trimmed missing", ",\"trimmed\":0,\"warnings\"", ",\"warnings\"", "'trimmed' is a required property"),
            ("a state that does not exist", "\"state\":\"pending\"", "\"state\":\"waiting\"", "'waiting' is not one of"),
            ("an optional field renamed", "\"startedAt\":", "\"startTime\":", "'startTime' was unexpected"),
            ("a count as a string", "\"droppedEvents\":7", "\"droppedEvents\":\"7\"", "is not of type 'integer'"),
            ("a priority by number", "\"priority\":\"normal\"", "\"priority\":0", "0 is not one of"),
        ]
        var paths: [String] = []
        for (index, mutation) in mutations.enumerated() {
            #expect(report.contains(mutation.from), "\(mutation.name): the report has no \(mutation.from)")
            let mutated = report.replacingOccurrences(of: mutation.from, with: mutation.to)
            paths.append(try Self.write(Array(mutated.utf8), "mutation-\(index).json", in: directory))
        }
        let outcome = try SchemaCheck.run(.report, paths, options: ["--expect-invalid"])
        #expect(outcome.valid, "\(outcome.output)")
        let verdicts = outcome.output.split(separator: "\n").map(String.init)
        for (index, mutation) in mutations.enumerated() {
            let verdict = verdicts.first { $0.hasPrefix(paths[index] + ":") } ?? ""
            #expect(verdict.contains(mutation.reason), "\(mutation.name): \(verdict)")
        }
    }

    @Test("docs/report.md lists the code's diagnosis and warning kinds, and says whose queue a diagnosis names")
    func guideVocabularies() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/report.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        /// The backquoted words in the `kind` (...) list of the table row for `field`.
        func kinds(_ field: String) throws -> Set<String> {
            let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `\(field)` |") }, "no row for \(field)")
            let list = try #require(row.range(of: "`kind` (")).upperBound
            let close = try #require(row[list...].firstIndex(of: ")"))
            return Set(row[list..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) })
        }
        #expect(try kinds("diagnoses[]") == Set(Diagnosis.Kind.allCases.map(\.rawValue)))
        #expect(try kinds("warnings[]") == Set(Warning.Kind.allCases.map(\.rawValue)))
        #expect(text.contains("`queue` (the root cause's queue, not necessarily the operation's own"))

        // And it is so: work of q2 waiting on work held by suspended q1 names q1.
        var script = EventScript()
        script.queue(1, "held", suspended: true)
        script.queue(2, "waiting")
        script.add(1, queue: 1, "fetch")
        script.add(2, queue: 2, "parse", after: [1])
        let diagnosis = try #require(script.model().report().diagnoses.first { $0.operation == 2 })
        #expect(diagnosis.queue == QueueID(1) && diagnosis.rootCause == 1, "\(diagnosis)")
    }

    @Test("the schema's vocabularies are the code's")
    func vocabularies() throws {
        func words(_ path: String...) throws -> Set<String> { Set(try SchemaCheck.vocabulary(.report, at: path)) }
        #expect(try words("$defs", "diagnosis", "properties", "kind") == Set(Diagnosis.Kind.allCases.map(\.rawValue)))
        #expect(try words("$defs", "warning", "properties", "kind") == Set(Warning.Kind.allCases.map(\.rawValue)))
        #expect(try words("$defs", "operation", "properties", "state") == Set(OperationState.allCases.map(\.rawValue)))
        #expect(try words("$defs", "operation", "properties", "observation") == Set(ObservationMode.allCases.map(\.rawValue)))
        #expect(try words("$defs", "priority") == Set(OperationPriority.allCases.map(\.description)))
        #expect(try words("$defs", "qualityOfService") == Set(QoSClass.allCases.map(\.rawValue)))
    }
}
