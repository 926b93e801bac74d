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

/// `opscope report DEMO --after SECONDS [--json]`, or `opscope report FILE [--at SECONDS] [--json]`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Run a demo without a terminal and print its report, report from a recording, or on a running program (--attach PID).",
        discussion: "Exit status 0, or 1 when the report holds a cycle or a stuck operation (useful in CI)."
    )

    @Argument(help: "The demo to run, or a recording file (the report at its end, or --at).")
    var demo: String?

    @Option(help: "Report on a running program instead of a demo: its process id or socket path (opscope attach lists them).")
    var attach: String?

    @Option(help: "With a recording: the moment to report, in seconds from its start (default: its end).")
    var at: Double?

    // `.unconditional`: `--after -1` is a bad duration to explain, not a missing value.
    @Option(parsing: .unconditional, help: "Seconds to run before reporting (0-3600).")
    var after = 2.0

    @Flag(help: "Print the JSON report (the schema is in README.md).")
    var json = false

    @Option(help: "Demo speed (0.05-20).")
    var speed = 1.0

    @Option(help: "Seed of the demo's random choices: the same seed, the same demo.")
    var seed: UInt64 = 1

    func validate() throws {
        if attach != nil {
            guard demo == nil else { throw ValidationError("give a demo or --attach, not both") }
            return
        }
        guard let demo else { throw ValidationError("missing demo; known: \(Demo.all.map(\.name).joined(separator: ", ")) (or a recording file, or --attach PID)") }
        if RecordingInput.isFile(demo) { return }
        guard at == nil else { throw ValidationError("--at applies to a recording file; a demo runs --after SECONDS") }
        guard Demo.named(demo) != nil else {
            throw ValidationError("unknown demo '\(demo)'; known: \(Demo.all.map(\.name).joined(separator: ", "))")
        }
        guard after.isFinite, (0...3_600).contains(after) else { throw ValidationError("--after must be between 0 and 3600 seconds, got \(after)") }
        guard speed.isFinite, (0.05...20).contains(speed) else { throw ValidationError("--speed must be between 0.05 and 20, got \(speed)") }
    }

    func run() throws {
        if let attach { return try reportAttached(attach) }
        if let demo, RecordingInput.isFile(demo) { return try RecordingInput.report(demo, at: at, json: json) }
        let monitor = OperationMonitor()
        let handle = Demo.named(demo!)!.start(monitor, Pace(speed: speed, seed: seed))
        let report = OpScopeDashboard.observe(monitor, for: after, configuration: DisplayOptions.modelConfiguration(speed: speed))
        handle.stop()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ReportText.render(report))
        }
        if report.hasProblem { throw ExitCode(1) }
    }
}

extension FileHandle {
    static func standardErrorWrite(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
