/// A config file that cannot be used, as one line: the file, the line where TOMLKit or the key
/// says, and what is wrong with what is allowed (`config.toml:3: view = "graf": expected one of
/// overview, …`). A command refuses it before it touches the terminal.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Its line (from 1), when known.
    public let line: Int?
    /// What is wrong.
    public let message: String

    /// An error in the file at `path`.
    public init(path: String, line: Int? = nil, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `PATH:LINE: MESSAGE`, as compilers write it.
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
