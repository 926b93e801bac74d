import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

/// `OpScopeReport.json()` writes the report without Foundation's encoder: it must write exactly
/// what `JSONEncoder` with `.sortedKeys` writes, and read back equal.
@Suite("Model: the report's own JSON writer")
struct ReportJSONTests {
    static func sortedJSON(_ report: OpScopeReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    @Test("the same text as JSONEncoder with sorted keys, for a run with every kind of fact")
    func sameAsFoundation() throws {
        var script = ReportStoryTests.run()
        // Names that need escaping, and some that do not but are not ASCII.
        script.queue(4, "a/b \"quoted\" back\\slash")
        script.add(40, queue: 4, "tab\there, newline\nthere, bell\u{7}, nul\u{0}, unit\u{1F}", priority: .veryHigh, qos: .userInitiated)
        script.add(41, queue: 4, "µs ∞ — 日本 🙂", after: [40], priority: .veryLow, qos: .background, barrier: true)
        script.cancel(41)
        var model = DashboardModel(configuration: .report)
        model.apply(EventBatch(events: script.events, droppedTotal: 7))
        let report = model.report(now: script.time + 60_000_000_000)
        let written = String(decoding: report.json(), as: UTF8.self)
        let expected = try Self.sortedJSON(report)
        #expect(written == expected, "first difference at \(zip(written, expected).prefix { $0 == $1 }.count)")
        #expect(try JSONDecoder().decode(OpScopeReport.self, from: Data(report.json())) == report)
    }

    @Test("a queue's waiting work is split: ready of it apart, as the dashboard's queue line shows it")
    func readyApart() throws {
        var script = EventScript()
        script.queue(1, "work", max: 1)
        script.add(1, queue: 1, "runs")
        script.start(1)
        script.add(2, queue: 1, "ready")
        script.add(3, queue: 1, "waits", after: [1])
        let report = script.model().report()
        #expect(report.queues.first?.pending == 2 && report.queues.first?.ready == 1)
        #expect(String(decoding: report.json(), as: UTF8.self).contains(#""pending":2,"ready":1,"#))
    }

    @Test("empty and keyframe-started reports too")
    func otherShapes() throws {
        let empty = DashboardModel().report()
        #expect(String(decoding: empty.json(), as: UTF8.self) == (try Self.sortedJSON(empty)))
        var late = DashboardModel(configuration: .report)
        late.apply(EventBatch(start: .keyframe(try ReportStoryTests.history(ReportStoryTests.run(), keep: 3)), events: [], droppedTotal: 0))
        let report = late.report()
        #expect(String(decoding: report.json(), as: UTF8.self) == (try Self.sortedJSON(report)))
    }
}
