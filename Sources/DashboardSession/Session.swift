import DashboardModel
import DashboardUI
import OperationEvents
import TerminalKit

/// One dashboard over any event source and any terminal surface: events into the model, keys
/// into effects, frames onto the surface. It does not know whether its source is this process,
/// a recording or another process, nor whether its surface is ncurses or a test terminal; its
/// clock is the source's (`EventSource.now()`), so a test with a manual clock decides every
/// duration on screen.
public struct Session {
    /// Where events come from and commands go.
    public let source: any EventSource
    /// Events into the model.
    public private(set) var ingest: EventIngest
    /// The view state and the rules of input.
    public private(set) var interaction: Interaction
    /// Frames from model and view state.
    public private(set) var composer: FrameComposer
    private let options: SessionOptions
    /// The source's playback, when it is a recording: its timeline is shown and followed.
    private let replay: (any PlaybackControllable)?
    /// The replay's status as last asked, to redraw only when the bar would change.
    private var lastTimeline: TimelineState?
    /// The model as shown while the display is paused (the live one keeps reducing), and its
    /// position in the history (events before it are applied).
    private var frozen: DashboardModel?
    private var frozenPosition = 0
    private var dirty = true
    private var fullRedraw = true
    /// A key was handled since the last frame: its answer is drawn at once, whatever the frame
    /// rate (`--fps` paces the frames the program's changes cause, not the answers to keys).
    private var keyAnswered = false
    private var framesDrawn = 0
    private var lastFrame: UInt64 = 0
    private var lastClockTick: UInt64 = 0
    private var lastActivity: UInt64 = 0
    /// The program the source named when last looked at (with whether it took commands).
    private var sourceProgram: (name: String, commandsRefused: String?)
    /// The message in the status line while the source is down, and when (the source's clock)
    /// it first showed (see `expireWhileDown`).
    private var messageWhileDown: (status: ViewState.StatusLine, since: UInt64)?

    /// A session on `source`, subscribed as the dashboard.
    public init(source: any EventSource, options: SessionOptions = SessionOptions()) {
        self.source = source
        self.options = options
        replay = source.sourceInfo.kind == .recording ? source as? any PlaybackControllable : nil
        ingest = EventIngest(source: source, configuration: options.model, history: PlaybackHistory())
        interaction = Interaction(templates: source.workTemplates, mouseEnabled: options.mouse)
        // One look at the source: the refusal and the program come from the same answer.
        let info = source.sourceInfo
        interaction.commandsRefused = info.commandsRefused
        interaction.state = options.initialView
        interaction.state.narration.isOn = options.narration
        sourceProgram = (info.program, info.commandsRefused)
        composer = FrameComposer(theme: Theme(unicode: options.unicode, color: options.color),
                                 caption: options.sourceCaption?(info) ?? options.caption)
    }

    /// The model on screen: the live one, or the one frozen when the display was paused.
    public var shownModel: DashboardModel { frozen ?? ingest.model }

    /// While paused: events that arrived after the moment on screen (`.` shows them one by one).
    public var eventsAhead: Int {
        guard frozen != nil, let history = ingest.history else { return 0 }
        return history.end - frozenPosition
    }

    /// Runs until the person quits or a terminating signal arrives.
    public mutating func run(on surface: any TerminalSurface) -> SessionEnding {
        while true {
            if let ending = step(on: surface) { return ending }
            surface.waitForInput(seconds: idleWait)
        }
    }

    /// One turn of the loop: input first (a person's keys win over drawing), then events, then
    /// a frame if anything visible changed. Returns how the session ended, if it did.
    public mutating func step(on surface: any TerminalSurface) -> SessionEnding? {
        if let signal = surface.pendingSignal { return .signal(signal) }
        while let key = surface.readKey() {
            if case .quit? = handle(key) { return .quit }
            keyAnswered = true
        }
        if interaction.state.paused, frozen == nil {
            frozen = ingest.model
            frozenPosition = ingest.history?.end ?? 0
        }
        if !interaction.state.paused, frozen != nil {
            frozen = nil
            // Back to live: the status line's message is stamped with the live clock (the
            // paused one stood still, and would expire it at once).
            interaction.resumedLive(now: ingest.model.now)
        }
        let now = source.now()
        // A remote program that exited: say so, and keep its last state as it was (the model's
        // clock stands still until the source delivers again).
        let info = source.sourceInfo
        let sourceStatus = info.status
        if sourceStatus != interaction.state.sourceStatus {
            interaction.state.sourceStatus = sourceStatus
            // The source going down outdates what the status line said (it shows this instead).
            if sourceStatus != nil { interaction.state.status = nil }
            dirty = true
        }
        expireWhileDown(sourceStatus, now: now)
        if info.program != sourceProgram.name || info.commandsRefused != sourceProgram.commandsRefused {
            sourceChanged(info)
        }
        var narrated: [MonitorEvent]? = frozen == nil && interaction.wantsNarration ? [] : nil
        let clockBefore = ingest.model.now
        if ingest.ingest(collecting: &narrated) {
            lastActivity = now
            // A replay moved back: what is narrated after its new moment comes again as it plays.
            if ingest.model.now < clockBefore { interaction.rewound(to: ingest.model.now) }
            if frozen == nil { dirty = true }
            // The session opened on a running program: its story so far comes first.
            if let start = ingest.takeFirstStart() { interaction.narrate(startingFrom: start) }
            if let narrated { interaction.narrate(narrated, model: ingest.model) }
        }
        // Durations on screen move with the clock: with unfinished work the screen refreshes
        // four times a second, with none once a second (throughputs decay), so a quiet
        // dashboard costs next to nothing.
        if replay != nil, followReplay(now: now) { dirty = true }
        let model = ingest.model
        let live = model.queues.values.contains { $0.executing + $0.waiting > 0 }
        if replay == nil, now &- lastClockTick >= (live ? 250_000_000 : 1_000_000_000) {
            if sourceStatus == nil { ingest.advance(to: now) }
            lastClockTick = now
            if frozen == nil { dirty = true }
        }
        let frameInterval = 1_000_000_000 / UInt64(max(1, min(120, options.framesPerSecond)))
        // A paused replay's clock stands still (or goes back when it seeks): a change is drawn
        // at once, since waiting for the clock would wait for ever.
        let stillClock = replay != nil && (now <= lastFrame || lastTimeline?.playing == false)
        if dirty, now &- lastFrame >= frameInterval || fullRedraw || framesDrawn == 0 || stillClock || keyAnswered {
            draw(on: surface, now: now)
        }
        return nil
    }

    /// While the source is down the model's clock stands still, so a message set meanwhile
    /// would never expire by it and would hide the source's status for good: it goes by the
    /// source's clock instead, a lifetime after it first showed.
    private mutating func expireWhileDown(_ sourceStatus: String?, now: UInt64) {
        guard sourceStatus != nil, let status = interaction.state.status else {
            messageWhileDown = nil
            return
        }
        guard let shown = messageWhileDown, shown.status == status else {
            messageWhileDown = (status, now)
            return
        }
        if now &- shown.since >= status.lifetime {
            interaction.state.status = nil
            messageWhileDown = nil
            dirty = true
        }
    }

    /// The source names another program (a remote source reconnected to a different one at the
    /// same socket, or to its program started again): the caption and the templates follow, and
    /// the status line says so, in the source's words when it has some.
    private mutating func sourceChanged(_ info: SourceInfo) {
        if info.program != sourceProgram.name {
            // Stamped with the source's clock: the interaction's is a key press old, and the
            // model's stood still while the source was down (the message would expire at once).
            let change = (source as? any ProgramChangeDescribing)?.programChange(from: sourceProgram.name, to: info.program)
            interaction.state.status = ViewState.StatusLine(change ?? "a different program now: \(info.program), was \(sourceProgram.name)",
                                                            time: source.now())
            // A question or tags about the old program's operations would act on the new one's
            // operations of the same ids.
            interaction.forgetProgram()
        }
        sourceProgram = (info.program, info.commandsRefused)
        if let caption = options.sourceCaption { composer.caption = caption(info) }
        interaction.templates = source.workTemplates
        // A read-only program replaced by one that takes commands, or the other way round.
        interaction.commandsRefused = info.commandsRefused
        dirty = true
    }

    /// How long the loop may wait for input before the next look at the events: short while
    /// things happen, longer when quiet, so an idle dashboard barely wakes.
    public var idleWait: Double {
        if dirty { return 0.005 }
        return source.now() &- lastActivity > 1_000_000_000 ? 0.1 : 0.015
    }

    /// Handles one key: view changes happen in `interaction`; effects are carried out here.
    private mutating func handle(_ key: Key) -> Effect? {
        let effects = interaction.handle(key, model: shownModel)
        lastActivity = source.now()
        for effect in effects {
            switch effect {
            case .quit: return .quit
            case .redraw: dirty = true
            case .fullRedraw:
                dirty = true
                fullRedraw = true
            case .command(let command):
                // Commands may run app code (cancel, template factories) on this thread; the
                // session holds no lock while they do.
                interaction.commandFinished(source.perform(command))
                dirty = true
            case .playback(let request):
                if let controllable = source as? any PlaybackControllable {
                    switch controllable.playback(request) {
                    case .success(let status):
                        if replay != nil {
                            interaction.playbackAnswered(status)
                            interaction.updateTimeline(TimelineState(status), now: source.now())
                        } else {
                            interaction.status(status.message)
                        }
                    case .failure(let error): interaction.commandFinished(.failure(error))
                    }
                } else {
                    interaction.commandFinished(.failure(CommandError(.unsupported, "+ - R work in replays only (a demo takes --speed at launch)")))
                }
                dirty = true
            case .step(let count):
                step(by: count)
                dirty = true
            }
        }
        return nil
    }

    /// Moves the paused display `count` events forward (applied one by one) or back (rebuilt
    /// from the history).
    private mutating func step(by count: Int) {
        guard frozen != nil, let history = ingest.history else { return }
        let target = min(max(frozenPosition + count, history.start), history.end)
        if target == frozenPosition {
            interaction.status(count > 0 ? "no newer event yet" : "no older event is kept")
            return
        }
        if count > 0, var model = frozen {
            for position in frozenPosition..<target {
                guard let event = history.event(at: position) else { break }
                model.apply(EventBatch(events: [event], droppedTotal: model.droppedEvents))
                interaction.narrate(step: event, model: model)
            }
            frozen = model
        } else if let model = history.model(at: target) {
            // The sentence is the event gone back over, told with the state it made.
            if let event = history.event(at: target), let after = frozen { interaction.narrate(stepBack: event, model: after) }
            frozen = model
        }
        frozenPosition = target
        interaction.status(Self.stepMessage(count, at: target, history, shown: frozen?.now, live: ingest.model.now))
    }

    /// Where a step landed, as a replay says it: the moment on screen in the history held, and
    /// how far behind live it is (live goes on while paused, so that distance can grow).
    static func stepMessage(_ count: Int, at position: Int, _ history: PlaybackHistory, shown: UInt64?, live: UInt64) -> String {
        let steps = abs(count)
        let what = count > 0 ? (steps == 1 ? "one event on" : "\(steps) events on") : (steps == 1 ? "back one event" : "back \(steps) events")
        let moment = position > history.start ? history.event(at: position - 1)?.time ?? shown : shown
        let behind = moment.map { live > $0 ? live - $0 : 0 } ?? 0
        let ahead = history.end - position
        return "\(what): event \(position - history.start) of \(history.end - history.start) held, "
            + "\(DurationText.format(behind)) and \(ahead) event\(ahead == 1 ? "" : "s") behind live (p goes live)"
    }

    /// A replay: the model's clock follows the moment shown (back too, when it seeks back), and
    /// the timeline bar follows the source's status. True when the screen should change.
    private mutating func followReplay(now: UInt64) -> Bool {
        guard let replay, case .success(let status) = replay.playback(.status) else { return false }
        let timeline = TimelineState(status)
        interaction.updateTimeline(timeline, now: now)
        var changed = false
        let model = ingest.model.now
        if now != model {
            ingest.follow(clock: now)
            // Durations move with the clock; a tenth of a second is what the bar shows.
            changed = now < model || now - model >= 100_000_000 || timeline?.playing == false
        }
        if timeline != lastTimeline {
            let moved = abs((timeline?.position ?? 0) - (lastTimeline?.position ?? 0)) >= 0.1
            if moved || timeline?.playing != lastTimeline?.playing || timeline?.speed != lastTimeline?.speed
                || timeline?.duration != lastTimeline?.duration || lastTimeline == nil {
                lastTimeline = timeline
                changed = true
            }
        }
        return changed
    }

    private mutating func draw(on surface: any TerminalSurface, now: UInt64) {
        if framesDrawn == 1, options.trapWhileDrawing {
            fatalError("trapWhileDrawing: a trap while the dashboard draws")
        }
        let shown = shownModel
        interaction.keepSelectionValid(shown)
        let size = surface.size
        let (frame, map) = composer.compose(shown, interaction, width: size.width, height: size.height)
        interaction.map = map
        surface.draw(frame, full: fullRedraw)
        framesDrawn += 1
        lastFrame = now
        dirty = false
        fullRedraw = false
        keyAnswered = false
    }
}
