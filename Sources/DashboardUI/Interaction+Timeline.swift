import DashboardModel
import OperationEvents

extension Interaction {
    /// In a replay, the keys that move in time ask the recording: `p` plays and pauses, `.` and
    /// `,` step one event, `[` `]` a second, `{` `}` to the previous or next mark (a warning, or
    /// a change of the selected operation). Nil when not in a replay (or not such a key).
    mutating func replayAction(_ action: UserAction, _ model: DashboardModel) -> [Effect]? {
        guard let timeline = state.timeline else { return nil }
        let request: PlaybackRequest
        switch action {
        case .togglePause: request = .setPlaying(!timeline.playing)
        case .stepForward: request = .step(events: 1)
        case .stepBack: request = .step(events: -1)
        case .seekBack: request = .seek(seconds: -1)
        case .seekForward: request = .seek(seconds: 1)
        case .previousMark: request = .seekToMark(forward: false, operation: state.selection)
        case .nextMark: request = .seekToMark(forward: true, operation: state.selection)
        default: return nil
        }
        return [.playback(request), .redraw]
    }

    /// The same keys on a live program: `,` goes back one event in the retained history while
    /// the display is paused (`.` forward, `p` back to live); the others need a recording.
    mutating func moveInTime(_ action: UserAction, _ model: DashboardModel) -> [Effect] {
        switch action {
        case .stepBack:
            guard state.paused else { return error("pause first (p), then , goes back one event at a time (p returns to live)") }
            return [.step(-1), .redraw]
        default:
            return error("[ ] { } move in a recording (opscope replay FILE); here, pause (p) and step with , and .")
        }
    }

    /// `:seek TIME`: to a moment of the replay (`12.5s`, `12.5`, `1:30`, `1m30s`, `800ms`), or
    /// by an offset (`+5s`, `-2s`). Nil for any other line.
    mutating func runTimelineCommand(_ line: String) -> [Effect]? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased(), verb == "seek" else { return nil }
        guard state.timeline != nil else { return error(":seek moves in a recording (opscope replay FILE)") }
        guard words.count == 2, let (seconds, relative) = Self.parseTime(words[1]) else {
            return error("usage: :seek TIME, e.g. :seek 12.5s, :seek 1:30, :seek +5s, :seek -2s")
        }
        return [.playback(relative ? .seek(seconds: seconds) : .seekTo(seconds: seconds)), .redraw]
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

    /// The replay's state, as the session learned it from the source (nil: not a replay). When
    /// the replay moved back in time, the clock that stamps status messages moves back with it.
    public mutating func updateTimeline(_ timeline: TimelineState?, now: UInt64) {
        let before = state.timeline
        state.timeline = timeline
        if let timeline { followPlayback(timeline, before: before) }
        guard timeline != nil, now < clock else { return }
        clock = now
        state.status?.time = now
        if let answer = playbackAnswer, answer.status.text == state.status?.text { playbackAnswer?.status.time = now }
    }

    /// The replay's answer to a key (`status` is where it left the replay): shown in the status
    /// line until playback moves on from the moment it names.
    public mutating func playbackAnswered(_ status: PlaybackStatus) {
        self.status(status.message)
        let timeline = TimelineState(status)
        if let timeline, let line = state.status { playbackAnswer = (line, timeline.position) } else { playbackAnswer = nil }
    }

    /// Playing on from where a key left the replay lets that answer go (it named a moment no
    /// longer shown); playing into the end says so, and what to do next.
    private mutating func followPlayback(_ timeline: TimelineState, before: TimelineState?) {
        if let answer = playbackAnswer {
            if state.status != answer.status {
                playbackAnswer = nil
            } else if timeline.playing, abs(timeline.position - answer.position) >= 1.5 {
                state.status = nil
                playbackAnswer = nil
            }
        }
        let atEnd = timeline.duration > 0 && timeline.position >= timeline.duration - 0.0005 && !timeline.playing
        if atEnd, before?.playing == true {
            status("end of the recording: R starts it over, [ goes back a second, :seek TIME to a moment")
        }
    }
}
