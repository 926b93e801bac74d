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

    @Test("provenance: how each operation was observed and how each of its times was seen, kept through a keyframe")
    func provenance() throws {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: 1, "exact")
        script.run(1)
        script.add(2, queue: 1, "sampled start")
        script.emit(.started(operation: OperationID(2)), source: .sampled)
        script.finish(2)
        script.add(3, queue: 1, "waits", after: [4], ready: false)
        script.add(4, queue: 1, "deduced", observation: .sampled)
        // 4's finish (sampled, not seen) is deduced from its dependent's start; 3 was never
        // seen becoming ready.
        script.start(3)
        let model = script.model()
        let report = model.report()
        let seen = Dictionary(uniqueKeysWithValues: report.operations.map { ($0.name, $0.seen) })
        #expect(seen["exact"]??.allExact == true)
        #expect(seen["exact"]??.finished == .exact)
        #expect(seen["sampled start"]??.started == .sampled && seen["sampled start"]??.finished == .exact)
        #expect(seen["sampled start"]??.allExact == false)
        #expect(seen["deduced"]??.finished == .inferred && seen["deduced"]??.started == nil)
        #expect(report.operations.first { $0.name == "deduced" }?.observation == .sampled)
        #expect(seen["waits"]??.ready == .inferred && seen["waits"]??.started == .exact && seen["waits"]??.finished == nil)
        #expect(report.jsonString().contains(#""seen":{"added":"exact","finished":"inferred","ready":"exact"}"#), "\(report.jsonString())")
        // A consumer that starts from a keyframe knows the same.
        var loaded = DashboardModel(configuration: model.configuration)
        loaded.load(model.stream)
        #expect(loaded.report(now: report.time).operations.map(\.seen) == report.operations.map(\.seen))
        let decoded = try JSONDecoder().decode(StreamState.self, from: try JSONEncoder().encode(model.stream))
        var fromCoding = DashboardModel(configuration: model.configuration)
        fromCoding.load(decoded)
        #expect(fromCoding.report(now: report.time).operations.map(\.seen) == report.operations.map(\.seen))
    }
}
