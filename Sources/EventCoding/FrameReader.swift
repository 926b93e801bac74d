/// Reads a stream received as frames: cuts the bytes into frames and decodes each as the next
/// line, the header first. Errors name the connection and the frame number.
///
/// Package-only: the product reads frames with `FrameDecoder` itself (the agent and the remote
/// link); the tests read whole framed streams through this.
package struct FrameReader: Sendable {
    private var frames: FrameDecoder
    private var parser: StreamParser

    /// A reader for one connection.
    package init(source: String, maximumFrameSize: Int = FrameDecoder.defaultMaximumFrameSize) {
        frames = FrameDecoder(source: source, maximumFrameSize: maximumFrameSize)
        parser = StreamParser(source: source)
    }

    /// The stream's header, once its first frame was read.
    package var header: StreamHeader? { parser.header }

    /// Adds bytes received from the connection.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        frames.append(bytes)
    }

    /// The next line (the header first), or nil until more bytes arrive. The record's position
    /// is the frame's number and stream offset.
    package mutating func next() throws(EventStreamError) -> StreamRecord? {
        let position = frames.nextPosition
        guard let payload = try frames.nextFrame() else { return nil }
        let line = try parser.parse(payload, at: position)
        return StreamRecord(line: line, position: position, length: payload.count)
    }

    /// Says whether the connection may end here (see `FrameDecoder.finish()`); a connection that
    /// ends before the header is `empty`.
    package func finish() throws(EventStreamError) {
        try frames.finish()
        if parser.header == nil { throw EventStreamError(source: parser.source, kind: .empty) }
    }
}
