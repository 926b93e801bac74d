import ArgumentParser
import Foundation
import OpScope

/// What `opscope report` prints and `opscope export` writes, declared once: each command takes
/// the formats that fit what it reads (a trace needs a recording; a program or a demo is
/// reported at one moment).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// The report as a person reads it.
    case text
    /// The report as JSON (keys sorted, indented; schemas/report.schema.json).
    case json
    /// Trace-event JSON for ui.perfetto.dev and chrome://tracing: a whole recording.
    case perfetto
    /// A recording's spans sent to an OpenTelemetry collector (OTLP/HTTP).
    case otlp
    /// A recording's spans as an OTLP JSON file.
    case otlpJSON = "otlp-json"
    /// The dependency graph as Graphviz DOT.
    case dot
    /// The dependency graph as a Mermaid flowchart.
    case mermaid

    /// `formats` as a sentence lists them: "text, json, dot or mermaid".
    static func list(_ formats: [OutputFormat]) -> String {
        let words = formats.map(\.rawValue)
        return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// Refuses a format the command does not write, naming those it does and where the other is.
    func check(in formats: [OutputFormat], command: String) throws {
        guard !formats.contains(self) else { return }
        let elsewhere = self.isTrace ? "; a trace is exported from a recording: opscope export FILE --format \(rawValue)"
            : self == .text ? "; the text report: opscope report FILE" : ""
        throw ValidationError("\(command) writes \(Self.list(formats)), not \(rawValue)\(elsewhere)")
    }

    /// A whole recording's trace (written by `opscope export`, not rendered from one model).
    var isTrace: Bool {
        switch self {
        case .perfetto, .otlp, .otlpJSON: true
        case .text, .json, .dot, .mermaid: false
        }
    }

    /// The report or graph of `model` in this format (a whole trace is not: nil for traces).
    func render(_ report: @autoclosure () -> OpScopeReport, of model: DashboardModel?) throws -> String? {
        switch self {
        case .text: return ReportText.render(report(), forCommand: true) + "\n"
        case .json: return try Self.json(report()) + "\n"
        case .dot: return model.map { GraphExport.dot($0) }
        case .mermaid: return model.map { GraphExport.mermaid($0) }
        case .perfetto, .otlp, .otlpJSON: return nil
        }
    }

    /// The JSON report (keys sorted, indented), as `--json` prints it.
    static func json(_ report: OpScopeReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
