import OperationEvents

/// Where a replay is, as its source last said (the session asks every frame): what the
/// timeline bar draws, and what tells the keys that they move in a recording.
public struct TimelineState: Sendable, Equatable {
    /// Seconds since the recording's start.
    public var position: Double
    /// The recording's length in seconds.
    public var duration: Double
    /// Playing, or paused.
    public var playing: Bool
    /// The pace (1 is real time).
    public var speed: Double
    /// Moments warnings appeared, in seconds.
    public var marks: [Double]

    /// A state.
    public init(position: Double, duration: Double, playing: Bool, speed: Double, marks: [Double] = []) {
        self.position = position
        self.duration = duration
        self.playing = playing
        self.speed = speed
        self.marks = marks
    }

    /// The state a source's status describes, if it describes a timeline.
    public init?(_ status: PlaybackStatus) {
        guard let position = status.position, let duration = status.duration else { return nil }
        self.init(position: position, duration: duration, playing: status.playing ?? false, speed: status.speed ?? 1,
                  marks: status.marks)
    }
}

extension TimelineState {
    /// What a `:seek` line asks for.
    enum SeekLine: Equatable {
        /// A move to a moment, or by an offset.
        case request(PlaybackRequest)
        /// The time is missing or not one.
        case unreadable
    }

    /// `:seek TIME`: to a moment of the replay (`12.5s`, `12.5`, `1:30`, `1m30s`, `800ms`), or
    /// by an offset (`+5s`, `-2s`). Nil for any other line.
    static func seekLine(_ line: String) -> SeekLine? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased(), verb == "seek" else { return nil }
        guard words.count == 2, let (seconds, relative) = parseTime(words[1]) else { return .unreadable }
        return .request(relative ? .seek(seconds: seconds) : .seekTo(seconds: seconds))
    }

    /// Seconds from `12.5s`, `12.5`, `1:30`, `1m30s`, `800ms`; a leading `+` or `-` makes it an offset.
    static func parseTime(_ text: String) -> (seconds: Double, relative: Bool)? {
        var body = Substring(text.lowercased())
        var sign = 1.0
        var relative = false
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            relative = true
            body = body.dropFirst()
        }
        var seconds: Double?
        if body.contains(":") {
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let minutes = Double(parts[0]), let rest = Double(parts[1]), minutes >= 0, rest >= 0, rest < 60
            else { return nil }
            seconds = minutes * 60 + rest
        } else if body.hasSuffix("ms") {
            seconds = Double(body.dropLast(2)).map { $0 / 1_000 }
        } else if let m = body.firstIndex(of: "m") {
            guard let minutes = Double(body[..<m]) else { return nil }
            let rest = body[body.index(after: m)...]
            let secondsPart = rest.isEmpty ? 0 : Double(rest.hasSuffix("s") ? rest.dropLast() : rest)
            seconds = secondsPart.map { minutes * 60 + $0 }
        } else {
            seconds = Double(body.hasSuffix("s") ? body.dropLast() : body)
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 1e9 else { return nil }
        return (sign * seconds, relative)
    }
}
