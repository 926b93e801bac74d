/// Where a dashboard's events come from: the in-process monitor, a recording, or a socket to an
/// agent in another process. A session does not know which one it has.
///
/// A source gives each consumer its own subscription: first the past (a keyframe), then the
/// live events, in causal order (see docs/ARCHITECTURE.md). Reading a subscription never takes
/// events away from another one.
public protocol EventSource: AnyObject, Sendable {
    /// What this source is: live, a recording or remote; the program; whether it takes commands.
    var sourceInfo: SourceInfo { get }
    /// Opens a subscription for one consumer.
    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription
    /// Carries out a command; a refused command changes nothing and says why.
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError>
    /// The registered work templates, for the "add work" picker.
    var workTemplates: [WorkTemplateInfo] { get }
    /// The current time on the source's clock (nanoseconds), so durations agree with event times.
    func now() -> UInt64
}

/// One consumer's view of a source: its own position, its own bounded buffer, its own drops.
public protocol EventSubscription: AnyObject, Sendable {
    /// The consumer's name (`dashboard`, `recorder`, `report`...), for drop counts and diagnostics.
    var consumer: String { get }
    /// Takes up to `limit` events. The first batch, and the first after this consumer fell
    /// further behind than its buffer, starts with where to start from (`EventBatch.start`).
    func next(limit: Int) -> EventBatch
    /// Asks that the next batch start afresh (after the consumer found a gap in the sequence).
    func resynchronize()
    /// Stops the subscription; the source forgets it.
    func close()
}

/// What a consumer asks for when it subscribes.
public struct SubscriptionRequest: Sendable, Equatable {
    /// Who is asking (`dashboard`, `recorder`, `report`, `agent client 3`).
    public var consumer: String
    /// Events this consumer may fall behind by before it loses some; nil: the source's default.
    public var bufferCapacity: Int?

    /// Creates a request.
    public init(consumer: String, bufferCapacity: Int? = nil) {
        self.consumer = consumer
        self.bufferCapacity = bufferCapacity
    }
}

/// What a source is, as a session shows it.
public struct SourceInfo: Codable, Sendable, Equatable {
    /// Live in this process, a recording, or another process.
    public enum Kind: String, Codable, Sendable {
        /// The monitor of this process.
        case live
        /// A recording file.
        case recording
        /// A program attached to over a socket.
        case remote
    }

    /// The kind of source.
    public var kind: Kind
    /// The observed program's name.
    public var program: String
    /// Nil when the source takes commands; otherwise the reason it refuses them, for the status line.
    public var commandsRefused: String?
    /// What the dashboard should say about the source itself while it lasts, e.g. a remote
    /// program that exited (`program exited — last state kept, reconnecting…`); nil when all is well.
    public var status: String?

    /// Creates a description.
    public init(kind: Kind, program: String, commandsRefused: String? = nil, status: String? = nil) {
        self.kind = kind
        self.program = program
        self.commandsRefused = commandsRefused
        self.status = status
    }
}

/// A request about how a source plays, beyond monitor commands: the pace of a demo or a replay,
/// starting it over, moving in a recording.
public enum PlaybackRequest: Codable, Sendable, Equatable {
    /// Play faster (a demo's pace, a replay's speed).
    case faster
    /// Play slower.
    case slower
    /// Start the demo (or the replay) over.
    case restart
    /// Move the replay by this many seconds of its time (negative: back).
    case seek(seconds: Double)
    /// Move the replay to this many seconds after its start.
    case seekTo(seconds: Double)
    /// Pause or resume a replay.
    case setPlaying(Bool)
    /// Move the replay by this many events (negative: back), one at a time when stepping.
    case step(events: Int)
    /// Move the replay to the next (or previous) mark: a warning appearing, or a state change of
    /// `operation` when one is given.
    case seekToMark(forward: Bool, operation: OperationID?)
    /// Change nothing: only answer with the status (the timeline bar asks every frame).
    case status
}

/// What a source answers to a playback request.
public struct PlaybackStatus: Codable, Sendable, Equatable {
    /// One line for the status bar, e.g. `speed ×2`.
    public var message: String
    /// The pace now (1 is real time), when the source has one.
    public var speed: Double?
    /// Where a replay is: seconds since the recording's start, when the source has a timeline.
    public var position: Double?
    /// How long the recording is, in seconds, when the source has a timeline.
    public var duration: Double?
    /// Whether a replay is playing (nil: the source does not pause).
    public var playing: Bool?
    /// Moments worth a look (warnings appearing), in seconds since the recording's start.
    public var marks: [Double]

    /// A status.
    public init(message: String, speed: Double? = nil, position: Double? = nil, duration: Double? = nil,
                playing: Bool? = nil, marks: [Double] = []) {
        self.message = message
        self.speed = speed
        self.position = position
        self.duration = duration
        self.playing = playing
        self.marks = marks
    }
}

/// Sources that can change how they play (demos, recordings) implement this too.
public protocol PlaybackControllable: AnyObject, Sendable {
    /// Carries out a playback request, or refuses it with a reason.
    func playback(_ request: PlaybackRequest) -> Result<PlaybackStatus, CommandError>
}

/// Sources whose program can change under a dashboard (a remote source that reconnected) and
/// can tell how implement this too: the program started again is not "a different program".
public protocol ProgramChangeDescribing: AnyObject, Sendable {
    /// The status line's words now that the source names `current` instead of `previous` (both
    /// as `SourceInfo.program` gives them); nil when the source has nothing to add to the
    /// dashboard's own "a different program now".
    func programChange(from previous: String, to current: String) -> String?
}
