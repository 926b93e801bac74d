/// Something wrong with a recording that does not stop it from being read: a gap in the event
/// numbers that no `dropped` marker announces, a line repeated, numbers or times that go back, a
/// missing `end` line. The reader says what it did about it; `description` names the line.
public struct RecordingNotice: Sendable, Equatable, CustomStringConvertible {
    /// The file or bytes.
    public var source: String
    /// The line it is about (1-based).
    public var line: Int
    /// What was found and what the reader did about it.
    public var message: String

    /// `source:line: notice: ...`, one line (as for a last line cut short).
    public var description: String { "\(source):\(line): notice: \(message)" }
}
