import DashboardModel
import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Recording: the index reaches any moment")
struct RecordingIndexTests {
    /// A recording of `script`, written by the recorder.
    private func recorded(_ script: EventScript, in directory: TemporaryDirectory, options: RecorderOptions = RecorderOptions())
        throws -> String
    {
        let path = directory.path("run.jsonl")
        try record(ScriptedSource(script), to: path, options: options)
        return path
    }

    @Test("the state at any position equals applying the events up to it (saved states every few events, seeded positions)")
    func statesAtPositions() throws {
        let directory = TemporaryDirectory()
        let script = longScript(count: 400)
        var options = Recording.IndexOptions()
        options.savedStateInterval = 64
        let recording = try Recording.open(path: recorded(script, in: directory), options: options)
        #expect(recording.eventCount == script.events.count)
        let seed = SeededRandom.seed(default: 41, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        var positions = [0, 1, 63, 64, 65, recording.eventCount - 1, recording.eventCount]
        for _ in 0..<20 { positions.append(Int.random(in: 0...recording.eventCount, using: &random)) }
        for position in positions {
            var expected = StreamState(retention: ModelConfiguration().retention)
            for event in script.events.prefix(position) { expected.apply(event) }
            let state = try recording.state(at: position)
            #expect(state.nextSequence == expected.nextSequence, "seed \(seed), position \(position)")
            #expect(state.operations.count == expected.operations.count, "seed \(seed), position \(position)")
            var shown = DashboardModel()
            shown.load(state)
            var direct = DashboardModel()
            direct.load(expected)
            #expect(shown.report() == direct.report(), "seed \(seed), position \(position)")
        }
    }

    @Test("times: positions at a moment, the moment of a position, the span from the header's start to the end line")
    func times() throws {
        let directory = TemporaryDirectory()
        let script = pipelineScript()
        let recording = try Recording.open(path: recorded(script, in: directory))
        let events = script.events
        #expect(recording.origin <= events[0].time)
        #expect(recording.endTime >= events.last!.time)
        #expect(recording.position(atTime: events[4].time) == 5)
        #expect(recording.position(atTime: events[4].time - 1) == 4)
        #expect(recording.time(at: 5) == events[4].time)
        #expect(recording.time(at: 0) == recording.origin)
        #expect(recording.end?.events == events.count)
        #expect(recording.truncation == nil)
    }

    @Test("events read in any order and range are the recorded ones")
    func eventRanges() throws {
        let directory = TemporaryDirectory()
        let script = longScript(count: 200)
        var options = Recording.IndexOptions()
        options.savedStateInterval = 32
        let recording = try Recording.open(path: recorded(script, in: directory), options: options)
        let events = script.events
        for range in [0..<10, 10..<20, 100..<101, 5..<300, 0..<events.count, (events.count - 3)..<(events.count + 5)] {
            let wanted = Array(events[range.clamped(to: 0..<events.count)])
            #expect(try recording.events(range) == wanted, "\(range)")
        }
    }

    @Test("marks: the moment a warning appears (a cycle, an unsignalled finish), with its message")
    func warningMarks() throws {
        let directory = TemporaryDirectory()
        var script = EventScript()
        script.queue(1, "q", max: 2)
        for id in 1...5 { script.add(id, queue: 1, "op-\(id)") }
        script.add(6, queue: 1, "a", after: [7])
        script.add(7, queue: 1, "b", after: [6])
        script.add(8, queue: 1, "lost")
        script.start(8)
        script.emit(.unsignalledFinish(operation: 8))
        let recording = try Recording.open(path: recorded(script, in: directory))
        #expect(recording.marks.count >= 1)
        #expect(recording.marks.contains { $0.message.contains("cycle") })
        #expect(recording.marks.contains { $0.message.contains("#8") })
    }

    @Test("the saved states stay within the memory budget: the interval doubles")
    func budget() throws {
        let directory = TemporaryDirectory()
        var options = Recording.IndexOptions()
        options.savedStateInterval = 8
        options.memoryBudget = 200_000
        let script = longScript(count: 600)
        let recording = try Recording.open(path: recorded(script, in: directory), options: options)
        var expected = StreamState(retention: ModelConfiguration().retention)
        for event in script.events.prefix(1_234) { expected.apply(event) }
        #expect(try recording.state(at: 1_234).operations.count == expected.operations.count)
        #expect(recording.savedStateCount < script.events.count / 8, "thinned: \(recording.savedStateCount)")
    }
}
