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
    var ceiling = 512

    @Option(help: "Keep the recording at this path (by default it is written to a temporary file and removed).")
    var recording: String?

    @Flag(help: "Do not read the recording back at the end.")
    var noReadBack = false

    func run() throws {
        #if DEBUG
        print("warning: debug build; use `swift build -c release --product opscope-bench` for real figures")
        #endif
        var run = LongRun(operations: operations)
        run.ceilingMegabytes = ceiling
        run.recordingPath = recording
        run.readRecordingBack = !noReadBack
        let result = try run.run { submitted, resident in
            print("  submitted \(submitted), resident \(resident / 1024) MB")
        }
        print(result)
        if !result.problems.isEmpty { throw ExitCode(1) }
    }
}
