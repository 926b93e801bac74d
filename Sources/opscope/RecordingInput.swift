import ArgumentParser
import Foundation
import OpScope
import OpScopeDemos

/// Reading a recording for a command: every problem with the file is one line naming the file
/// (and the line) with exit status 2; a last line cut short, a missing end line and damaged lines
/// (numbers that skip, repeat or go back) are notices on standard error, naming the line, and the
/// rest is used.
enum RecordingInput {
    /// Damaged lines named one by one; more are counted.
    static let noticesShown = 10

    /// Opens and indexes the recording at `path`.
    static func open(_ path: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> Recording {
        // Read as a file, a directory fails on its first line ("/tmp:1: cannot read").
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("\(path): is a directory, not a recording; name a recording file (opscope record DEMO FILE makes one)")
        }
        let recording: Recording
        do {
            recording = try Recording.open(path: path, configuration: configuration)
        } catch {
            throw ValidationError(error.description)
        }
        for notice in recording.notices.prefix(noticesShown) { FileHandle.standardErrorWrite("opscope: \(notice)\n") }
        if recording.noticeCount > noticesShown {
            FileHandle.standardErrorWrite("opscope: \(path): notice: \(recording.noticeCount - noticesShown) more notices like these\n")
        }
        if let truncation = recording.truncation { FileHandle.standardErrorWrite("opscope: \(truncation)\n") }
        if let missing = recording.endMissing { FileHandle.standardErrorWrite("opscope: \(missing)\n") }
        return recording
    }

    /// The moment `--at SECONDS` names, checked against the recording (nil: its end).
    static func moment(_ seconds: Double?, in recording: Recording) throws -> Double? {
        guard let seconds else { return nil }
        guard seconds.isFinite, seconds >= 0 else { throw ValidationError("--at must be 0 or more seconds, got \(seconds)") }
        guard seconds <= recording.duration + 0.0005 else {
            throw ValidationError("--at \(seconds): \(recording.path) is \(String(format: "%.1f", recording.duration)) s long")
        }
        return seconds
    }

    /// The report at a moment of the recording, as `opscope report` prints it; exit status 1
    /// when it holds a problem, as for a demo.
    static func report(_ path: String, at seconds: Double?, json: Bool) throws {
        let recording = try open(path)
        let model: DashboardModel
        do {
            model = try recording.model(atSeconds: moment(seconds, in: recording))
        } catch let error as EventStreamError {
            throw ValidationError(error.description)
        }
        let report = model.report()
        try printReport(report, json: json)
        if report.hasProblem { throw ExitCode(1) }
    }

    /// Prints a report as text, or as the JSON of schemas/report.schema.json.
    static func printReport(_ report: OpScopeReport, json: Bool) throws {
        print(try (json ? OutputFormat.json : .text).render(report, of: nil) ?? "", terminator: "")
    }

    /// True when `argument` names a file rather than a demo: it is not a demo's name, and it
    /// exists or looks like a path.
    static func isFile(_ argument: String) -> Bool {
        Demo.named(argument) == nil
            && (FileManager.default.fileExists(atPath: argument) || argument.contains("/") || argument.contains("."))
    }
}
