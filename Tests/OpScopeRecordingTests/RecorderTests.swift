import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Recording: the recorder writes the stream as it goes")
struct RecorderTests {
    @Test("header, a keyframe first, every event in order, the end line; the file reads back")
    func wholeStream() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("run.jsonl")
        let source = ScriptedSource(pipelineScript(), info: SourceInfo(kind: .live, program: "pipeline"))
        let recorder = try record(source, to: path)
        #expect(recorder.failure == nil)
        let read = lines(of: path)
        guard case .header(let header)? = read.first else {
            Issue.record("no header")
            return
        }
        #expect(header.program == "pipeline" && header.version == EventCoding.currentVersion)
        #expect(header.processID == Int(getpid()))
        guard case .keyframe(let keyframe) = read[1] else {
            Issue.record("the second line is \(read[1].kind), not a keyframe")
            return
        }
        #expect(keyframe.sequence == 0)
        let events = read.compactMap { line -> MonitorEvent? in
            if case .event(let event) = line { return event }
            return nil
        }
        #expect(events == pipelineScript().events)
        guard case .end(let end)? = read.last else {
            Issue.record("no end line")
            return
        }
        #expect(end.events == events.count && end.dropped == 0 && end.reason == "finished")
        #expect(recorder.eventsWritten == events.count)
    }

    @Test("events appended while recording arrive in the file; sync returns once they are written")
    func liveAppends() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("live.jsonl")
        let source = ScriptedSource(pipelineScript())
        let recorder = try Recorder(source: source, path: path)
        recorder.sync()
        let before = lines(of: path).filter { $0.kind == "event" }.count
        #expect(before == pipelineScript().events.count)
        var more = EventScript()
        more.time = source.now()
        more.add(40, queue: 1, "late")
        more.start(40)
        source.append(more)
        recorder.sync()
        #expect(lines(of: path).filter { $0.kind == "event" }.count == before + 2, "written before sync returned, without an end line yet")
        recorder.stop()
        #expect(lines(of: path).last?.kind == "end")
    }

    @Test("a keyframe every N events, and after T seconds of stream time, from the recorder's own state")
    func periodicKeyframes() throws {
        let directory = TemporaryDirectory()
        var options = RecorderOptions()
        options.keyframeEvery = 100
        options.keyframeSeconds = 3_600
        let script = longScript(count: 120)
        try record(ScriptedSource(script), to: directory.path("count.jsonl"), options: options)
        let read = lines(of: directory.path("count.jsonl"))
        var eventsSince = 0
        var keyframes = 0
        var state = StreamState()
        for line in read {
            switch line {
            case .event(let event):
                eventsSince += 1
                state.apply(event)
                #expect(eventsSince <= 100)
            case .keyframe(let keyframe):
                keyframes += 1
                eventsSince = 0
                // Each keyframe is the state of the events before it.
                let decoded = try keyframe.decodeState(as: StreamState.self)
                #expect(decoded.nextSequence == keyframe.sequence && keyframe.sequence == state.nextSequence)
                #expect(decoded.operations.count == state.operations.count)
            default: break
            }
        }
        #expect(keyframes == 1 + script.events.count / 100)

        // By time: one event a second, a keyframe every 10 seconds of stream time.
        options.keyframeEvery = 1_000_000
        options.keyframeSeconds = 10
        var slow = EventScript()
        slow.queue(1, "slow")
        for id in 1...30 { slow.emit(.operationAdded(OperationInfo(id: OperationID(id), queue: 1, typeName: "Operation")), after: 1_000_000_000) }
        try record(ScriptedSource(slow), to: directory.path("time.jsonl"), options: options)
        let timed = lines(of: directory.path("time.jsonl")).filter { $0.kind == "keyframe" }.count
        #expect(timed == 1 + 30 / 10, "the first keyframe, then one per 10 s of events")
    }

    @Test("events lost by the subscription: a dropped marker with how many, then the source's fresh keyframe")
    func drops() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("drops.jsonl")
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        script.add(3, queue: 1, "c")
        let events = script.events
        var keyframe = StreamState()
        for event in events { keyframe.apply(event) }
        let source = BatchSource([
            EventBatch(start: .keyframe(StreamState()), events: Array(events[0..<2]), droppedTotal: 0),
            // Two events lost (2 and 3), then the source starts afresh after them.
            EventBatch(start: .keyframe(keyframe), events: [], droppedTotal: 2),
            EventBatch(events: [MonitorEvent(sequence: 4, time: 9_000_000_000, change: .started(operation: 3))], droppedTotal: 2),
        ])
        let recorder = try record(source, to: path)
        let kinds = lines(of: path).map(\.kind)
        #expect(kinds == ["header", "keyframe", "event", "event", "dropped", "keyframe", "event", "end"])
        if case .dropped(let marker) = lines(of: path)[4] {
            #expect(marker.count == 2 && marker.sequence == 2)
        }
        #expect(recorder.droppedEvents == 2)
        if case .end(let end) = lines(of: path).last { #expect(end.dropped == 2) }
    }

    @Test("a gap in the sequence numbers: a dropped marker counts it and the recorder asks for a fresh start")
    func gap() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("gap.jsonl")
        var script = EventScript()
        script.queue(1, "q")
        script.add(1, queue: 1, "a")
        script.add(2, queue: 1, "b")
        script.add(3, queue: 1, "c")
        var events = script.events
        events.remove(at: 2)
        let source = BatchSource([EventBatch(events: events, droppedTotal: 0)])
        try record(source, to: path)
        let read = lines(of: path)
        #expect(read.map(\.kind) == ["header", "keyframe", "event", "event", "dropped", "keyframe", "event", "end"])
        if case .dropped(let marker) = read[4] { #expect(marker.count == 1 && marker.sequence == 2) }
        #expect(source.resyncs == 1)
    }

    @Test("a full disk (/dev/full): one clear message on the handle, the recorder stops, the program goes on")
    func fullDisk() throws {
        let source = ScriptedSource(pipelineScript())
        let recorder = try Recorder(source: source, path: "/dev/full")
        #expect(recorder.isFinished)
        #expect(recorder.failure == "/dev/full: recording stopped: No space left on device (the program goes on; nothing was recorded)")
        recorder.stop()
        recorder.sync()
        // The source is untouched: another consumer still reads everything.
        let subscription = source.subscribe(SubscriptionRequest(consumer: "dashboard"))
        #expect(subscription.next(limit: 1_000).events.count == pipelineScript().events.count)
    }

    @Test("a write error after the start: the message names the file and the reason; stop returns at once")
    func writeErrorLater() throws {
        // A pipe takes the header and the first events; once its reader is gone, writes fail.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        signal(SIGPIPE, SIG_IGN)
        let source = ScriptedSource(pipelineScript())
        let path = "/dev/fd/\(ends[1])"
        let recorder = try Recorder(source: source, path: path)
        recorder.sync()
        #expect(recorder.failure == nil)
        close(ends[0])
        var more = EventScript()
        more.time = source.now()
        more.add(50, queue: 1, "after the reader left")
        source.append(more)
        recorder.sync()
        let message = try #require(recorder.failure)
        #expect(message.hasPrefix("\(path): recording stopped: Broken pipe (the program goes on;"), "\(message)")
        #expect(recorder.isFinished)
        recorder.stop()
    }

    @Test("a path that cannot be created: an error naming it")
    func badPath() {
        do {
            _ = try Recorder(source: ScriptedSource(), path: "/nonexistent-directory/run.jsonl")
            Issue.record("no error")
        } catch {
            #expect(error.description == "/nonexistent-directory/run.jsonl: cannot create it: No such file or directory")
        }
    }
}
