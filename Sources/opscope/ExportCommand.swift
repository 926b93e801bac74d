import ArgumentParser
import Foundation
import GraphExport
import OpScope
import OpScopeOTLP
import OpScopeTelemetry

/// `opscope export FILE --format perfetto|otlp|otlp-json|json|dot|mermaid`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recording: a Perfetto / Chrome trace, OpenTelemetry spans, the JSON report, or the dependency graph.",
        discussion: """
            perfetto: trace-event JSON that ui.perfetto.dev and chrome://tracing open (one track per queue, split into \
            lanes where operations overlap; one slice per operation run; each wait from add to start as an async \
            slice, to the end for work that never started; arrows for dependencies; instants for cancellations and \
            warnings). otlp: one span per operation (added to finished, a 'started' event where \
            the wait ends, dependencies as links, warnings as events; unfinished work ends at the recording's end with \
            an error status) sent to an OpenTelemetry collector over OTLP/HTTP at --endpoint (needs a build with \
            --traits OTLP). otlp-json: the same spans as OTLP's JSON file form (one ExportTraceServiceRequest). json: the report (as opscope report --json) at --at or at the end. dot and \
            mermaid: the dependency graph at --at or at the end (Graphviz: dot -Tsvg; Mermaid renders in Markdown).

            Exit status 0 when the export is written, whatever the recording holds: opscope report FILE is the check \
            (exit status 1 when work cannot progress). 2 when the recording cannot be read, an option is wrong, or the \
            output cannot be written or sent.
            """
    )

    /// What a recording is exported as.
    static let formats: [OutputFormat] = [.perfetto, .otlp, .otlpJSON, .json, .dot, .mermaid]

    @Argument(help: "The recording.")
    var file: String

    @Option(help: "perfetto, otlp, otlp-json, json, dot or mermaid.")
    var format: OutputFormat

    @Option(help: ArgumentHelp("With --format otlp: the collector (default: OTEL_EXPORTER_OTLP_ENDPOINT, else \(OTLPConfiguration.defaultEndpoint)).",
                               valueName: "url"))
    var endpoint: String?

    @Option(help: "The moment for json, dot and mermaid, in seconds from the recording's start (default: its end).")
    var at: Double?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func validate() throws {
        try format.check(in: Self.formats, command: "opscope export")
        if endpoint != nil, format != .otlp { throw ValidationError("--endpoint goes with --format otlp (the collector to send the spans to)") }
        if format == .otlp {
            guard OTLPExporter.isBuilt else { throw ValidationError("--format otlp: \(OTLPError.notBuilt); --format otlp-json -o FILE writes the same spans to a file") }
            if output != nil { throw ValidationError("--format otlp sends the spans to --endpoint; -o goes with --format otlp-json") }
            if let endpoint {
                do { try OTLPConfiguration.validate(endpoint) } catch { throw ValidationError("--endpoint: \(error)") }
            }
        }
        if format.isTrace, at != nil {
            throw ValidationError("--at applies to json, dot and mermaid; a trace covers the whole recording")
        }
    }

    func run() throws {
        let recording = try RecordingInput.open(file)
        if format == .otlp { return try send(recording) }
        let sink = try Output(path: output)
        defer { sink.close() }
        switch format {
        case .otlp:
            break
        case .otlpJSON:
            let spans: [OperationSpan]
            let bytes: [UInt8]
            do {
                let traced = try RecordingTraces.spans(of: recording)
                spans = traced.spans
                bytes = try OTLPJSONTrace.encode(spans, session: traced.session)
            } catch let error as EventStreamError {
                throw ValidationError(error.description)
            }
            try sink.write(bytes)
            if let output {
                print("wrote \(output): \(spans.count) operation spans (\(spans.filter(\.unfinished).count) unfinished), "
                      + "\(spans.reduce(0) { $0 + $1.links.count }) dependency links; an OpenTelemetry collector's otlpjsonfile receiver reads it")
            }
        case .perfetto:
            let summary: PerfettoExport.Summary
            do {
                summary = try PerfettoExport.export(recording) { try sink.write($0) }
            } catch let error as EventStreamError {
                throw ValidationError(error.description)
            }
            if output != nil {
                print("wrote \(output!): \(summary.slices) operation runs on \(summary.tracks) tracks, \(summary.waits) waits, "
                      + "\(summary.flows) dependency arrows, \(summary.instants) instant events; open it at ui.perfetto.dev or chrome://tracing")
            }
        case .text, .json, .dot, .mermaid:
            let model = try model(recording)
            try sink.write(Array((try format.render(model.report(), of: model) ?? "").utf8))
        }
    }

    /// `--format otlp`: the spans sent to the collector.
    private func send(_ recording: Recording) throws {
        var configuration = OTLPConfiguration()
        if let endpoint {
            configuration.endpoint = endpoint
            // Typed on the command line: it wins over the environment's endpoint (swift-otel
            // lets the OTEL_* variables win over code).
            for name in ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] { unsetenv(name) }
        }
        let summary: OTLPRecordingExport.Summary
        do {
            summary = try OTLPRecordingExport.send(recording, configuration: configuration)
        } catch let error as EventStreamError {
            throw ValidationError(error.description)
        } catch let error as OTLPError {
            throw ValidationError(error.description)
        }
        print("sent \(summary.spans) operation spans (\(summary.unfinished) unfinished), \(summary.links) dependency links to \(summary.endpoint)")
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
