import ArgumentParser
import Foundation
import GraphExport
import OpScope

/// `opscope export FILE --format perfetto|json|dot|mermaid`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recording: a Perfetto / Chrome trace, the JSON report, or the dependency graph.",
        discussion: """
            perfetto: trace-event JSON that ui.perfetto.dev and chrome://tracing open (one track per queue, split into \
            lanes where operations overlap; one slice per operation run; arrows for dependencies; instants for \
            cancellations and warnings). json: the report (as opscope report --json) at --at or at the end. dot and \
            mermaid: the dependency graph at --at or at the end (Graphviz: dot -Tsvg; Mermaid renders in Markdown).
            """
    )

    /// What a recording is exported as.
    static let formats: [OutputFormat] = [.perfetto, .json, .dot, .mermaid]

    @Argument(help: "The recording.")
    var file: String

    @Option(help: "perfetto, json, dot or mermaid.")
    var format: OutputFormat

    @Option(help: "The moment for json, dot and mermaid, in seconds from the recording's start (default: its end).")
    var at: Double?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func validate() throws {
        try format.check(in: Self.formats, command: "opscope export")
    }

    func run() throws {
        let recording = try RecordingInput.open(file)
        let sink = try Output(path: output)
        defer { sink.close() }
        switch format {
        case .perfetto:
            guard at == nil else { throw ValidationError("--at applies to json, dot and mermaid; a trace covers the whole recording") }
            let summary: PerfettoExport.Summary
            do {
                summary = try PerfettoExport.export(recording) { try sink.write($0) }
            } catch let error as EventStreamError {
                throw ValidationError(error.description)
            }
            if output != nil {
                print("wrote \(output!): \(summary.slices) operation runs on \(summary.tracks) tracks, \(summary.flows) dependency arrows, "
                      + "\(summary.instants) instant events; open it at ui.perfetto.dev or chrome://tracing")
            }
        case .text, .json, .dot, .mermaid:
            let model = try model(recording)
            try sink.write(Array((try format.render(model.report(), of: model) ?? "").utf8))
        }
    }

    /// The model at `--at` (or the end).
    private func model(_ recording: Recording) throws -> DashboardModel {
        do {
            return try recording.model(atSeconds: RecordingInput.moment(at, in: recording))
        } catch let error as EventStreamError {
            throw ValidationError(error.description)
        }
    }

    /// Standard output, or a file created for the export.
    final class Output {
        private let handle: FileHandle
        private let path: String?

        init(path: String?) throws {
            self.path = path
            guard let path else {
                handle = FileHandle.standardOutput
                return
            }
            // open(2) itself, for the system's reason when it fails (as opscope record gives it).
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw ValidationError("\(path): cannot create it: \(String(cString: strerror(errno)))")
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }

        func write(_ bytes: [UInt8]) throws {
            do {
                try handle.write(contentsOf: Data(bytes))
            } catch {
                throw ValidationError("\(path ?? "standard output"): cannot write: \(error.localizedDescription)")
            }
        }

        func close() {
            if path != nil { try? handle.close() }
        }
    }
}
