import ArgumentParser
import Foundation
import OpScope
import OpScopeOTLP

/// `--otlp`: a demo's operations sent to an OpenTelemetry collector while it runs.
enum DemoTelemetry {
    /// Starts the OTLP exporter `display.otlp` asks for, if any.
    static func startOTLP(_ monitor: OperationMonitor, _ display: DisplayOptions, program: String) throws -> OTLPExporter? {
        guard let url = display.otlp else { return nil }
        var configuration = OTLPConfiguration()
        if url != OptionalValueArguments.omitted {
            configuration.endpoint = url
            // A URL typed on the command line wins over the environment's (swift-otel lets the
            // OTEL_* endpoint variables win over code): this process is opscope's own.
            for name in ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] {
                unsetenv(name)
            }
        }
        do {
            return try OTLPExporter(source: monitor, program: program, configuration: configuration)
        } catch {
            throw ValidationError("--otlp: \(error)")
        }
    }

    /// Stops the exporter (what has not finished is sent as unfinished spans) and says what was
    /// sent, or what went wrong, on standard error.
    static func finish(_ exporter: OTLPExporter, quietly: Bool) {
        exporter.stop()
        let problems = exporter.problems
        var line = "sent \(exporter.spansSent) operation spans to \(exporter.tracesEndpoint)"
        if let first = problems.first { line += "; the collector did not take all of it: \(first)" }
        if !quietly || !problems.isEmpty { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
