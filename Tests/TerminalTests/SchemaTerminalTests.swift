import Foundation
import OpScopeTestSupport
import Testing

/// What the real program writes is what the schemas in schemas/ describe: `opscope report`'s and
/// `opscope export`'s JSON against report.schema.json, `opscope record`'s file against
/// stream.schema.json, each with every object closed.
@Suite("Terminal: the program's JSON against the schemas", .serialized, .timeLimit(.minutes(3)))
struct SchemaTerminalTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-schema-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `opscope ARGUMENTS` with its standard output in `file` (in `directory`); returns its
    /// standard error and exit status.
    func opscope(_ arguments: [String], into file: String) -> (errors: String, status: Int32?) {
        let script = "cd \"$1\" && out=\"$2\" && shift 2 && \"$0\" \"$@\" > \"$out\"; echo \"EXIT=$?\""
        let result = ChildProcess.run(["sh", "-c", script, Tmux.opscope, directory, file] + arguments, timeout: 60)
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        guard let last = lines.last, last.hasPrefix("EXIT=") else { return (result.output, nil) }
        return (lines.dropLast().joined(separator: "\n"), Int32(last.dropFirst(5)))
    }

    @Test("report --format json of the demos, and report and export of a recording, are valid reports")
    func reports() throws {
        var files: [String] = []
        for demo in ["tour", "stuck", "pipeline"] {
            let file = "\(directory)/\(demo).json"
            let result = opscope(["report", demo, "--after", "1", "--format", "json"], into: file)
            // 1: the report holds a problem (the stuck demo's, the tour's stuck dependency).
            #expect(result.status == 0 || result.status == 1, "report \(demo): \(result.errors)")
            files.append(file)
        }
        let recording = "\(directory)/tour.jsonl"
        let recorded = opscope(["record", "tour", recording, "--for", "2"], into: "\(directory)/record.out")
        #expect(recorded.status == 0, "\(recorded.errors)")
        for (name, arguments) in [("report-of-file", ["report", recording, "--json"]),
                                  ("export-at", ["export", recording, "--format", "json", "--at", "1"])] {
            let file = "\(directory)/\(name).json"
            let result = opscope(arguments, into: file)
            #expect(result.status == 0 || result.status == 1, "\(arguments.joined(separator: " ")): \(result.errors)")
            files.append(file)
        }
        let outcome = try SchemaCheck.run(.report, files)
        #expect(outcome.valid, "\(outcome.output)")
    }

    @Test("a recording made by opscope record is a valid stream: header, keyframe, events, end")
    func recording() throws {
        var files: [String] = []
        for demo in ["tour", "stuck", "cancellation"] {
            let file = "\(directory)/\(demo).jsonl"
            let recorded = opscope(["record", demo, file, "--for", "1.5"], into: "\(directory)/\(demo).out")
            #expect(recorded.status == 0, "record \(demo): \(recorded.errors)")
            files.append(file)
        }
        let outcome = try SchemaCheck.run(.stream, files, options: ["--require-kinds", "header,keyframe,event,end"])
        #expect(outcome.valid, "\(outcome.output)")
    }

    @Test("the program's report with a field renamed fails validation")
    func mutatedReportFails() throws {
        let file = "\(directory)/stuck.json"
        let result = opscope(["report", "stuck", "--after", "1", "--format", "json"], into: file)
        #expect(result.status == 1, "\(result.errors)")
        let report = try String(contentsOfFile: file, encoding: .utf8)
        #expect(report.contains("\"chainLength\""))
        let mutated = "\(directory)/stuck-mutated.json"
        try report.replacingOccurrences(of: "\"chainLength\"", with: "\"chainLen\"").write(toFile: mutated, atomically: true,
                                                                                              encoding: .utf8)
        let outcome = try SchemaCheck.run(.report, [mutated], options: ["--expect-invalid"])
        #expect(outcome.valid && outcome.output.contains("'chainLength' is a required property"), "\(outcome.output)")
    }
}
