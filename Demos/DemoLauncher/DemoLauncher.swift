import ArgumentParser
import Foundation
import OpScope
import OpScopeDemos

/// Options shared by the dashboard commands.
public struct DisplayOptions: ParsableArguments {
    public init() {}

    @Flag(help: "Draw with ASCII only (no box drawing or symbols).")
    public var ascii = false

    @Flag(name: .customLong("no-color"), help: "No colours (states stay marked by symbols and attributes).")
    public var noColor = false

    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse (lets the terminal select text).")
    public var noMouse = false

    @Option(help: "At most this many frames per second (1-120).")
    public var fps = 30

    @Option(help: "Demo speed: 0.5 is slow motion for teaching, 2 is twice as fast (0.05-20). Slower demos keep finished operations listed longer.")
    public var speed = 1.0

    @Option(help: "Seed of the demo's random choices (durations, priorities): the same seed, the same demo.")
    public var seed: UInt64 = 1

    @Flag(help: "Run headless and serve the demo to consoles in other terminals (opscope attach) until Ctrl-C.")
    public var serve = false

    @Option(help: "With --serve: the agent's socket path (default: the user's opscope directory, PID.sock).")
    public var socket: String?

    @Option(help: "Record the event stream to this file as well (opscope replay FILE plays it back).")
    public var record: String?

    /// The options as `opscope --help` lists them (ArgumentParser shows a default subcommand's
    /// options only in that subcommand's help).
    public static let summary = "--ascii, --no-color, --no-mouse, --fps N (1-120), --speed X (0.05-20), --seed N, --record FILE, --serve [--socket PATH]"

    /// The dashboard's model for a demo played at `speed`: in slow motion, finished operations
    /// stay listed, and the "too long" warnings wait, as long in demo time as at full speed.
    public static func modelConfiguration(speed: Double) -> ModelConfiguration {
        var configuration = ModelConfiguration()
        guard speed.isFinite, speed > 0, speed < 1 else { return configuration }
        func scaled(_ nanoseconds: UInt64) -> UInt64 { UInt64(min(Double(nanoseconds) / speed, 1e18)) }
        configuration.finishedRetention = scaled(configuration.finishedRetention)
        configuration.longExecution = scaled(configuration.longExecution)
        configuration.cancelledStillExecuting = scaled(configuration.cancelledStillExecuting)
        return configuration
    }

    public func validate() throws {
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be between 1 and 120, got \(fps)") }
        guard speed.isFinite, (0.05...20).contains(speed) else { throw ValidationError("--speed must be between 0.05 and 20, got \(speed)") }
        if socket != nil, !serve { throw ValidationError("--socket goes with --serve") }
    }
}


/// Runs a demo in the dashboard: the `opscope demo` command and each demo's own executable.
public enum DemoLauncher {
    /// Opens the dashboard on `demo` until q; a terminating signal ends it with 128 + the signal.
    public static func run(_ demo: Demo, _ display: DisplayOptions) throws {
        if display.serve { try serve(demo, display) }
        let monitor = OperationMonitor()
        // Recording starts before the demo, so that the file holds all of it.
        let recorder = try display.record.map { try startRecording(monitor, to: $0, program: demo.name) }
        defer { recorder.map(finish) }
        let handle = demo.start(monitor, Pace(speed: display.speed, seed: display.seed))
        defer { handle.stop() }
        var options = SessionOptions()
        options.unicode = !display.ascii
        options.color = !display.noColor
        options.mouse = !display.noMouse
        options.framesPerSecond = display.fps
        options.caption = "\(demo.name): \(demo.caption)"
        options.narration = true
        options.model = DisplayOptions.modelConfiguration(speed: display.speed)
        let ending: SessionEnding
        do {
            ending = try OpScopeDashboard.run(monitor, options: options)
        } catch let unavailable as TerminalUnavailable {
            throw ValidationError(unavailable.description)
        }
        if case .signal(let number) = ending { throw ExitCode(128 + number) }
    }

    /// Starts recording `monitor` to `path`; a file that cannot be created is one line.
    private static func startRecording(_ monitor: OperationMonitor, to path: String, program: String) throws -> Recorder {
        var options = RecorderOptions()
        options.program = program
        do {
            return try OpScopeDashboard.record(monitor, to: URL(fileURLWithPath: path), options: options)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Stops a recording and says where it went, or why it stopped early (standard error).
    private static func finish(_ recorder: Recorder) {
        recorder.stop()
        if let failure = recorder.failure {
            FileHandle.standardError.write(Data("opscope: \(failure)\n".utf8))
        } else {
            FileHandle.standardError.write(Data("recorded \(recorder.eventsWritten) events to \(recorder.path); opscope replay \(recorder.path) plays it back\n".utf8))
        }
    }

    /// The `main` of a demo's own executable: `--ascii`, `--no-color`, `--no-mouse`, `--fps`,
    /// `--speed`, `--seed` as for `opscope demo`; errors are one line with exit status 2, and an
    /// error in the command line ends with where the help is.
    public static func main(demo name: String) -> Never {
        let demo = Demo.named(name)!
        let display: DisplayOptions
        do {
            display = try DisplayOptions.parse(
                NegativeNumberArguments.joined(Array(CommandLine.arguments.dropFirst()), options: NegativeNumberArguments.demoOptions))
        } catch {
            if DisplayOptions.exitCode(for: error) == .success {
                let help = DisplayOptions.helpMessage(columns: 100).replacingOccurrences(of: "USAGE: display", with: "USAGE: \(name)")
                print("\(name): \(demo.summary)\n\n" + help)
                exit(0)
            }
            fail(name, ArgumentErrorLine.pointing(DisplayOptions.message(for: error), to: "\(name) --help"))
        }
        do {
            try run(demo, display)
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            fail(name, ArgumentErrorLine.firstLine(DisplayOptions.message(for: error)))
        }
    }

    /// Prints `line` after the program's name and exits with status 2.
    private static func fail(_ name: String, _ line: String) -> Never {
        FileHandle.standardError.write(Data("\(name): \(line)\n".utf8))
        exit(2)
    }
}
