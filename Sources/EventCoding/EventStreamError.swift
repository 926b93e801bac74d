/// Why a stream (a file, bytes, a connection) cannot be read, naming the source and the line.
///
/// `description` is one line for the command line: `run.jsonl:12: corrupt line: "time" must not
/// be negative`.
public struct EventStreamError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// There is no file at the path.
        case missingFile
        /// The file exists but cannot be opened or read (the system's reason).
        case unreadable(String)
        /// The source holds no lines at all.
        case empty
        /// The first line is not an OpScope stream header (why).
        case notAnOpScopeStream(String)
        /// The header names a format version newer than this reader's.
        case newerVersion(Int)
        /// A line is broken (what is wrong with it).
        case corruptLine(String)
        /// A line is longer than the reader's limit: taken as corruption rather than read into memory.
        case lineTooLong(limit: Int)
        /// A frame announces more bytes than the receiver's limit (read no further: the framing is lost).
        case frameTooLarge(length: Int, limit: Int)
        /// The input ended inside a frame: `received` of its `expected` bytes (length prefix included).
        case truncatedFrame(expected: Int, received: Int)
    }

    /// The file path, or the name of the bytes or the connection.
    public var source: String
    /// The 1-based line (for frames: the frame number), when the problem is in one.
    public var line: Int?
    /// The byte offset where that line starts.
    public var offset: Int?
    /// What went wrong.
    public var kind: Kind

    /// Creates an error.
    public init(source: String, line: Int? = nil, offset: Int? = nil, kind: Kind) {
        self.source = source
        self.line = line
        self.offset = offset
        self.kind = kind
    }

    /// `source:line: message`, one line.
    public var description: String {
        let place = source + (line.map { ":\($0)" } ?? "")
        switch kind {
        case .missingFile: return "\(place): no such file"
        case .unreadable(let reason): return "\(place): cannot read: \(reason)"
        case .empty: return "\(place): empty (an OpScope event stream starts with a header line)"
        case .notAnOpScopeStream(let reason): return "\(place): not an OpScope event stream: \(reason)"
        case .newerVersion(let version):
            return "\(place): written in format version \(version), but this OpScope reads versions up to "
                + "\(EventCoding.currentVersion): a newer OpScope is needed to read it"
        case .corruptLine(let reason): return "\(place): corrupt line: \(reason)"
        case .lineTooLong(let limit): return "\(place): line longer than \(limit) bytes (corrupt, or not an event stream)"
        case .frameTooLarge(let length, let limit):
            return "\(place): frame of \(length) bytes is larger than the limit of \(limit) (corrupt, or not an event stream)"
        case .truncatedFrame(let expected, let received):
            return "\(place): the input ends inside a frame (\(received) of its \(expected) bytes)"
        }
    }
}

/// Where a line starts: enough to come back to it (a replay indexes keyframes by position).
public struct StreamPosition: Sendable, Hashable, Comparable {
    /// The byte offset of the line's first byte.
    public var offset: Int
    /// The 1-based line number.
    public var line: Int

    /// Creates a position.
    public init(offset: Int, line: Int) {
        self.offset = offset
        self.line = line
    }

    /// Ordered by offset.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}

/// One line read from a stream, with where it was.
public struct StreamRecord: Sendable, Equatable {
    /// The decoded line.
    public var line: StreamLine
    /// Where it starts.
    public var position: StreamPosition
    /// Its length in bytes, without the line break.
    public var length: Int

    /// Creates a record.
    public init(line: StreamLine, position: StreamPosition, length: Int) {
        self.line = line
        self.position = position
        self.length = length
    }
}

/// The last line of a file ends without a line break and does not decode: the writer stopped in
/// the middle of it (killed, or still writing). Everything before it was read; it is ignored.
public struct TruncatedLine: Sendable, Equatable, CustomStringConvertible {
    /// The file or bytes.
    public var source: String
    /// Where the incomplete line starts.
    public var position: StreamPosition
    /// How many bytes of it there are.
    public var length: Int

    /// Creates a notice.
    public init(source: String, position: StreamPosition, length: Int) {
        self.source = source
        self.position = position
        self.length = length
    }

    /// `source:line: notice: ...`, one line.
    public var description: String {
        "\(source):\(position.line): notice: the last line is incomplete (\(length) bytes, the writer stopped in it); "
            + "read up to the line before"
    }
}
