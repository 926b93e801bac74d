#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line found by `LineBuffer`: where its bytes are in the buffer, and where it is in the input.
struct FoundLine {
    var range: Range<Int>
    var position: StreamPosition
    /// False for a last line that ends without a line break.
    var complete: Bool
}

/// Splits a file (read in chunks with `pread`) or a byte array into lines.
///
/// Memory stays bounded by the chunk size plus the longest line, and a line over the limit is an
/// error as soon as that many bytes have been seen without a line break, so a file without line
/// breaks is never read whole into memory.
struct LineBuffer {
    /// An open file, or nil when the whole input is already in `buffer`.
    private let descriptor: Int32?
    /// The file path or name, for errors.
    let source: String
    private let chunkSize: Int
    let maximumLineLength: Int
    private var buffer: [UInt8]
    /// The input offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// Bytes from `start` up to here hold no line break (so they are not searched twice).
    private var searched = 0
    private var endOfInput: Bool
    /// What `pread` reads into, allocated once.
    private var scratch: [UInt8] = []
    /// The position of the line at `start`.
    private(set) var next = StreamPosition(offset: 0, line: 1)

    init(descriptor: Int32, source: String, maximumLineLength: Int, chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.source = source
        self.maximumLineLength = maximumLineLength
        self.chunkSize = chunkSize
        buffer = []
        endOfInput = false
    }

    init(bytes: [UInt8], source: String, maximumLineLength: Int) {
        descriptor = nil
        self.source = source
        self.maximumLineLength = maximumLineLength
        chunkSize = 0
        buffer = bytes
        endOfInput = true
    }

    /// The next line, or nil at the end of the input. Throws `lineTooLong` or `unreadable` errors.
    mutating func nextLine() throws(EventStreamError) -> FoundLine? {
        while true {
            if let newline = findNewline() {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                return try take(start ..< end, through: newline + 1, complete: true)
            }
            if buffer.count - start > maximumLineLength { throw failure(.lineTooLong(limit: maximumLineLength)) }
            if endOfInput {
                guard start < buffer.count else { return nil }
                return try take(start ..< buffer.count, through: buffer.count, complete: false)
            }
            try readChunk()
        }
    }

    /// Calls `body` with the bytes of a line just returned by `nextLine`.
    func withBytes<Result>(of line: FoundLine, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[line.range])) }
    }

    /// Continues reading at `position` (the start of a line found earlier).
    mutating func seek(to position: StreamPosition) {
        if descriptor == nil {
            start = min(max(position.offset, 0), buffer.count)
        } else if position.offset >= bufferOffset, position.offset <= bufferOffset + buffer.count {
            start = position.offset - bufferOffset
        } else {
            buffer.removeAll(keepingCapacity: true)
            bufferOffset = position.offset
            start = 0
            endOfInput = descriptor == nil
        }
        searched = start
        next = position
    }

    private func failure(_ kind: EventStreamError.Kind) -> EventStreamError {
        EventStreamError(source: source, line: next.line, offset: next.offset, kind: kind)
    }

    private mutating func take(_ range: Range<Int>, through end: Int, complete: Bool) throws(EventStreamError) -> FoundLine {
        guard range.count <= maximumLineLength else { throw failure(.lineTooLong(limit: maximumLineLength)) }
        let line = FoundLine(range: range, position: next, complete: complete)
        next = StreamPosition(offset: bufferOffset + end, line: next.line + 1)
        start = end
        searched = end
        return line
    }

    private mutating func findNewline() -> Int? {
        guard searched < buffer.count else { return nil }
        let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
            let base = UnsafeRawPointer(bytes.baseAddress!)
            guard let hit = memchr(base + searched, Int32(UInt8(ascii: "\n")), bytes.count - searched) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        searched = found ?? buffer.count
        return found
    }

    /// Drops the lines already taken and appends the next chunk of the file.
    private mutating func readChunk() throws(EventStreamError) {
        guard let descriptor else {
            endOfInput = true
            return
        }
        if start > 0 {
            buffer.removeSubrange(0 ..< start)
            bufferOffset += start
            searched -= start
            start = 0
        }
        let kept = buffer.count
        if scratch.count != chunkSize { scratch = Array(repeating: 0, count: chunkSize) }
        let offset = bufferOffset + kept
        var count = 0
        while true {
            count = scratch.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress!, chunkSize, off_t(offset))
            }
            if count >= 0 || errno != EINTR { break }
        }
        if count < 0 { throw failure(.unreadable(String(cString: strerror(errno)))) }
        buffer.append(contentsOf: scratch[0 ..< count])
        if count == 0 { endOfInput = true }
    }
}
