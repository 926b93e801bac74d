/// The JSON Lines coding of an OpScope event stream, shared by recordings and the attach protocol.
///
/// A stream is a header line, then one JSON object per line: events, keyframes and markers
/// (docs/EVENT-FORMAT.md). The same lines travel over sockets as length-prefixed frames
/// (`FrameEncoder`, `FrameDecoder`).
public enum EventCoding {
    /// The value of the header's `format` field: what makes a file an OpScope stream.
    public static let formatName = "opscope-events"

    /// The newest format version this code writes and reads. A reader refuses a stream whose
    /// version is greater (see docs/EVENT-FORMAT.md, "Versioning").
    public static let currentVersion = 1

    /// The longest line a reader accepts by default (256 MiB): a keyframe of a large retained
    /// history is the longest line a writer produces; anything longer is taken as corruption
    /// rather than read into memory.
    public static let defaultMaximumLineLength = 256 << 20
}
