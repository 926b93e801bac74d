import DashboardModel
import DashboardUI
import Foundation
import GraphExport
import OpScope
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 17: a dependency chain 100,000 deep through everything that walks the graph after the
/// model (whose own passes `DeepChainTests` and `DeepChainReportTests` cover): the layered
/// layout, the screen with the graph and the details of the deepest operation, the JSON report
/// through both writers, DOT, Mermaid, and a recording's Perfetto trace. Nothing may recurse per
/// link; finishing inside the suite's time limit is the proof that nothing is quadratic. The
/// report's own figures (≤ 2 s, ≤ 1.25 KB per operation) are measured in a release build by
/// `opscope-bench model --only report` (RELIABILITY.md).
@Suite("Reliability: a chain 100,000 deep through layout, screen, exports and trace", .serialized, .timeLimit(.minutes(8)))
struct DeepChainPipelineTests {
    static let depth = 100_000

    /// A suspended queue holding the chain (each link depends on the one before); `running`
    /// resumes it and runs every link.
    static func script(running: Bool) -> EventScript {
        var script = EventScript()
        script.queue(1, "chain", suspended: true)
        for id in 1...depth { script.add(id, queue: 1, "link", after: id == 1 ? [] : [id - 1]) }
        guard running else { return script }
        script.emit(.queueSuspended(queue: QueueID(1), suspended: false))
        for id in 1...depth {
            if id > 1 { script.ready(id) }
            script.start(id, after: 1_000)
            script.finish(id, after: 1_000)
        }
        return script
    }

    static var configuration: ModelConfiguration {
        var configuration = ModelConfiguration.report
        configuration.historyLimit = 4
        return configuration
    }

    static func model(_ script: EventScript) -> DashboardModel {
        var model = DashboardModel(configuration: configuration)
        var start = 0
        let events = script.events
        while start < events.count {
            model.apply(EventBatch(events: Array(events[start..<min(events.count, start + 8_192)]), droppedTotal: 0))
            start += 8_192
        }
        return model
    }

    /// The waiting chain's model, built once for the tests that read it.
    static let waiting = model(script(running: false))

    @Test("waiting: the layered layout, the screen around the deepest link with its details, the JSON report both ways")
    func waitingChain() throws {
        let model = Self.waiting
        let deepest = OperationID(Self.depth)

        let graph = LayoutGraph(nodeCount: Self.depth, edges: (1..<Self.depth).map { ($0 - 1, $0) })
        let layout = LayeredLayout.compute(graph)
        #expect(layout.realCount == Self.depth && layout.layer(of: Self.depth - 1) == Self.depth - 1 && layout.dummyCount == 0)

        for (focus, layout) in [(ViewState.Pane.table, ViewState.GraphLayout.focused), (.graph, .all)] {
            var dashboard = Interaction()
            dashboard.state.selection = deepest
            dashboard.state.focus = focus
            dashboard.state.graph.layout = layout
            dashboard.state.details = ViewState.ScrollState()
            var backend = TestBackend(width: 200, height: 60)
            backend.draw(FrameComposer().compose(model, dashboard, width: 200, height: 60).0)
            let text = backend.text
            #expect(text.contains("#100000 link") && text.contains("Why is it not running?"), "\(text)")
            #expect(text.contains("(a chain of 100,000"), "the details give the chain's length:\n\(text)")
            // The table shows whole ids however many digits they have.
            #expect(text.range(of: "│ 99999 +link", options: .regularExpression) != nil, "ids of five digits and more are cut in the table:\n\(text)")
        }

        let report = model.report()
        #expect(report.diagnoses.count == Self.depth && report.operations.count == Self.depth)
        for (writer, bytes) in [("report.json()", report.json()), ("JSONEncoder", Array(try JSONEncoder().encode(report)))] {
            let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            let operations = object?["operations"] as? [[String: Any]]
            #expect(operations?.count == Self.depth, "\(writer)")
            #expect(Double(bytes.count) / Double(Self.depth) <= 1_250, "\(writer): \(bytes.count / Self.depth) bytes per operation")
        }
    }

    @Test("waiting: DOT and Mermaid hold every link and every edge once")
    func waitingExports() {
        let model = Self.waiting
        let dot = GraphExport.dot(model)
        let dotLines = dot.split(separator: "\n")
        #expect(dotLines.filter { $0.contains(" -> ") }.count == Self.depth - 1)
        #expect(dot.contains("op100000 [label=\"#100000 link\"") && dot.hasSuffix("}\n"))
        let mermaid = GraphExport.mermaid(model)
        let mermaidLines = mermaid.split(separator: "\n")
        #expect(mermaidLines.filter { $0.contains(" --> ") }.count == Self.depth - 1)
        #expect(mermaid.contains("n100000[\"#35;100000 link"))
    }

    @Test("run to the end and recorded: the recording reads back and its Perfetto trace parses, one slice per link",
          .disabled(if: Sanitizer.thread, "single-threaded and minutes long under ThreadSanitizer; the plain and AddressSanitizer runs cover it"))
    func runAndTrace() throws {
        let script = Self.script(running: true)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-deep-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("chain.jsonl").path
        let recorder = try Recorder(source: ScriptedSource(script), path: path)
        recorder.sync()
        recorder.stop()
        #expect(recorder.failure == nil && recorder.eventsWritten == script.events.count, "\(recorder.eventsWritten) of \(script.events.count)")

        // Read without the replay's index extras (saved states, warning marks: RecordingIndexTests
        // cover them, and opening a deep recording with them is measured by opscope-bench): the
        // trace is what is tested here.
        var options = Recording.IndexOptions()
        options.savedStateInterval = 1 << 40
        options.warningCheckEvents = .max
        options.warningCheckInterval = .max
        let recording = try Recording.open(path: path, configuration: Self.configuration, options: options)
        #expect(recording.finalModel.queues[QueueID(1)]?.finished == Self.depth)
        var bytes: [UInt8] = []
        let summary = try PerfettoExport.export(recording) { bytes += $0 }
        #expect(summary.slices >= Self.depth, "\(summary)")
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let events = object?["traceEvents"] as? [[String: Any]] ?? []
        #expect(events.filter { $0["ph"] as? String == "X" }.count >= Self.depth)
    }
}
