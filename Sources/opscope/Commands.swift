import ArgumentParser
import Foundation
import OpScope
import OpScopeDemos
import DemoLauncher

/// `opscope`: a live terminal dashboard for Foundation operation queues.
struct OpScopeCommand: ParsableCommand {
    /// `opscope --version`.
    static let version = "opscope 0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "opscope",
        abstract: "A live terminal dashboard for Foundation Operations and OperationQueues.",
        discussion: """
            Without a subcommand, opens the dashboard on the '\(Demo.standard.name)' demo. Press ? in the dashboard for every key.

            Demos: \(Demo.all.map(\.name).joined(separator: ", ")) (opscope demo --list says what each shows).
            Dashboard options (opscope demo [NAME] OPTIONS, or opscope OPTIONS): \(DisplayOptions.summary).
            """,
        version: OpScopeCommand.version,
        subcommands: [DemoCommand.self, ReportCommand.self, RecordCommand.self, ReplayCommand.self, ExportCommand.self, AttachCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}

/// `opscope demo [NAME]`.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Open the dashboard on a built-in demo (see --list).")

    @Argument(help: "The demo to run (default: \(Demo.standard.name)).")
    var name: String?

    @Flag(help: "List the demos, one line each.")
    var list = false

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        if let name, Demo.named(name) == nil {
            throw ValidationError("unknown demo '\(name)'; known: \(Demo.all.map(\.name).joined(separator: ", ")) (opscope demo --list)")
        }
    }

    func run() throws {
        if list {
            let width = Demo.all.map(\.name.count).max() ?? 0
            for demo in Demo.all { print(demo.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + demo.summary) }
            return
        }
        let demo = name.flatMap(Demo.named) ?? Demo.standard
        try DemoLauncher.run(demo, display)
    }
}

/// `opscope report DEMO --after SECONDS [--format text|json|dot|mermaid]`, `opscope report FILE
/// [--at SECONDS] [--json]`, or `opscope report --attach PID [--json]`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the report of a demo run without a terminal, of a recording, or of a running program (--attach PID).",
        discussion: """
            Exit status 0, or 1 when the report holds a cycle or an operation that cannot progress on its own (useful in CI), \
            whatever the format; work held by a suspended queue is named but is no problem by itself.
            Graphs: opscope report stuck --format dot | dot -Tsvg > stuck.svg; --format mermaid prints a flowchart for Markdown.
            A recording's graph: opscope export FILE --format dot|mermaid [--at SECONDS].
            """
    )

    /// What the report is printed as.
    static let formats: [OutputFormat] = [.text, .json, .dot, .mermaid]

    @Argument(help: "The demo to run, or a recording file (the report at its end, or --at).")
    var demo: String?

    @Option(help: "Report on a running program instead of a demo: its process id or socket path (opscope attach lists them).")
    var attach: String?

    @Option(help: "With a recording: the moment to report, in seconds from its start (default: its end).")
    var at: Double?

    @Option(help: "Seconds to run a demo before reporting (0-3600, default 2).")
    var after: Double?

    @Option(help: "text, json (schema: schemas/report.schema.json), dot (Graphviz) or mermaid: the dependency graph.")
    var format: OutputFormat?

    @Flag(help: "Print the JSON report (the same as --format json).")
    var json = false

    // Optional, so that one given where no demo runs is refused rather than ignored.
    @Option(help: "Demo speed (0.05-20, default 1).")
    var speed: Double?

    @Option(help: "Seed of the demo's random choices: the same seed, the same demo (default 1).")
    var seed: UInt64?

    /// The output asked for.
    var output: OutputFormat { format ?? (json ? .json : .text) }

    func validate() throws {
        try format?.check(in: Self.formats, command: "opscope report")
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for two outputs; give one") }
        if attach != nil {
            guard demo == nil else { throw ValidationError("give a demo or --attach, not both") }
            guard after == nil else { throw ValidationError("--after applies to a demo; a running program is reported as it is now") }
            try refuseDemoOptions("a running program is reported as it is")
            guard output == .text || output == .json else { throw ValidationError("--attach reports as text or json; for the graph, attach and press g, or record and export") }
            return
        }
        guard let demo else { throw ValidationError("missing demo; known: \(Demo.all.map(\.name).joined(separator: ", ")) (or a recording file, or --attach PID)") }
        if RecordingInput.isFile(demo) {
            guard output == .text || output == .json else {
                throw ValidationError("a recording's graph is exported with: opscope export \(demo) --format \(output.rawValue)")
            }
            guard after == nil else { throw ValidationError("--after applies to a demo; a recording file is reported --at SECONDS") }
            try refuseDemoOptions("a recording plays as it was recorded")
            return
        }
        guard at == nil else { throw ValidationError("--at applies to a recording file; a demo runs --after SECONDS") }
        guard Demo.named(demo) != nil else {
            throw ValidationError("unknown demo '\(demo)'; known: \(Demo.all.map(\.name).joined(separator: ", "))")
        }
        if let after, !(after.isFinite && (0...3_600).contains(after)) {
            throw ValidationError("--after must be between 0 and 3600 seconds, got \(after)")
        }
        if let speed, !(speed.isFinite && (0.05...20).contains(speed)) {
            throw ValidationError("--speed must be between 0.05 and 20, got \(speed)")
        }
    }

    /// `--speed` and `--seed` shape a demo's run: anywhere else they would be ignored.
    private func refuseDemoOptions(_ why: String) throws {
        if speed != nil { throw ValidationError("--speed applies to a demo; \(why)") }
        if seed != nil { throw ValidationError("--seed applies to a demo; \(why)") }
    }

    func run() throws {
        if let attach { return try reportAttached(attach) }
        if let demo, RecordingInput.isFile(demo) { return try RecordingInput.report(demo, at: at, json: output == .json) }
        if let demo, FileManager.default.fileExists(atPath: demo) {
            // A demo's name wins over a file of that name: say which ran, and how to name the file.
            FileHandle.standardErrorWrite("opscope: running the demo '\(demo)'; for the file of that name: opscope report ./\(demo)\n")
        }
        let monitor = OperationMonitor()
        let speed = speed ?? 1
        let handle = Demo.named(demo!)!.start(monitor, Pace(speed: speed, seed: seed ?? 1))
        let model = OpScopeDashboard.model(of: monitor, for: after ?? 2, configuration: DisplayOptions.modelConfiguration(speed: speed))
        handle.stop()
        let report = model.report()
        print(try output.render(report, of: model) ?? "", terminator: "")
        if report.hasProblem { throw ExitCode(1) }
    }
}

extension FileHandle {
    static func standardErrorWrite(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
