import DashboardModel
import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// The replay on a manual clock: every move is decided by the test, nothing sleeps.
@Suite("Replay: a recording played as a source, on its own clock")
struct ReplaySourceTests {
    private let directory = TemporaryDirectory()

    /// A replay of `script` (paused unless `playing`), its clock and a subscription that took
    /// its first keyframe.
    private func replay(_ script: EventScript, playing: Bool = false)
        throws -> (ReplaySource, ManualClock, any EventSubscription, EventBatch)
    {
        let path = directory.path("replay-\(UUID().uuidString.prefix(6)).jsonl")
        try record(ScriptedSource(script), to: path)
        var options = Recording.IndexOptions()
        options.savedStateInterval = 16
        let recording = try Recording.open(path: path, options: options)
        let clock = ManualClock()
        let source = ReplaySource(recording: recording, playing: playing, clock: clock.function)
        let subscription = source.subscribe(SubscriptionRequest(consumer: "test"))
        let first = subscription.next(limit: 10_000)
        return (source, clock, subscription, first)
    }

    private func state(_ batch: EventBatch) -> StreamState? {
        if case .keyframe(let state)? = batch.start { return state }
        return nil
    }

    private func expectedState(_ script: EventScript, upTo position: Int) -> StreamState {
        var state = StreamState(retention: ModelConfiguration().retention)
        for event in script.events.prefix(position) { state.apply(event) }
        return state
    }

    /// What a consumer holds after a batch: a start replaces its state, events are applied.
    private func follow(_ batch: EventBatch, _ state: inout StreamState) {
        if case .keyframe(let keyframe)? = batch.start { state.adopt(keyframe) }
        for event in batch.events { state.apply(event) }
    }

    /// Compares states by what a person sees of them (a failure names the position, not the state).
    private func same(_ lhs: StreamState?, _ rhs: StreamState) -> Bool {
        guard let lhs else { return false }
        return lhs == rhs
    }

    @Test("playing: the first batch is the start, then events arrive as the clock passes their times; now() is the moment shown")
    func plays() throws {
        let script = longScript(count: 30)
        let (source, clock, subscription, first) = try replay(script, playing: true)
        let events = script.events
        #expect(state(first)?.nextSequence == 0)
        #expect(first.events.isEmpty)
        let origin = source.recording.origin
        #expect(source.now() == origin)
        let step = events[9].time - origin
        clock.advance(nanoseconds: step)
        #expect(source.now() == origin + step)
        let batch = subscription.next(limit: 10_000)
        #expect(batch.start == nil)
        #expect(batch.events == Array(events.prefix(10)))
        // Paused: the clock moves, the replay does not.
        #expect(try source.playback(.setPlaying(false)).get().playing == false)
        clock.advance(nanoseconds: 10_000_000_000)
        #expect(subscription.next(limit: 10_000).events.isEmpty)
        #expect(source.now() == origin + step)
        // Twice as fast: one real second plays two.
        _ = try source.playback(.setPlaying(true)).get()
        #expect(try source.playback(.faster).get().speed == 2)
        clock.advance(nanoseconds: (events[19].time - events[9].time) / 2)
        #expect(subscription.next(limit: 10_000).events == Array(events[10..<20]))
    }

    @Test("to the end: it stops there and says so; play again starts over")
    func end() throws {
        let script = pipelineScript()
        let (source, clock, subscription, _) = try replay(script, playing: true)
        clock.advance(nanoseconds: 3_600_000_000_000)
        #expect(subscription.next(limit: 10_000).events.count == script.events.count)
        let status = try source.playback(.status).get()
        #expect(status.playing == false && status.message.contains("end of the recording"))
        #expect(status.position == status.duration)
        _ = try source.playback(.setPlaying(true)).get()
        let again = subscription.next(limit: 10_000)
        #expect(state(again)?.nextSequence == 0, "from the start, with a keyframe")
    }

    @Test("one event forward (delivered as an event), one back (a keyframe of the state before it)")
    func steps() throws {
        let script = longScript(count: 30)
        let (source, _, subscription, _) = try replay(script)
        for index in 0..<5 {
            let status = try source.playback(.step(events: 1)).get()
            #expect(status.message.hasPrefix("forward one event"))
            #expect(subscription.next(limit: 10_000).events == [script.events[index]])
        }
        _ = try source.playback(.step(events: -1)).get()
        let back = subscription.next(limit: 10_000)
        #expect(same(state(back), expectedState(script, upTo: 4)), "the state before the fifth event")
        #expect(source.now() == script.events[3].time)
        _ = try source.playback(.step(events: -4)).get()
        #expect(state(subscription.next(limit: 10_000))?.nextSequence == 0)
        if case .failure(let error) = source.playback(.step(events: -1)) {
            #expect(error.message == "at the start of the recording")
        } else {
            Issue.record("stepped before the start")
        }
    }

    @Test("seek by seconds and to a time: the consumer holds the state of that moment (a keyframe back, the events in between forward)")
    func seeks() throws {
        let script = longScript(count: 200, step: 50_000_000)
        let (source, _, subscription, first) = try replay(script)
        let recording = source.recording
        var held = StreamState(retention: ModelConfiguration().retention)
        follow(first, &held)
        _ = try source.playback(.seekTo(seconds: 12.5)).get()
        let at = recording.position(atTime: recording.origin + 12_500_000_000)
        #expect(at > 0 && at < script.events.count)
        follow(subscription.next(limit: 10_000), &held)
        #expect(same(held, expectedState(script, upTo: at)), "at 12.5 s (event \(at))")
        #expect(source.now() == recording.origin + 12_500_000_000)
        _ = try source.playback(.seek(seconds: -1)).get()
        let back = recording.position(atTime: recording.origin + 11_500_000_000)
        #expect(same(state(subscription.next(limit: 10_000)), expectedState(script, upTo: back)), "at 11.5 s (event \(back))")
        // Forward a little: the events in between, not a keyframe.
        _ = try source.playback(.seek(seconds: 1)).get()
        let forward = subscription.next(limit: 10_000)
        #expect(forward.start == nil && forward.events == Array(script.events[back..<at]))
        // Past either end, to a time or by an offset alike: at that end, saying so.
        let toTime = try source.playback(.seekTo(seconds: 1e6)).get().message
        #expect(toTime.hasPrefix("at the end, ") && toTime.contains(": the recording is ") && toTime.hasSuffix(" s long"), "\(toTime)")
        #expect(source.now() == recording.endTime)
        _ = try source.playback(.seekTo(seconds: 1)).get()
        let byOffset = try source.playback(.seek(seconds: 1e5)).get().message
        #expect(byOffset == toTime, "\(byOffset)")
        let toStart = try source.playback(.seek(seconds: -1e5)).get().message
        #expect(toStart.hasPrefix("at the start, 0.0 s"), "\(toStart)")
        #expect(source.now() == recording.origin)
        let inside = try source.playback(.seek(seconds: 2)).get().message
        #expect(inside.hasPrefix("at 2.0 s"), "\(inside)")
    }

    @Test("{ and }: the selected operation's state changes, and warnings appearing")
    func marks() throws {
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "first")
        script.add(2, queue: 1, "second")
        script.start(1)
        script.finish(1)
        script.start(2)
        script.add(3, queue: 1, "a", after: [4])
        script.add(4, queue: 1, "b", after: [3])
        script.finish(2)
        let (source, _, _, _) = try replay(script)
        // #2: added (event 2), started (5), finished (8): shown right after each.
        var status = try source.playback(.seekToMark(forward: true, operation: OperationID(2))).get()
        #expect(status.message.hasSuffix("#2 added"), "\(status.message)")
        status = try source.playback(.seekToMark(forward: true, operation: OperationID(2))).get()
        #expect(status.message.hasSuffix("#2 started"), "\(status.message)")
        // Without a selection: the next warning (the cycle).
        status = try source.playback(.seekToMark(forward: true, operation: nil)).get()
        #expect(status.message.contains("warning: dependency cycle"), "\(status.message)")
        status = try source.playback(.seekToMark(forward: false, operation: OperationID(2))).get()
        #expect(status.message.hasSuffix("#2 started"), "\(status.message)")
        status = try source.playback(.seekToMark(forward: false, operation: OperationID(2))).get()
        #expect(status.message.hasSuffix("#2 added"), "\(status.message)")
        if case .failure(let error) = source.playback(.seekToMark(forward: false, operation: OperationID(2))) {
            #expect(error.message == "no earlier warning or change of #2")
        } else {
            Issue.record("found a change before the first")
        }
    }

    @Test("commands are refused with the reason; the source says it is a recording")
    func refusesCommands() throws {
        let (source, _, _, _) = try replay(pipelineScript())
        guard case .failure(let error) = source.perform(.cancel(operations: [OperationID(1)])) else {
            Issue.record("a recording took a command")
            return
        }
        #expect(error.kind == .unsupported && error.message.contains("this is a recording"))
        #expect(source.sourceInfo.kind == .recording && source.sourceInfo.commandsRefused != nil)
        #expect(source.workTemplates.isEmpty)
    }

    @Test("speeds: + and - step through them and stop at the ends")
    func speeds() throws {
        let (source, _, _, _) = try replay(pipelineScript())
        var speeds: [Double] = []
        while case .success(let status) = source.playback(.faster) { speeds.append(status.speed ?? 0) }
        #expect(speeds == [2, 4, 8, 16, 32, 64])
        while case .success(let status) = source.playback(.slower) { speeds.append(status.speed ?? 0) }
        #expect(speeds.suffix(9) == [32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.1])
        // From a speed between the steps, to the neighbouring ones.
        #expect(try ReplaySource(recording: source.recording, speed: 1.5, playing: false).playback(.faster).get().speed == 2)
        #expect(try ReplaySource(recording: source.recording, speed: 1.5, playing: false).playback(.slower).get().speed == 1)
    }
}
