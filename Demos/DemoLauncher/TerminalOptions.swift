import ArgumentParser
import DashboardConfig
import Foundation
import OpScope

/// How the dashboard draws on the terminal, and the config file: the options every dashboard
/// command takes (`opscope demo`, `attach`, `replay` and each demo's own executable), declared
/// once here. A flag wins over the file, and the file over the command's defaults; each flag
/// has its opposite (`--unicode`, `--color`, `--mouse`) to undo what the file says.
public struct TerminalOptions: ParsableArguments {
    public init() {}

    /// `--ascii` or `--unicode`; nil: neither was given.
    @Flag
    public var glyphs: Glyphs?

    /// `--no-color` or `--color`; nil: neither was given.
    @Flag
    public var colors: Colors?

    /// `--no-mouse` or `--mouse`; nil: neither was given.
    @Flag
    public var mouse: Mouse?

    /// `--fps N`; nil: not given.
    @Option(help: "At most this many frames per second (\(ConfigKey.framesPerSecond.lowerBound)-\(ConfigKey.framesPerSecond.upperBound); default \(SessionOptions().framesPerSecond)).")
    public var fps: Int?

    /// `--config FILE`.
    @Option(name: .customLong("config"),
            help: ArgumentHelp("Read the settings from this TOML file (default: \(ConfigFile.standardLocation), if it exists). "
                               + "Flags win over the file; docs/config.md lists the keys.", valueName: "file"))
    public var configPath: String?

    /// `--no-config`.
    @Flag(name: .customLong("no-config"), help: "Read no config file: the built-in defaults and the flags only.")
    public var noConfig = false

    /// The config file read while the options were checked (nil: none, or none wanted).
    public private(set) var configFile: ConfigFile?

    // The options only: `configFile` is read in `validate()`, not parsed. (ArgumentParser
    // refuses to run when an option has no key here, so a new option cannot be forgotten.)
    private enum CodingKeys: String, CodingKey {
        case glyphs, colors, mouse, fps, configPath, noConfig
    }

    /// How the dashboard draws text.
    public enum Glyphs: String, EnumerableFlag, Sendable {
        /// `--ascii`.
        case ascii
        /// `--unicode`.
        case unicode

        public static func help(for value: Glyphs) -> ArgumentHelp? {
            switch value {
            case .ascii: "Draw with ASCII only (no box drawing or symbols)."
            case .unicode: "Draw box drawing and symbols (the default; wins over the config file's ascii = true)."
            }
        }
    }

    /// Colours or none.
    public enum Colors: String, EnumerableFlag, Sendable {
        /// `--no-color`.
        case noColor
        /// `--color`.
        case color

        public static func help(for value: Colors) -> ArgumentHelp? {
            switch value {
            case .noColor: "No colours (states stay marked by symbols and attributes)."
            case .color: "Colours (the default; wins over the config file's color = false)."
            }
        }
    }

    /// The mouse captured or not.
    public enum Mouse: String, EnumerableFlag, Sendable {
        /// `--no-mouse`.
        case noMouse
        /// `--mouse`.
        case mouse

        public static func help(for value: Mouse) -> ArgumentHelp? {
            switch value {
            case .noMouse: "Do not capture the mouse (lets the terminal select text)."
            case .mouse: "Capture the mouse (the default; wins over the config file's mouse = false)."
            }
        }
    }

    /// The flags as a summary line lists them.
    public static let summary = "--ascii (--unicode), --no-color (--color), --no-mouse (--mouse), --fps N (1-120), --config FILE, --no-config"

    /// Checks the flags and reads the config file, so that a bad one is refused as an argument
    /// error is: one line, exit status 2, before the terminal is touched.
    public mutating func validate() throws {
        if let fps, !ConfigKey.framesPerSecond.contains(fps) {
            throw ValidationError("--fps must be between \(ConfigKey.framesPerSecond.lowerBound) and \(ConfigKey.framesPerSecond.upperBound), got \(fps)")
        }
        if noConfig, configPath != nil { throw ValidationError("--config and --no-config: choose one") }
        let choice: ConfigFile.Choice = noConfig ? .none : configPath.map { .file($0) } ?? .standard
        do {
            configFile = try ConfigFile.load(choice, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What the flags set, each nil where no flag was given.
    public var flagSettings: DashboardSettings {
        var settings = DashboardSettings()
        settings.ascii = glyphs.map { $0 == .ascii }
        settings.color = colors.map { $0 == .color }
        settings.mouse = mouse.map { $0 == .mouse }
        settings.fps = fps
        return settings
    }

    /// `defaults` (a command's own: demos narrate) with the config file's settings over them,
    /// and the flags over those.
    public func sessionOptions(over defaults: SessionOptions) -> SessionOptions {
        flagSettings.applied(to: configFile?.settings.applied(to: defaults) ?? defaults)
    }

    /// Session options as the config file and the flags say, over the built-in defaults.
    public var sessionOptions: SessionOptions { sessionOptions(over: SessionOptions()) }
}
