import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The command line as a new user meets it, with the real program and no terminal: argument
/// errors are one line that ends with where the help is, negative numbers get their option's
/// range message, options that do not apply are refused, and the guides' examples run as written.
@Suite("Terminal: the command line", .serialized, .timeLimit(.minutes(3)))
struct CommandLineTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-cli-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `opscope ARGUMENTS` in `directory` (no shell word splitting: each argument as given);
    /// returns what it wrote to both outputs and its exit status.
    func opscope(_ arguments: [String], timeout: Double = 60) -> (output: String, status: Int32?) {
        let script = "cd \"$1\" && shift && \"$0\" \"$@\" 2>&1; echo \"EXIT=$?\""
        let result = ChildProcess.run(["sh", "-c", script, Tmux.opscope, directory] + arguments, timeout: timeout)
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        guard let last = lines.last, last.hasPrefix("EXIT=") else { return (result.output, nil) }
        return (lines.dropLast().joined(separator: "\n"), Int32(last.dropFirst(5)))
    }

    func opscope(_ arguments: String) -> (output: String, status: Int32?) {
        opscope(arguments.split(separator: " ").map(String.init))
    }

    /// A short recording of the pipeline demo, in `directory`.
    func recording() -> String {
        let file = directory + "/run.jsonl"
        let recorded = opscope("record pipeline \(file) --for 0.5")
        #expect(recorded.status == 0, "\(recorded.output)")
        return file
    }

    /// One line, exit status 2, holding `message`.
    func expectRefusal(_ result: (output: String, status: Int32?), _ message: String, _ command: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(command): \(result.output)", sourceLocation: sourceLocation)
        #expect(result.output.hasPrefix("opscope: ") && result.output.contains(message), "\(command): \(result.output)",
                sourceLocation: sourceLocation)
        #expect(result.output.split(separator: "\n").count == 1, "\(command): one line: \(result.output)", sourceLocation: sourceLocation)
    }

    /// A document of the repository, by its path from the root (`docs/embedding.md`).
    private static func document(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The first fenced block of `language` after `heading` in `text`, without its fences.
    private static func codeBlock(_ language: String, after heading: String, in text: String) throws -> [String] {
        let section = try #require(text.range(of: heading), "the document has no \(heading)")
        let start = try #require(text.range(of: "```\(language)\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("docs/record-and-replay.md's example runs as written (without a terminal: record, report, export)")
    func readmeRecordExample() throws {
        let lines = try Self.codeBlock("sh", after: "# Record and replay", in: Self.document("docs/record-and-replay.md"))
        var ran = 0
        for line in lines {
            let command = line.split(separator: "#", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let words = command.split(separator: " ").map(String.init)
            // The dashboard commands need a terminal; the others are run in order.
            guard words.first == "opscope", let subcommand = words.dropFirst().first, ["record", "report", "export"].contains(subcommand)
            else { continue }
            let result = opscope(Array(words.dropFirst()))
            // 1: the report holds a problem (the stuck demo); 0 otherwise.
            #expect(result.status == 0 || result.status == 1, "\(command): \(result.output.prefix(300))")
            #expect(!result.output.hasPrefix("opscope: "), "\(command): \(result.output.prefix(300))")
            ran += 1
        }
        #expect(ran >= 4, "the example's record, report and export lines: \(lines)")
    }

    @Test("docs/embedding.md's example is Demos/Embedding/main.swift, line for line (which a test builds and runs)")
    func embeddingExample() throws {
        let snippet = try Self.codeBlock("swift", after: "## Run the dashboard in your program", in: Self.document("docs/embedding.md"))
        let source = try String(contentsOfFile: Self.root + "/Demos/Embedding/main.swift", encoding: .utf8)
        var program = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).drop { $0.hasPrefix("//") }
        while program.last == "" { program.removeLast() }
        #expect(Array(program) == snippet)
    }

    @Test("a negative number after a numeric option is that option's value, refused with its range message, in every subcommand")
    func negativeNumbers() {
        let file = recording()
        let cases: [(String, String)] = [
            ("report \(file) --at -1", "--at must be 0 or more seconds, got -1.0"),
            ("report \(file) --at -inf", "--at must be 0 or more seconds, got -inf"),
            ("export \(file) --format json --at -1", "--at must be 0 or more seconds, got -1.0"),
            ("report stuck --after -1", "--after must be between 0 and 3600 seconds, got -1.0"),
            ("report stuck --speed -0.5", "--speed must be between 0.05 and 20, got -0.5"),
            ("report stuck --seed -1", "The value '-1' is invalid for '--seed <seed>'"),
            ("demo --seed -1 --list", "The value '-1' is invalid for '--seed <seed>'"),
            ("--seed -1 --list", "The value '-1' is invalid for '--seed <seed>'"),
            ("demo --fps -1", "--fps must be between 1 and 120, got -1"),
            ("demo --speed -2", "--speed must be between 0.05 and 20, got -2.0"),
            ("record pipeline \(directory)/x.jsonl --for -1", "--for must be between 0.1 and 3600 seconds, got -1.0"),
            ("record pipeline \(directory)/x.jsonl --speed -1", "--speed must be between 0.05 and 20, got -1.0"),
            ("record pipeline \(directory)/x.jsonl --seed -1", "The value '-1' is invalid for '--seed <seed>'"),
            ("replay \(file) --speed -1", "--speed must be between 0.1 and 64, got -1.0"),
            ("replay \(file) --fps -1", "--fps must be between 1 and 120, got -1"),
            ("attach --fps -1", "--fps must be between 1 and 120, got -1"),
        ]
        for (command, message) in cases {
            let result = opscope(command)
            expectRefusal(result, message, command)
            #expect(!result.output.contains("Missing value"), "\(command): \(result.output)")
        }
        // An option still missing its value says so.
        expectRefusal(opscope("report \(file) --at"), "Missing value for '--at <at>'", "--at without a value")
        // An option after a duration option is not read as the duration.
        expectRefusal(opscope("report stuck --after --json"), "Missing value for '--after <after>'", "--after --json")
        expectRefusal(opscope("record pipeline \(directory)/x.jsonl --for --speed 2"), "Missing value for '--for <for>'",
                      "--for --speed 2")
    }

    @Test("a demo adds its first batch once: priorities has 8 jobs before its next burst, not 16")
    func demoFirstBatchOnce() throws {
        // At speed 0.05 the next burst comes a minute later, and no job finishes before it.
        let result = opscope("report priorities --after 0.5 --speed 0.05 --json")
        let json = try #require(result.output.firstIndex(of: "{").map { String(result.output[$0...]) })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let operations = try #require(report["operations"] as? [[String: Any]])
        #expect(operations.count == 8, "\(operations.compactMap { $0["name"] as? String })")
    }

    @Test("a demo's own program reads a negative number as its option's value, and its errors end with where the help is")
    func demoProgramArguments() throws {
        let stuck = URL(fileURLWithPath: Tmux.opscope).deletingLastPathComponent().appendingPathComponent("stuck").path
        try #require(FileManager.default.isExecutableFile(atPath: stuck), "no demo program at \(stuck) (swift build builds it)")
        let cases: [(String, String)] = [
            ("--seed -1", "stuck: The value '-1' is invalid for '--seed <seed>'; see 'stuck --help'"),
            ("--fps -1", "stuck: --fps must be between 1 and 120, got -1; see 'stuck --help'"),
            ("--speed -2", "stuck: --speed must be between 0.05 and 20, got -2.0; see 'stuck --help'"),
            ("--no-such-option", "stuck: Unknown option '--no-such-option'; see 'stuck --help'"),
        ]
        for (arguments, message) in cases {
            let words = arguments.split(separator: " ").map(String.init)
            let result = ChildProcess.run(["sh", "-c", "\"$0\" \"$@\" 2>&1; echo \"EXIT=$?\"", stuck] + words, timeout: 60)
            #expect(result.output == message + "\nEXIT=2\n", "stuck \(arguments): \(result.output)")
        }
    }

    @Test("argument errors end with where the help is: opscope --help, or the subcommand's", arguments: [
        ("--no-such-option", "Unknown option '--no-such-option'; see 'opscope --help'"),
        ("--fps 0", "--fps must be between 1 and 120, got 0; see 'opscope --help'"),
        ("demo --no-such-option", "Unknown option '--no-such-option'; see 'opscope demo --help'"),
        ("report stuck --no-such-option", "Unknown option '--no-such-option'; see 'opscope report --help'"),
        ("report stuck --after abc", "The value 'abc' is invalid for '--after <after>'; see 'opscope report --help'"),
        ("record stuck x.jsonl --for abc", "The value 'abc' is invalid for '--for <for>'; see 'opscope record --help'"),
        ("export x.jsonl", "Missing expected argument '--format <format>'; see 'opscope export --help'"),
        // A message that names a command to run already says what to do.
        ("demo nope", "unknown demo 'nope'; known: tour, pipeline, serial-async, async-right-wrong, stuck, readiness, priorities, cancellation (opscope demo --list)"),
    ])
    func helpPointers(command: String, message: String) {
        let result = opscope(command)
        expectRefusal(result, message, command)
        #expect(result.output.hasSuffix(message), "\(command): \(result.output)")
    }

    @Test("opscope help NAME: an unknown subcommand is an error listing the real ones; known ones print their help")
    func helpTopics() {
        expectRefusal(opscope("help nosuch"),
                      "opscope: no subcommand 'nosuch'; the subcommands: demo, report, record, replay, export, attach (opscope help SUBCOMMAND)",
                      "help nosuch")
        expectRefusal(opscope("help report nosuch"), "'opscope report' has no subcommands", "help report nosuch")
        let report = opscope("help report")
        #expect(report.status == 0 && report.output.contains("USAGE: opscope report"), "\(report.output.prefix(300))")
        let top = opscope("help")
        #expect(top.status == 0 && top.output.contains("SUBCOMMANDS:"), "\(top.output.prefix(300))")
        let help = opscope("record --help")
        #expect(help.status == 0 && help.output.contains("USAGE: opscope record"), "\(help.output.prefix(300))")
    }

    @Test("replay without a terminal suggests the report of that file, not of a demo")
    func replayWithoutTerminal() {
        let file = recording()
        let result = opscope(["replay", file])
        expectRefusal(result, "standard output is not a terminal", "replay")
        #expect(result.output.contains("(for a report, try: opscope report \(file) --json)"), "\(result.output)")
        #expect(!result.output.contains("DEMO"), "\(result.output)")
        let spaced = directory + "/my run.jsonl"
        try? FileManager.default.copyItem(atPath: file, toPath: spaced)
        #expect(opscope(["replay", spaced]).output.contains("try: opscope report '\(spaced)' --json)"))
    }

    @Test("--after, --speed and --seed where no demo runs (a recording, --attach) are refused; --at with a demo too")
    func afterWithRecording() {
        let file = recording()
        expectRefusal(opscope("report \(file) --after 5"), "--after applies to a demo; a recording file is reported --at SECONDS",
                      "report FILE --after")
        expectRefusal(opscope("report --attach 1 --after 5"), "--after applies to a demo; a running program is reported as it is now",
                      "report --attach --after")
        expectRefusal(opscope("report stuck --at 1"), "--at applies to a recording file; a demo runs --after SECONDS", "report DEMO --at")
        // The demo's own options are refused too where no demo runs.
        expectRefusal(opscope("report \(file) --speed 2"), "--speed applies to a demo; a recording plays as it was recorded",
                      "report FILE --speed")
        expectRefusal(opscope("report \(file) --seed 3"), "--seed applies to a demo; a recording plays as it was recorded",
                      "report FILE --seed")
        expectRefusal(opscope("report --attach 1 --seed 3"), "--seed applies to a demo; a running program is reported as it is",
                      "report --attach --seed")
        let atStart = opscope("report \(file) --at 0 --json")
        #expect(atStart.status == 0 && atStart.output.contains("\"operations\""), "\(atStart.output.prefix(300))")
    }

    @Test("--metrics: only with --serve; a bad address is one line naming it; a port in use says so")
    func metricsOption() throws {
        expectRefusal(opscope("demo stuck --metrics 127.0.0.1:0"), "--metrics goes with --serve (the dashboard has the terminal otherwise)",
                      "demo --metrics without --serve")
        expectRefusal(opscope("demo stuck --serve --socket \(directory)/a.sock --metrics 9464"),
                      "'9464' is not HOST:PORT (e.g. 127.0.0.1:9464)", "demo --serve --metrics PORT")
        let taken = try MetricsPort.listening()
        defer { close(taken.descriptor) }
        expectRefusal(opscope("demo stuck --serve --socket \(directory)/b.sock --metrics 127.0.0.1:\(taken.port)"),
                      "cannot serve metrics at 127.0.0.1:\(taken.port): Address already in use", "demo --serve --metrics PORT-IN-USE")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/b.sock"), "the agent's socket is removed when the metrics cannot start")
    }

    @Test("a directory given as a recording: one line saying so, no line number, exit status 2")
    func directoryAsRecording() {
        for command in ["report \(directory)", "replay \(directory)", "export \(directory) --format perfetto"] {
            let result = opscope(command)
            expectRefusal(result, "opscope: \(directory): is a directory, not a recording", command)
            #expect(!result.output.contains(":1:"), "\(command): \(result.output)")
        }
    }
}

/// A loopback port some other program listens on, for the "port in use" message.
enum MetricsPort {
    static func listening() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 1) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw Fleet.FleetError("cannot listen on loopback") }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
