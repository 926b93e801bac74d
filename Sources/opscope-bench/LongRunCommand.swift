import ArgumentParser
import Foundation
import ReliabilityRuns

/// `opscope-bench longrun`: the long run of RELIABILITY.md (a dashboard, a recorder and an
/// attached console on one monitor while a million operations go through).
struct LongRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "longrun",
        abstract: "Operations through a dashboard, a recorder and an attached console at once; checks memory, releases and losses.")

    @Option(help: "Operations to submit.")
    var operations = 1_000_000

    @Option(help: "Resident memory the run may reach, in megabytes.")
    var ceiling = 768

    @Option(help: "Keep the recording at this path (by default it is written to a temporary file and removed).")
    var recording: String?

    @Flag(help: "Do not read the recording back at the end.")
    var noReadBack = false

    @Option(help: "The consumers, comma-separated: dashboard, recorder, console (default: all three).")
    var consumers = "dashboard,recorder,console"

    func validate() throws {
        let names = consumers.split(separator: ",").map(String.init)
        guard !names.isEmpty, names.allSatisfy({ LongRunConsumer(rawValue: $0) != nil }) else {
            throw ValidationError("--consumers takes: dashboard, recorder, console")
        }
    }

    func run() throws {
        warnIfDebugBuild(use: "swift build -c release --product opscope-bench", for: "figures")
        var run = LongRun(operations: operations)
        run.ceilingMegabytes = ceiling
        run.recordingPath = recording
        run.readRecordingBack = !noReadBack
        run.consumers = Set(consumers.split(separator: ",").compactMap { LongRunConsumer(rawValue: String($0)) })
        let result = try run.run { submitted, resident in
            print("  submitted \(submitted), resident \(resident / 1024) MB")
        }
        try printChecked(result)
    }
}
