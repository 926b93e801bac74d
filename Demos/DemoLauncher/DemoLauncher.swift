import ArgumentParser
import Foundation
import OpScope
import OpScopeDemos

/// Runs a demo in the dashboard: the `opscope demo` command and each demo's own executable.
public enum DemoLauncher {
    /// Opens the dashboard on `demo` until q; a terminating signal ends it with 128 + the signal.
    public static func run(_ demo: Demo, _ display: DisplayOptions) throws {
        if display.serve { try serve(demo, display) }
        let monitor = OperationMonitor()
        // Recording starts before the demo, so that the file holds all of it.
        let recorder = try display.record.map { try startRecording(monitor, to: $0, program: demo.name) }
        defer { recorder.map(finish) }
        let otlp = try DemoTelemetry.startOTLP(monitor, display, program: demo.name)
        defer { otlp.map { DemoTelemetry.finish($0, quietly: false) } }
        let handle = demo.start(monitor, Pace(speed: display.speed, seed: display.seed))
        defer { handle.stop() }
        var defaults = SessionOptions()
        // A demo teaches: it narrates unless the config file says not to.
        defaults.narration = true
        var options = display.terminal.sessionOptions(over: defaults)
        options.caption = "\(demo.name): \(demo.caption)"
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
    /// `--config`, `--speed`, `--seed` as for `opscope demo`; errors are one line with exit status 2, and an
    /// error in the command line ends with where the help is.
    public static func main(demo name: String) -> Never {
        let demo = Demo.named(name)!
        let display: DisplayOptions
        do {
            display = try DisplayOptions.parse(
                OptionalValueArguments.filled(NegativeNumberArguments.joined(Array(CommandLine.arguments.dropFirst()),
                                                                             options: NegativeNumberArguments.demoOptions)))
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
