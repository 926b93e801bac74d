import DashboardModel
import EventCoding
import Foundation
import OperationEvents

/// A recording played as an event source: the dashboard runs on it as on a live program, with
/// the recording's own clock (`now()` is the moment shown), and moves in it with playback
/// requests: play and pause, speed, one event forward or back, seconds forward or back, to a
/// time, to the next or previous mark. Commands to the program are refused: it is not running.
///
/// A jump is delivered as a fresh start (`EventBatch.start = .keyframe(state)`), so a session
/// needs nothing special; moving forward a little delivers the events in between instead, so
/// that narration tells them.
public final class ReplaySource: EventSource, PlaybackControllable, @unchecked Sendable {
    // Safety: every mutable field is guarded by `lock`.
    /// The recording played.
    public let recording: Recording
    private let clock: @Sendable () -> UInt64
    private let lock = NSLock()
    private var playhead: Playhead
    /// The speeds `+` and `-` step through.
    public static let speeds: [Double] = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
    /// A jump forward of more events than this is delivered as a keyframe, not event by event.
    static let eventsBeforeKeyframe = 4_096
    private let markSeconds: [Double]
    /// Positions where a keyframe replaced the stream (after lost events): a subscription
    /// playing through one gets that keyframe there.
    private let resets: [Int]

    /// Where the replay is and how it moves.
    struct Playhead {
        /// Events shown (applied before the moment on screen).
        var position = 0
        /// The moment shown (recording clock); while playing, as of `anchor`.
        var time: UInt64
        /// The real clock when `time` was last brought up to date.
        var anchor: UInt64
        var playing: Bool
        var speed: Double
        /// Changed by every jump: subscriptions start afresh from a keyframe.
        var generation = 0
        /// The last problem reading the file, for the status.
        var problem: String?
    }

    /// A replay of `recording`, playing at `speed` (or paused), on `clock` (real nanoseconds,
    /// monotonic; tests pass a manual one).
    public init(recording: Recording, speed: Double = 1, playing: Bool = true,
                clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.recording = recording
        self.clock = clock
        let speed = speed.isFinite && speed > 0 ? min(speed, 1_000) : 1
        playhead = Playhead(time: recording.origin, anchor: clock(), playing: playing && recording.endTime > recording.origin,
                            speed: speed)
        markSeconds = recording.marks.map { recording.seconds($0.time) }
        resets = recording.saved.entries.filter { $0.isReset && $0.position > 0 }.map(\.position)
    }

    /// A recording: commands are refused.
    public var sourceInfo: SourceInfo {
        SourceInfo(kind: .recording, program: recording.header.program,
                   commandsRefused: "a recording takes no commands: the program is not running")
    }

    /// Refused, with the reason.
    public func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> {
        .failure(CommandError(.unsupported, "this is a recording (\(recording.path)): the program is not running, so commands "
                                  + "cannot reach it (p plays and pauses, [ ] seek, , . step)"))
    }

    /// None: a recording cannot add work.
    public var workTemplates: [WorkTemplateInfo] { [] }

    /// The moment shown (recording clock, ns); it moves while the replay plays.
    public func now() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        update()
        return playhead.time
    }

    /// Opens a subscription: a keyframe of the moment shown, then the events as the replay plays.
    public func subscribe(_ request: SubscriptionRequest) -> any EventSubscription {
        ReplaySubscription(source: self, consumer: request.consumer)
    }

    // MARK: Playback

    /// Carries out a playback request.
    public func playback(_ request: PlaybackRequest) -> Result<PlaybackStatus, CommandError> {
        lock.lock()
        defer { lock.unlock() }
        update()
        let message: String
        switch request {
        case .status:
            message = playhead.problem ?? summary()
        case .setPlaying(let play):
            if play, playhead.position >= recording.eventCount, playhead.time >= recording.endTime {
                jump(to: 0, time: recording.origin)
            }
            playhead.playing = play && recording.endTime > recording.origin
            message = playhead.playing ? "playing ×\(Self.speedText(playhead.speed))" : "paused at \(moment())"
        case .faster, .slower:
            // The next step of the list from wherever the speed is (`--speed 1.5` goes to 2 or 1).
            let next = request == .faster ? Self.speeds.first { $0 > playhead.speed } : Self.speeds.last { $0 < playhead.speed }
            guard let next else {
                return .failure(CommandError(.invalidArgument, "already at ×\(Self.speedText(playhead.speed)), the "
                                                 + (request == .faster ? "fastest" : "slowest") + " speed"))
            }
            playhead.speed = next
            message = "speed ×\(Self.speedText(playhead.speed))"
        case .restart:
            jump(to: 0, time: recording.origin)
            playhead.playing = recording.endTime > recording.origin
            message = "from the start"
        case .seek(let seconds):
            guard seconds.isFinite else { return .failure(CommandError(.invalidArgument, "seek by a number of seconds")) }
            let shown = playhead.time
            let offset = UInt64(min(abs(seconds), 1e9) * 1e9)
            let past = seconds >= 0 ? offset > recording.endTime - min(shown, recording.endTime) : offset > shown - recording.origin
            let time = seconds >= 0 ? min(recording.endTime, shown + min(offset, UInt64.max - shown))
                : (shown - recording.origin > offset ? shown - offset : recording.origin)
            move(toTime: time)
            message = past ? beyond(forward: seconds >= 0) : "at \(moment())"
        case .seekTo(let seconds):
            guard seconds.isFinite, seconds >= 0 else {
                return .failure(CommandError(.invalidArgument, "a time in the recording is 0 or more seconds"))
            }
            // Past the end goes to the end and says so, as a move by an offset past it does.
            let beyondEnd = seconds > recording.duration + 0.0005
            move(toTime: beyondEnd ? recording.endTime : recording.time(seconds: seconds))
            message = beyondEnd ? beyond(forward: true) : "at \(moment())"
        case .step(let count):
            playhead.playing = false
            let target = min(max(0, playhead.position + count), recording.eventCount)
            if target == playhead.position {
                return .failure(CommandError(.invalidArgument, count >= 0 ? "at the end of the recording" : "at the start of the recording"))
            }
            move(toPosition: target, time: recording.time(at: target))
            message = stepSummary(count)
        case .seekToMark(let forward, let operation):
            guard let mark = RecordingMarks.find(in: recording, from: playhead.position, forward: forward, operation: operation) else {
                let what = operation.map { "no \(forward ? "later" : "earlier") warning or change of \($0)" }
                    ?? "no \(forward ? "later" : "earlier") warning (select an operation to visit its changes too)"
                return .failure(CommandError(.invalidArgument, what))
            }
            playhead.playing = false
            move(toPosition: mark.position, time: recording.time(at: mark.position))
            message = "\(moment()): \(mark.text)"
        }
        return .success(status(message))
    }

    /// Brings the moment shown up to date while playing (under the lock).
    private func update() {
        let real = clock()
        defer { playhead.anchor = real }
        guard playhead.playing, real > playhead.anchor else { return }
        let elapsed = Double(real - playhead.anchor) * playhead.speed
        let left = Double(recording.endTime - min(playhead.time, recording.endTime))
        if elapsed >= left {
            playhead.time = recording.endTime
            playhead.position = recording.eventCount
            playhead.playing = false
        } else {
            playhead.time += UInt64(elapsed)
            playhead.position = max(playhead.position, recording.position(atTime: playhead.time))
        }
    }

    private func move(toTime time: UInt64) {
        move(toPosition: recording.position(atTime: time), time: time)
    }

    /// Moves the playhead; a jump back, or far forward, starts subscriptions afresh.
    private func move(toPosition position: Int, time: UInt64) {
        if position < playhead.position || position - playhead.position > Self.eventsBeforeKeyframe {
            playhead.generation += 1
        }
        playhead.position = position
        playhead.time = time
    }

    private func jump(to position: Int, time: UInt64) {
        playhead.position = position
        playhead.time = time
        playhead.generation += 1
    }

    private func status(_ message: String) -> PlaybackStatus {
        PlaybackStatus(message: message, speed: playhead.speed, position: recording.seconds(playhead.time),
                       duration: recording.duration, playing: playhead.playing, marks: markSeconds)
    }

    /// What a seek past either end of the recording says: where it went, and why there.
    private func beyond(forward: Bool) -> String {
        forward ? "at the end, \(moment()): the recording is \(Self.secondsText(recording.duration)) long"
            : "at the start, \(moment())"
    }

    private func moment() -> String {
        "\(Self.secondsText(recording.seconds(playhead.time))) (event \(playhead.position) of \(recording.eventCount))"
    }

    private func summary() -> String {
        if playhead.playing { return "playing ×\(Self.speedText(playhead.speed)) at \(moment())" }
        if playhead.position >= recording.eventCount, playhead.time >= recording.endTime { return "end of the recording: R plays it again" }
        return "paused at \(moment())"
    }

    private func stepSummary(_ count: Int) -> String {
        let moved = abs(count) == 1 ? "one event" : "\(abs(count)) events"
        return "\(count > 0 ? "forward" : "back") \(moved): \(moment())"
    }

    /// `2`, `0.5`, `0.25`.
    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(speed)
    }

    /// `12.5 s`.
    static func secondsText(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    // MARK: Subscriptions

    /// The next batch for a subscription (under the lock).
    fileprivate func batch(for subscription: inout ReplaySubscription.Position, limit: Int) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        update()
        do throws(EventStreamError) {
            if subscription.generation != playhead.generation {
                return try start(&subscription, at: playhead.position)
            }
            var target = min(playhead.position, subscription.delivered + max(0, limit))
            if let reset = resets.first(where: { $0 > subscription.keyframeAt && $0 <= target }) {
                if subscription.delivered == reset { return try start(&subscription, at: reset) }
                target = min(target, reset)
            }
            guard target > subscription.delivered else { return EventBatch(events: [], droppedTotal: 0) }
            let events = try recording.events(subscription.delivered..<target)
            subscription.delivered += events.count
            return EventBatch(events: events, droppedTotal: 0)
        } catch {
            playhead.problem = "\(error)"
            playhead.playing = false
            return EventBatch(events: [], droppedTotal: 0)
        }
    }

    private func start(_ subscription: inout ReplaySubscription.Position, at position: Int) throws(EventStreamError) -> EventBatch {
        let state = try recording.state(at: position)
        subscription = ReplaySubscription.Position(delivered: position, keyframeAt: position, generation: playhead.generation)
        return EventBatch(start: .keyframe(state), events: [], droppedTotal: 0)
    }
}

/// One consumer of a replay: where it is in the recording.
final class ReplaySubscription: EventSubscription, @unchecked Sendable {
    // Safety: `position` is guarded by `lock`.
    struct Position {
        /// Events this consumer has.
        var delivered = 0
        /// Where its last keyframe was.
        var keyframeAt = -1
        /// The playhead's generation it follows (nil: it needs its first keyframe).
        var generation: Int?
    }

    let consumer: String
    private let source: ReplaySource
    private let lock = NSLock()
    private var position = Position()

    init(source: ReplaySource, consumer: String) {
        self.source = source
        self.consumer = consumer
    }

    func next(limit: Int) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        return source.batch(for: &position, limit: limit)
    }

    func resynchronize() {
        lock.lock()
        position.generation = nil
        lock.unlock()
    }

    func close() {}
}
