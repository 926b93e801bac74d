import DashboardModel
import EventCoding
import Foundation
import OperationEvents
import OpScopeTelemetry
import OpScopeTestSupport
import Testing

/// Operations as spans: one per finished operation with its facts, dependencies as links, the
/// wait as a `started` event; stuck work exported unfinished at once, the rest at the close.
@Suite("Telemetry: operations as spans")
struct SpanCollectorTests {
    /// Queue 1 "net" and 2 "parse": #1 download (async, utility) runs 20 ms after a 5 ms wait;
    /// #2 parse, added then, depends on it. #3 and #4 wait on each other. Queue 3 is suspended and holds #5.
    private func script() -> EventScript {
        var script = EventScript()
        script.queue(1, "net")
        script.queue(2, "parse")
        script.queue(3, "paused", suspended: true)
        script.add(1, queue: 1, "download-1", priority: .high, effective: .high, qos: .utility, async: true)
        script.start(1, after: 5_000_000)
        script.finish(1, after: 20_000_000)
        script.add(2, queue: 2, "parse-1", after: [1])
        script.add(3, queue: 2, "load-config", after: [4])
        script.add(4, queue: 2, "load-plugins", after: [3])
        script.add(5, queue: 3, "thumbnail")
        return script
    }

    @Test("a finished operation is one span: added to finished, its facts, a started event")
    func finishedSpan() throws {
        let script = script()
        let model = script.model()
        var collector = SpanCollector()
        let spans = collector.finished(script.events, in: model)
        #expect(spans.map(\.operation) == [1])
        let span = try #require(spans.first)
        let added = try #require(model.operations[1]).addedAt
        #expect(span.name == "download-1")
        #expect(span.start == added)
        #expect(span.end == added + 25_000_000)
        #expect(!span.unfinished)
        #expect(span.statusMessage == nil)
        #expect(span.attribute(.queueName) == .string("net"))
        #expect(span.attribute(.queueID) == .int(1))
        #expect(span.attribute(.qualityOfService) == .string("utility"))
        #expect(span.attribute(.priority) == .string("high"))
        #expect(span.attribute(.effectivePriority) == .string("high"))
        #expect(span.attribute(.asynchronous) == .bool(true))
        #expect(span.attribute(.cancelled) == .bool(false))
        #expect(span.attribute(.startSeen) == .string("exact"))
        #expect(span.attribute(.finishSeen) == .string("exact"))
        #expect(span.attribute(.waitSeconds) == .double(0.005))
        #expect(span.attribute(.runSeconds) == .double(0.02))
        #expect(span.attribute(.unfinished) == nil)
        #expect(span.events.map(\.name) == [.started])
        #expect(span.events.first?.time == added + 5_000_000)
    }

    @Test("a dependency is a link; a cycle is exported at once, unfinished, its members linked")
    func linksAndStuck() throws {
        var script = script()
        script.start(2)
        script.finish(2)
        let model = script.model()
        var collector = SpanCollector()
        let finished = collector.finished(script.events, in: model)
        #expect(finished.map(\.operation) == [1, 2])
        #expect(finished.last?.links == [1])
        #expect(finished.last?.attribute(.dependencies) == .ints([1]))

        let stuck = collector.stuck(in: model)
        // The cycle is the program's problem; the suspended queue is not (yet): it waits.
        #expect(stuck.map(\.operation) == [3, 4])
        for span in stuck {
            #expect(span.unfinished)
            #expect(span.end == model.now)
            #expect(span.attribute(.stuckCause) == .string("cycle"))
            #expect(span.attribute(.unfinished) == .bool(true))
            #expect(span.statusMessage?.contains("stuck: cycle") == true)
        }
        #expect(stuck[0].links == [4])
        #expect(stuck[1].links == [3])
        #expect(collector.stuck(in: model).isEmpty, "exported once")

        let closed = collector.close(in: model)
        #expect(closed.map(\.operation) == [5])
        #expect(closed.first?.attribute(.stuckCause) == .string("queueSuspended"))
        #expect(collector.close(in: model).isEmpty)
    }

    @Test("a warning becomes an event of its operation's span, at the moment it was seen")
    func warningEvents() throws {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: 1, "stubborn")
        script.start(1)
        script.cancel(1)
        var configuration = ModelConfiguration()
        configuration.cancelledStillExecuting = 1_000_000
        var model = script.model(configuration)
        model.advance(to: script.time + 10_000_000)
        var collector = SpanCollector()
        collector.noteWarnings(in: model)
        collector.noteWarnings(in: model)
        var more = EventScript()
        more.time = model.now
        more.finish(1, cancelled: true)
        model.apply(EventBatch(events: more.events.map { event in
            var event = event
            event.sequence = model.stream.nextSequence
            return event
        }, droppedTotal: 0))
        let span = try #require(collector.finished(more.events, in: model).first)
        let warnings = span.events.filter { $0.name == .warning }
        #expect(warnings.count == 1, "noted once: \(span.events)")
        #expect(warnings.first?.time == script.time + 10_000_000)
        #expect(warnings.first?.attributes.first { $0.field == .warningKind }?.value == .string("cancelledStillExecuting"))
        #expect(span.events.contains { $0.name == .cancelled })
        #expect(span.attribute(.cancelled) == .bool(true))
    }

    @Test("OTLP JSON: the root span is every span's parent; links name the dependencies' span ids")
    func otlpJSON() throws {
        var script = script()
        script.start(2)
        script.finish(2)
        let model = script.model()
        var collector = SpanCollector()
        let spans = collector.finished(script.events, in: model) + collector.close(in: model)
        let header = StreamHeader(program: "pipeline", processID: 42, host: "box",
                                  startedAt: WallClockTime(nanosecondsSince1970: 1_700_000_000_000_000_000), startMonitorTime: 1_000_000_000)
        let session = TraceSession(header: header, start: 1_000_000_000, end: model.now, environment: [:])
        let bytes = try OTLPJSONTrace.encode(spans, session: session)
        #expect(bytes.last == 0x0A)
        #expect(!bytes.dropLast().contains(0x0A), "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let resourceSpans = try #require((object["resourceSpans"] as? [[String: Any]])?.first)
        let resource = try #require((resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
        #expect(resource.contains { $0["key"] as? String == "service.name" && ($0["value"] as? [String: Any])?["stringValue"] as? String == "pipeline" })
        let written = try #require(((resourceSpans["scopeSpans"] as? [[String: Any]])?.first)?["spans"] as? [[String: Any]])
        #expect(written.count == spans.count + 1)
        let root = written[0]
        #expect(root["parentSpanId"] == nil)
        let ids = Dictionary(uniqueKeysWithValues: written.dropFirst().map { ($0["name"] as! String, $0["spanId"] as! String) })
        #expect(Set(ids.values).count == ids.count, "distinct span ids")
        for span in written.dropFirst() {
            #expect(span["parentSpanId"] as? String == root["spanId"] as? String)
            #expect(span["traceId"] as? String == root["traceId"] as? String)
            #expect((span["traceId"] as? String)?.count == 32)
            #expect((span["spanId"] as? String)?.count == 16)
        }
        let parse = try #require(written.first { $0["name"] as? String == "parse-1" })
        #expect((parse["links"] as? [[String: Any]])?.map { $0["spanId"] as? String } == [ids["download-1"]])
        let download = try #require(written.first { $0["name"] as? String == "download-1" })
        // 1_700_000_000 s + the operation's time after the header's monitor time.
        let added = try #require(model.operations[1]).addedAt
        #expect(download["startTimeUnixNano"] as? String == String(1_700_000_000_000_000_000 + added - 1_000_000_000))
        let config = try #require(written.first { $0["name"] as? String == "load-config" })
        #expect((config["status"] as? [String: Any])?["code"] as? Int == 2)
        #expect((config["links"] as? [[String: Any]])?.map { $0["spanId"] as? String } == [ids["load-plugins"]])
        // The same recording, the same ids.
        #expect(try OTLPJSONTrace.encode(spans, session: session) == bytes)
    }
}
