internal import TOMLKit
#if canImport(Glibc)
import Glibc
#endif

/// The config file: where it is, and what it sets, read and checked. Every key is optional; an
/// unknown key, a value of the wrong type or one out of range is an error that names the file,
/// the line, the key and what is allowed, since a setting silently ignored is worse than none.
public struct ConfigFile: Sendable, Equatable {
    /// Where it was read from.
    public let path: String
    /// What it sets.
    public let settings: DashboardSettings

    /// Which file a command reads.
    public enum Choice: Sendable, Equatable {
        /// The standard file (`standardPath`), when there is one: a missing one is no error.
        case standard
        /// This file (`--config FILE`): it must exist.
        case file(String)
        /// None (`--no-config`).
        case none
    }

    /// Where the standard file is, as help and docs say it.
    public static let standardLocation = "$XDG_CONFIG_HOME/opscope/config.toml, else ~/.config/opscope/config.toml"

    /// The standard file in `environment`: under `XDG_CONFIG_HOME` when it is an absolute path
    /// (the XDG base directory rules ignore a relative one), else under `HOME`'s `.config`; nil
    /// when neither is set.
    public static func standardPath(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return joined(base, "opscope/config.toml") }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return joined(home, ".config/opscope/config.toml")
    }

    /// The file `choice` names, read and checked: nil for `.none`, and for `.standard` when
    /// there is no such file.
    public static func load(_ choice: Choice, environment: [String: String]) throws(ConfigError) -> ConfigFile? {
        switch choice {
        case .none: return nil
        case .file(let path): return try read(path: path, mustExist: true)
        case .standard:
            guard let path = standardPath(environment: environment) else { return nil }
            return try read(path: path, mustExist: false)
        }
    }

    /// The file at `path`, read and checked; nil when it does not exist and need not.
    private static func read(path: String, mustExist: Bool) throws(ConfigError) -> ConfigFile? {
        let bytes: [UInt8]
        do {
            bytes = try contents(of: path)
        } catch {
            if error.number == ENOENT, !mustExist { return nil }
            throw ConfigError(path: path, "cannot read it: \(String(cString: strerror(error.number)))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ConfigError(path: path, "not UTF-8 text") }
        return try ConfigFile(parsing: text, path: path)
    }

    /// `text` read as the file at `path`.
    public init(parsing text: String, path: String) throws(ConfigError) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let begin = error.source.begin
            throw ConfigError(path: path, line: begin.line, "not valid TOML (column \(begin.column)): \(error.description)")
        } catch {
            throw ConfigError(path: path, "not valid TOML: \(error)")
        }
        var settings = DashboardSettings()
        var problems: [(line: Int?, message: String)] = []
        for (name, node) in table {
            let line = KeyLocation.line(of: name, in: text)
            guard let key = ConfigKey.named(name) else {
                problems.append((line, Self.unknown(name)))
                continue
            }
            if let problem = key.read(node, &settings) {
                problems.append((line, "\(name) = \(TOMLText.text(of: node)): \(problem)"))
            }
        }
        // TOMLKit lists the keys sorted by name: the first problem in the file is the one told.
        problems.sort { ($0.line ?? .max) < ($1.line ?? .max) }
        if let first = problems.first {
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            throw ConfigError(path: path, line: first.line, first.message + more)
        }
        self.path = path
        self.settings = settings
    }

    /// The error for a key that is not one, with the one meant if it is a near miss.
    private static func unknown(_ name: String) -> String {
        let names = ConfigKey.all.map(\.name)
        let near = names.filter { KeyLocation.distance($0, name) <= 2 }.min { KeyLocation.distance($0, name) < KeyLocation.distance($1, name) }
        let guess = near.map { " (did you mean \($0)?)" } ?? ""
        return "unknown key \(KeyLocation.written(name))\(guess); the keys are \(names.joined(separator: ", "))"
    }

    /// The reason a file could not be read (`errno`).
    private struct ReadFailure: Error {
        let number: Int32
    }

    /// The bytes of the file at `path` (at most 1 MiB: more is no config file).
    private static func contents(of path: String) throws(ReadFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(number: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(number: errno)
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            if bytes.count > 1 << 20 { throw ReadFailure(number: EFBIG) }
        }
    }

    private static func joined(_ directory: String, _ path: String) -> String {
        directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
