#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a stream from a file or from bytes: the header, then events, keyframes and markers, each
/// with its line number and byte offset.
///
/// Opening checks the header, so a missing, empty, foreign or newer-version file fails at once
/// with an error naming it. A corrupt line is an error naming its line; a last line cut short
/// (the writer was killed in the middle of it) is not: reading stops before it and `truncation`
/// says so. Blank lines are skipped. A file is read in chunks, so memory stays bounded by the
/// longest line.
public final class EventStreamReader {
    /// The file path, or the name given to the bytes.
    public let source: String
    /// The stream's header (its first line).
    public let header: StreamHeader
    /// Set when reading reached a last line that is incomplete.
    public private(set) var truncation: TruncatedLine?

    private var lines: LineBuffer
    private var parser: StreamParser
    private let descriptor: Int32?
    /// The header's record, handed out by the first `next()`.
    private var pendingHeader: StreamRecord?

    /// Opens the file at `path` and reads its header.
    public convenience init(path: String, maximumLineLength: Int = EventCoding.defaultMaximumLineLength)
        throws(EventStreamError)
    {
        try self.init(path: path, maximumLineLength: maximumLineLength, chunkSize: 1 << 20)
    }

    /// Opens a file reading `chunkSize` bytes at a time (tests make lines straddle chunks with tiny ones).
    package convenience init(path: String, maximumLineLength: Int, chunkSize: Int) throws(EventStreamError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw EventStreamError(
                source: path, kind: code == ENOENT ? .missingFile : .unreadable(String(cString: strerror(code))))
        }
        let lines = LineBuffer(
            descriptor: descriptor, source: path, maximumLineLength: maximumLineLength, chunkSize: max(1, chunkSize))
        do {
            try self.init(source: path, lines: lines, descriptor: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Reads a stream held in memory; `name` stands for it in errors.
    public convenience init(bytes: [UInt8], name: String, maximumLineLength: Int = EventCoding.defaultMaximumLineLength)
        throws(EventStreamError)
    {
        try self.init(source: name, lines: LineBuffer(bytes: bytes, source: name, maximumLineLength: maximumLineLength),
                      descriptor: nil)
    }

    private init(source: String, lines: LineBuffer, descriptor: Int32?) throws(EventStreamError) {
        self.source = source
        self.lines = lines
        self.descriptor = descriptor
        parser = StreamParser(source: source)
        guard let found = try Self.nextNonBlank(&self.lines) else {
            throw EventStreamError(source: source, kind: .empty)
        }
        let line = try Self.parse(found, in: self.lines, with: &parser)
        guard let header = parser.header else { preconditionFailure("the parser accepts a header first") }
        self.header = header
        pendingHeader = StreamRecord(line: line, position: found.position, length: found.range.count)
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// The next line (the header first), or nil at the end of the stream.
    public func next() throws(EventStreamError) -> StreamRecord? {
        if let record = pendingHeader {
            pendingHeader = nil
            return record
        }
        guard truncation == nil, let found = try Self.nextNonBlank(&lines) else { return nil }
        do {
            let line = try Self.parse(found, in: lines, with: &parser)
            return StreamRecord(line: line, position: found.position, length: found.range.count)
        } catch {
            guard !found.complete else { throw error }
            truncation = TruncatedLine(source: source, position: found.position, length: found.range.count)
            return nil
        }
    }

    /// Every remaining line.
    public func readAll() throws(EventStreamError) -> [StreamRecord] {
        var records: [StreamRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }

    /// Continues reading at `position`, the position of a record read earlier from this stream
    /// (a keyframe found by an index, to seek a replay). The header is not handed out again.
    public func seek(to position: StreamPosition) {
        pendingHeader = nil
        truncation = nil
        lines.seek(to: position)
    }

    private static func nextNonBlank(_ lines: inout LineBuffer) throws(EventStreamError) -> FoundLine? {
        while let found = try lines.nextLine() {
            let blank = lines.withBytes(of: found) { bytes in
                bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            }
            if !blank { return found }
        }
        return nil
    }

    private static func parse(_ found: FoundLine, in lines: LineBuffer, with parser: inout StreamParser)
        throws(EventStreamError) -> StreamLine
    {
        let result = lines.withBytes(of: found) { bytes in
            Result { () throws(EventStreamError) in try parser.parse(bytes, at: found.position) }
        }
        return try result.get()
    }
}
