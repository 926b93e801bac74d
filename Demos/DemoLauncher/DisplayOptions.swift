import ArgumentParser
import OpScope
import OpScopeOTLP

/// The options of a demo in the dashboard: how it draws (`TerminalOptions`), how fast it plays,
/// and whether it is also recorded or served.
public struct DisplayOptions: ParsableArguments {
    public init() {}

    @OptionGroup public var terminal: TerminalOptions

    @Option(help: "Demo speed: 0.5 is slow motion for teaching, 2 is twice as fast (0.05-20). Slower demos keep finished operations listed longer.")
    public var speed = 1.0

    @Option(help: "Seed of the demo's random choices (durations, priorities): the same seed, the same demo.")
    public var seed: UInt64 = 1

    @Flag(help: "Run headless and serve the demo to consoles in other terminals (opscope attach) until Ctrl-C.")
    public var serve = false

    @Option(help: "With --serve: the agent's socket path (default: the user's opscope directory, PID.sock).")
    public var socket: String?

    @Option(help: "With --serve: also serve Prometheus metrics at HOST:PORT, at http://HOST:PORT/metrics (port 0: any free port, printed).")
    public var metrics: String?

    @Option(help: ArgumentHelp("Send traces (a span per operation) and metrics over OTLP/HTTP to an OpenTelemetry collector at URL "
                               + "(alone: OTEL_EXPORTER_OTLP_ENDPOINT, else \(OTLPConfiguration.defaultEndpoint)). Needs a build with --traits OTLP.",
                               valueName: "url"))
    public var otlp: String?

    @Option(help: "Record the event stream to this file as well (opscope replay FILE plays it back).")
    public var record: String?

    /// The options as `opscope --help` lists them (ArgumentParser shows a default subcommand's
    /// options only in that subcommand's help).
    public static let summary = TerminalOptions.summary + ", --speed X (0.05-20), --seed N, --record FILE, --serve [--socket PATH] [--metrics HOST:PORT], --otlp [URL]"

    /// The dashboard's model for a demo played at `speed`: in slow motion, finished operations
    /// stay listed, and the "too long" warnings wait, as long in demo time as at full speed.
    public static func modelConfiguration(speed: Double) -> ModelConfiguration {
        var configuration = ModelConfiguration()
        guard speed.isFinite, speed > 0, speed < 1 else { return configuration }
        func scaled(_ nanoseconds: UInt64) -> UInt64 { UInt64(min(Double(nanoseconds) / speed, 1e18)) }
        configuration.finishedRetention = scaled(configuration.finishedRetention)
        configuration.longExecution = scaled(configuration.longExecution)
        configuration.cancelledStillExecuting = scaled(configuration.cancelledStillExecuting)
        configuration.conditionGrace = scaled(configuration.conditionGrace)
        return configuration
    }

    public func validate() throws {
        guard speed.isFinite, (0.05...20).contains(speed) else { throw ValidationError("--speed must be between 0.05 and 20, got \(speed)") }
        if socket != nil, !serve { throw ValidationError("--socket goes with --serve") }
        if metrics != nil, !serve { throw ValidationError("--metrics goes with --serve (the dashboard has the terminal otherwise)") }
        if let otlp {
            guard OTLPExporter.isBuilt else { throw ValidationError("--otlp: \(OTLPError.notBuilt)") }
            if otlp != OptionalValueArguments.omitted {
                do { try OTLPConfiguration.validate(otlp) } catch { throw ValidationError("--otlp: \(error)") }
            }
        }
    }
}
