import DashboardModel
import DashboardSession
import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// A recording round-trips: the report from the file equals the report a live consumer of the
/// same program made at the end (compared as the JSON `opscope report --json` prints).
@Suite("Recording: the report from the file is the live report")
struct ReportRoundTripTests {
    private func json(_ report: OpScopeReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// The live report, as `OpScopeDashboard.report` makes it: a subscription read to its end,
    /// the clock at the source's.
    private func liveReport(_ source: any EventSource) -> OpScopeReport {
        var ingest = EventIngest(source: source, configuration: ModelConfiguration(), consumer: "report")
        defer { ingest.close() }
        _ = ingest.ingest(budget: .max)
        ingest.advance(to: source.now())
        return ingest.model.report()
    }

    @Test("a program with every kind of problem, events arriving while it is recorded")
    func problems() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("problems.jsonl")
        let source = ScriptedSource(pipelineScript(), info: SourceInfo(kind: .live, program: "pipeline"))
        try record(source, to: path) { recorder in
            recorder.sync()
            var more = EventScript()
            more.time = source.now()
            more.run(1)
            more.add(20, queue: 1, "lost-finish", async: true)
            more.start(20)
            more.emit(.unsignalledFinish(operation: OperationID(20)))
            more.add(21, queue: 2, "never-ready", ready: false)
            source.append(more)
            recorder.sync()
            // Time passes without events: warnings that need time (not ready for long) appear.
            source.advance(by: 12_000_000_000)
        }
        let live = liveReport(source)
        let recording = try Recording.open(path: path)
        let fromFile = try recording.model(atSeconds: nil).report()
        #expect(try json(fromFile) == json(live))
        #expect(live.hasProblem && !live.warnings.isEmpty && !live.cycles.isEmpty)
    }

    @Test("a longer program, keyframes along the way: the end, and a moment in the middle")
    func longer() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("long.jsonl")
        let script = longScript(count: 300)
        var options = RecorderOptions()
        options.keyframeEvery = 97
        let source = ScriptedSource(script)
        try record(source, to: path, options: options)
        let recording = try Recording.open(path: path)
        #expect(try json(recording.model(atSeconds: nil).report()) == json(liveReport(source)))

        // In the middle: the live report of a source that had only the events up to then.
        let middle = script.events[script.events.count / 2].time
        let earlier = BatchSource([EventBatch(events: script.events.filter { $0.time <= middle }, droppedTotal: 0)], now: middle)
        let fromFile = try recording.model(atSeconds: recording.seconds(middle)).report()
        #expect(try json(fromFile) == json(liveReport(earlier)))
    }
}
