import OperationEvents

/// The socket form of a stream: each line as a frame, a 4-byte big-endian length followed by
/// that many bytes of the line (no line break).
///
/// A length prefix rather than line breaks lets the receiver know how much memory a frame needs
/// before reading it, and refuse a frame over its limit at once.
public enum FrameEncoder {
    /// Bytes of the length prefix.
    public static let prefixLength = 4

    /// Appends the frame of `line` to `bytes`.
    public static func append(_ line: StreamLine, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        line.encode(into: &bytes)
        writeLength(from: start, in: &bytes)
    }

    /// Appends the frame of one event to `bytes` (the sender's hot path).
    public static func append(_ event: MonitorEvent, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        StreamLine.encode(event, into: &bytes)
        writeLength(from: start, in: &bytes)
    }

    /// The frame of `line`.
    public static func frame(_ line: StreamLine) -> [UInt8] {
        var bytes: [UInt8] = []
        append(line, to: &bytes)
        return bytes
    }

    private static func writeLength(from start: Int, in bytes: inout [UInt8]) {
        let length = bytes.count - start - prefixLength
        // A line is at most a few hundred MiB (a keyframe); 4 GiB would be a broken writer.
        precondition(length <= Int(UInt32.max), "a frame of \(length) bytes does not fit its length prefix")
        bytes[start] = UInt8(truncatingIfNeeded: length >> 24)
        bytes[start + 1] = UInt8(truncatingIfNeeded: length >> 16)
        bytes[start + 2] = UInt8(truncatingIfNeeded: length >> 8)
        bytes[start + 3] = UInt8(truncatingIfNeeded: length)
    }
}

/// Cuts a byte stream received in pieces of any size back into frames.
///
/// After an error the framing is lost (nothing says where the next frame starts), so every later
/// call throws the same error; the connection should be closed.
public struct FrameDecoder: Sendable {
    /// The default limit on one frame (64 MiB): a keyframe of a large history fits; a length
    /// beyond it from a broken or hostile peer is refused before any memory is set aside for it.
    public static let defaultMaximumFrameSize = 64 << 20

    /// The connection's name, for errors.
    public let source: String
    /// The largest frame accepted (bytes after the prefix).
    public let maximumFrameSize: Int
    /// Frames cut so far.
    public private(set) var framesDecoded = 0

    private var pending: [UInt8] = []
    /// Where unread bytes start in `pending`.
    private var readIndex = 0
    /// The stream offset of `pending[0]`.
    private var pendingOffset = 0
    private var failure: EventStreamError?

    /// A decoder for one connection.
    public init(source: String, maximumFrameSize: Int = defaultMaximumFrameSize) {
        self.source = source
        self.maximumFrameSize = maximumFrameSize
    }

    /// Adds bytes received from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if readIndex > 0, readIndex >= pending.count / 2 {
            // Keep the buffer from growing: drop what was read once it is at least half of it.
            pending.removeSubrange(0 ..< readIndex)
            pendingOffset += readIndex
            readIndex = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next complete frame's payload (one line), or nil until more bytes arrive.
    public mutating func nextFrame() throws(EventStreamError) -> ArraySlice<UInt8>? {
        if let failure { throw failure }
        let available = pending.count - readIndex
        guard available >= FrameEncoder.prefixLength else { return nil }
        var length = 0
        for index in readIndex ..< readIndex + FrameEncoder.prefixLength {
            length = length << 8 | Int(pending[index])
        }
        guard length <= maximumFrameSize else {
            return try fail(.frameTooLarge(length: length, limit: maximumFrameSize))
        }
        guard length > 0 else { return try fail(.corruptLine("empty frame (a frame holds one line)")) }
        guard available >= FrameEncoder.prefixLength + length else { return nil }
        let start = readIndex + FrameEncoder.prefixLength
        readIndex = start + length
        framesDecoded += 1
        return pending[start ..< readIndex]
    }

    /// Where the next frame starts: its number (1-based) and stream offset.
    public var nextPosition: StreamPosition {
        StreamPosition(offset: pendingOffset + readIndex, line: framesDecoded + 1)
    }

    /// Says whether the input may end here: it throws `truncatedFrame` when bytes of an
    /// incomplete frame are pending.
    public func finish() throws(EventStreamError) {
        if let failure { throw failure }
        let available = pending.count - readIndex
        guard available > 0 else { return }
        var expected = FrameEncoder.prefixLength
        if available >= FrameEncoder.prefixLength {
            var length = 0
            for index in readIndex ..< readIndex + FrameEncoder.prefixLength {
                length = length << 8 | Int(pending[index])
            }
            expected += length
        }
        throw EventStreamError(source: source, line: nextPosition.line, offset: nextPosition.offset,
                               kind: .truncatedFrame(expected: expected, received: available))
    }

    private mutating func fail(_ kind: EventStreamError.Kind) throws(EventStreamError) -> ArraySlice<UInt8>? {
        let error = EventStreamError(source: source, line: nextPosition.line, offset: nextPosition.offset, kind: kind)
        failure = error
        throw error
    }
}
