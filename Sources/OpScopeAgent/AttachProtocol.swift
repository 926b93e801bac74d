import EventCoding
import Foundation
import OperationEvents

/// The attach protocol spoken over the agent's socket (docs/PROTOCOL.md): length-prefixed frames
/// (EventCoding's `FrameEncoder`), each one JSON object whose `kind` says what it is. The stream
/// itself is EventCoding's lines (header, keyframe, event, dropped, end); the messages below are
/// the handshake, the commands and their replies, and the clock.
public enum AttachProtocol {
    /// The protocol's name, in both greetings.
    public static let name = "opscope-attach"
    /// The protocol version this code speaks. Both sides name theirs; a difference is refused
    /// with one message naming both.
    public static let version = 1
    /// The largest frame an agent accepts from a console (commands are small).
    public static let maximumClientFrame = 1 << 20
    /// The largest frame a console accepts from an agent (a keyframe of a large history).
    public static let maximumAgentFrame = FrameDecoder.defaultMaximumFrameSize
}

/// What a console wants from a connection.
public enum AttachMode: String, Codable, Sendable {
    /// The event stream (history first, then live) and commands.
    case stream
    /// Commands only, no stream.
    case commands
    /// The greeting with the program's queues, then the agent closes (for `opscope attach`'s list).
    case info
}

/// The console's greeting, its first frame.
struct HelloMessage: Codable, Sendable {
    var kind = "hello"
    var `protocol`: String
    var version: Int
    /// The console's program and version, for the agent's diagnostics.
    var client: String
    var mode: AttachMode
}

/// The agent's answer to a greeting: who it is, what it allows.
public struct WelcomeMessage: Codable, Sendable, Equatable {
    var kind = "welcome"
    var `protocol`: String
    /// The agent's protocol version.
    public var version: Int
    /// The observed program's name.
    public var program: String
    /// Its process id.
    public var processID: Int32
    /// When the process started (wall clock).
    public var startedAt: String
    /// The source's clock when the greeting was written (nanoseconds).
    public var now: UInt64
    /// Nil when commands are accepted, else why not.
    public var commandsRefused: String?
    /// The work templates the program registered (for `a`).
    public var templates: [WorkTemplateInfo]
    /// The names of the program's live queues (in `info` mode only).
    public var queues: [String]?
}

/// The agent will not serve this connection; it closes after this frame.
struct RefusedMessage: Codable, Sendable {
    var kind = "refused"
    var reason: String
    /// Set when the refusal is a version mismatch: the agent's version.
    var version: Int?
}

/// A command from the console, answered by a `reply` with the same id.
struct CommandMessage: Codable, Sendable {
    var kind = "command"
    var id: UInt64
    var command: MonitorCommand
}

/// The agent's answer to one command: done, with the receipt, or refused, with the reason.
struct ReplyMessage: Codable, Sendable {
    var kind = "reply"
    var id: UInt64
    var done: CommandReceipt?
    var refused: CommandError?

    var result: Result<CommandReceipt, CommandError> {
        if let done { return .success(done) }
        return .failure(refused ?? CommandError(.invalidArgument, "the program's reply said nothing"))
    }
}

/// The console lost events (or found a gap): the agent's next batch starts from a keyframe.
struct ResyncMessage: Codable, Sendable {
    var kind = "resync"
}

/// The agent's clock, sent when nothing else was sent for a while, so that a console's
/// durations move while the program is quiet.
struct ClockMessage: Codable, Sendable {
    var kind = "clock"
    var time: UInt64
}

/// Encoding and decoding of the protocol's own messages (the stream's lines are EventCoding's).
enum Messages {
    static func frame(_ message: some Encodable) -> [UInt8] {
        var bytes: [UInt8] = []
        append(message, to: &bytes)
        return bytes
    }

    static func append(_ message: some Encodable, to bytes: inout [UInt8]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The messages are plain values: encoding them cannot fail.
        let payload = (try? encoder.encode(message)).map(Array.init) ?? Array(#"{"kind":"invalid"}"#.utf8)
        let length = payload.count
        bytes.append(contentsOf: [UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
                                  UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)])
        bytes.append(contentsOf: payload)
    }

    static func decode<Message: Decodable>(_ type: Message.Type, _ payload: ArraySlice<UInt8>) -> Message? {
        try? JSONDecoder().decode(Message.self, from: Data(payload))
    }

    /// The `kind` of a frame: EventCoding's line decoder reads it (and fully decodes the stream's
    /// own lines); the protocol's messages come back as `.unknown(kind:)`.
    static func line(_ payload: ArraySlice<UInt8>) throws(LineDecodingError) -> StreamLine {
        try StreamLine(decoding: payload)
    }
}
