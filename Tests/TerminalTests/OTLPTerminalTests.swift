import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// OpScope's spans as an OpenTelemetry collector gets them, decoded with the OpenTelemetry
/// project's own protobuf definitions (PyPI `opentelemetry-proto`, in `scripts/otlp-receiver.py`):
/// the OTLP JSON file of a recording (any build), and OTLP/HTTP sent live by served demos and by
/// `opscope export --format otlp` (a build with the OTLP trait, named by `OPSCOPE_OTLP_BINARY`).
@Suite("Terminal: spans for an OpenTelemetry collector", .serialized, .timeLimit(.minutes(3)))
struct OTLPTerminalTests {
    /// The opscope built with `--traits OTLP`, when the run names one.
    static let otlpBinary = ProcessInfo.processInfo.environment["OPSCOPE_OTLP_BINARY"].flatMap {
        FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil
    }

    @Test("a recording as an OTLP JSON file: it parses as ExportTraceServiceRequest; cycle members unfinished and linked")
    func jsonFile() throws {
        let directory = try Fleet.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = "\(directory)/stuck.jsonl"
        let recorded = ChildProcess.run([Tmux.opscope, "record", "stuck", recording, "--for", "3"], timeout: 60)
        try #require(recorded.status == 0, "\(recorded.output)")
        let file = "\(directory)/stuck.otlp.json"
        let exported = ChildProcess.run([Tmux.opscope, "export", recording, "--format", "otlp-json", "-o", file], timeout: 60)
        try #require(exported.status == 0, "\(exported.output)")
        #expect(exported.output.contains("operation spans"), "\(exported.output)")
        let spans = try Collected.check(file)
        try Collected.expectStuckDemo(spans, live: false)
        // The program's finished work is there too, each with its started event.
        let refreshes = spans.filter { $0.name.hasPrefix("refresh-") && !$0.unfinished }
        #expect(!refreshes.isEmpty)
        for span in refreshes {
            #expect(span.events.contains { $0.name == "opscope.operation.started" }, "\(span.name)")
            #expect(span.attributes["opscope.operation.run_seconds"] != nil)
        }
        // Nothing else writes to standard output with -o; without it, the file's text does.
        let printed = ChildProcess.run([Tmux.opscope, "export", recording, "--format", "otlp-json"], timeout: 60)
        #expect(printed.output == (try String(contentsOfFile: file, encoding: .utf8)))
    }

    @Test("--format otlp and --otlp are refused with the way to build them, where the build has no trait")
    func withoutTrait() throws {
        let plain = ChildProcess.run(["sh", "-c", "'\(Tmux.opscope)' demo pipeline --serve --otlp 2>&1"], timeout: 30)
        guard plain.status != 0 else {
            // This opscope was built with the trait itself: nothing to refuse.
            return
        }
        #expect(plain.output.contains("--traits OTLP"), "\(plain.output)")
        let badURL = ChildProcess.run(["sh", "-c", "'\(Tmux.opscope)' export /nonexistent --format otlp-json --endpoint http://x 2>&1"],
                                      timeout: 30)
        #expect(badURL.status != 0)
        #expect(badURL.output.contains("--endpoint goes with --format otlp"), "\(badURL.output)")
    }

    @Test("served pipeline: a span per finished operation, linked to its dependency's span, with its facts",
          .enabled(if: otlpBinary != nil, "needs an opscope built with --traits OTLP in OPSCOPE_OTLP_BINARY"))
    func livePipeline() throws {
        let binary = try #require(Self.otlpBinary)
        let receiver = try Receiver()
        defer { receiver.stop() }
        let output = "\(receiver.directory)/pipeline.out"
        let demo = try Fleet.start(binary, ["demo", "pipeline", "--serve", "--speed", "4", "--socket", "\(receiver.directory)/p.sock",
                                            "--otlp", receiver.url], output: output)
        defer { if demo.isRunning { demo.terminate() } }
        // Three whole chains (download → parse → update) sent while it runs.
        _ = try Fleet.await("three finished update spans") {
            let updates = receiver.spans().filter { $0.name.hasPrefix("update-") && !$0.unfinished }
            return updates.count >= 3 ? true : nil
        }
        kill(demo.processIdentifier, SIGTERM)
        demo.waitUntilExit()
        let spans = receiver.spans()
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(printed.contains("traces and metrics over OTLP to \(receiver.url)/v1/traces"), "\(printed)")
        let root = try #require(spans.first { $0.name == "opscope session pipeline" }, "the root span comes at the stop")
        #expect(root.resource["service.name"] == .string("pipeline"))
        #expect(root.resource["process.pid"] == .string(String(demo.processIdentifier)), "swift-otel sends resource attributes as strings")
        let byID = Dictionary(spans.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
        let finished = spans.filter { $0.name != root.name && !$0.unfinished }
        #expect(finished.count >= 9)
        for span in spans where span.name != root.name {
            #expect(span.parentSpanID == root.spanID, "\(span.name)")
            #expect(span.traceID == root.traceID)
            #expect(span.start <= span.end)
        }
        for span in finished {
            let queue = span.name.hasPrefix("download-") ? "net" : span.name.hasPrefix("parse-") ? "parse" : "ui"
            #expect(span.attributes["opscope.queue.name"] == .string(queue), "\(span.name)")
            #expect(span.attributes["opscope.operation.asynchronous"] == .bool(queue == "net"), "\(span.name)")
            #expect(span.attributes["opscope.operation.observation"] == .string("instrumented"))
            #expect(span.attributes["opscope.operation.started.seen"] == .string("exact"))
            #expect(span.attributes["opscope.operation.finished.seen"] == .string("exact"))
            #expect(span.attributes["opscope.operation.qos"] != nil)
            #expect(span.attributes["opscope.operation.priority"] == .string("normal"))
            #expect(span.attributes["opscope.operation.priority.effective"] != nil)
            #expect(span.attributes["opscope.operation.cancelled"] == .bool(false))
            #expect(span.status == 0, "\(span.name): \(span.status)")
            let started = try #require(span.events.first { $0.name == "opscope.operation.started" }, "\(span.name)")
            #expect(span.start <= started.time && started.time <= span.end)
            let index = span.name.split(separator: "-").last.map(String.init) ?? ""
            let dependency = span.name.hasPrefix("update-") ? "parse-\(index)" : span.name.hasPrefix("parse-") ? "download-\(index)" : nil
            if let dependency {
                #expect(span.links.count == 1, "\(span.name): \(span.links)")
                let linked = try #require(span.links.first.flatMap { byID[$0] }, "\(span.name)'s link names a span sent")
                #expect(linked.name == dependency)
                #expect(linked.end <= started.time, "\(span.name) started after \(dependency) finished")
                #expect(span.attributes["opscope.operation.dependencies"] == .ints([linked.attributes["opscope.operation.id"]?.int ?? -1]))
            } else {
                #expect(span.links.isEmpty)
            }
        }
        // What had not finished at the stop came as unfinished spans, with an error status.
        for span in spans where span.unfinished {
            #expect(span.status == 2)
            #expect(span.attributes["opscope.operation.state"] != .string("finished"))
        }
        #expect(receiver.metricNames().contains("opscope_queue_operations"), "the metrics went over OTLP too")
    }

    @Test("served stuck: the cycle and the never-finishing operation are sent before the stop, marked unfinished",
          .enabled(if: otlpBinary != nil, "needs an opscope built with --traits OTLP in OPSCOPE_OTLP_BINARY"))
    func liveStuck() throws {
        let binary = try #require(Self.otlpBinary)
        let receiver = try Receiver()
        defer { receiver.stop() }
        let demo = try Fleet.start(binary, ["demo", "stuck", "--serve", "--socket", "\(receiver.directory)/s.sock", "--otlp", receiver.url],
                                   output: "\(receiver.directory)/stuck.out")
        defer { if demo.isRunning { demo.terminate() } }
        // Past the long-running threshold (10 s) the never-finishing operation is stuck, and
        // goes out without waiting for a finish.
        let early = try Fleet.await("the never-finishing operation's span, while the program runs", timeout: 90) {
            let spans = receiver.spans()
            return spans.contains { $0.name == "sync-account" } ? spans : nil
        }
        #expect(demo.isRunning)
        try Collected.expectStuckDemo(early, live: true)
        kill(demo.processIdentifier, SIGTERM)
        demo.waitUntilExit()
        let all = receiver.spans()
        // The suspended queue's work is not the program's fault: it went at the stop.
        let thumbnails = all.filter { $0.name.hasPrefix("thumbnail-") }
        #expect(thumbnails.count == 3)
        for span in thumbnails {
            #expect(span.unfinished)
            #expect(span.attributes["opscope.stuck.cause"] == .string("queueSuspended"))
        }
        #expect(!early.contains { $0.name.hasPrefix("thumbnail-") })
    }

    @Test("opscope export --format otlp sends a recording's spans: the same spans the JSON file holds",
          .enabled(if: otlpBinary != nil, "needs an opscope built with --traits OTLP in OPSCOPE_OTLP_BINARY"))
    func exportToCollector() throws {
        let binary = try #require(Self.otlpBinary)
        let receiver = try Receiver()
        defer { receiver.stop() }
        let recording = "\(receiver.directory)/stuck.jsonl"
        let recorded = ChildProcess.run([binary, "record", "stuck", recording, "--for", "3"], timeout: 60)
        try #require(recorded.status == 0, "\(recorded.output)")
        let sent = ChildProcess.run([binary, "export", recording, "--format", "otlp", "--endpoint", receiver.url], timeout: 60)
        #expect(sent.status == 0, "\(sent.output)")
        #expect(sent.output.contains("to \(receiver.url)/v1/traces"), "\(sent.output)")
        let file = "\(receiver.directory)/stuck.otlp.json"
        let written = ChildProcess.run([binary, "export", recording, "--format", "otlp-json", "-o", file], timeout: 60)
        try #require(written.status == 0, "\(written.output)")
        let fromFile = try Collected.check(file)
        let received = try Fleet.await("the sent spans") {
            let spans = receiver.spans()
            return spans.count >= fromFile.count ? spans : nil
        }
        #expect(received.map(\.summary).sorted() == fromFile.map(\.summary).sorted())
        try Collected.expectStuckDemo(received, live: false)

        // No collector there: said so, and the exit status says it.
        let port = try Fleet.freePort()
        let refused = ChildProcess.run(["sh", "-c", "'\(binary)' export '\(recording)' --format otlp --endpoint http://127.0.0.1:\(port) 2>&1"],
                                       timeout: 90)
        #expect(refused.status != 0, "\(refused.output)")
        #expect(refused.output.contains("OTLP export failed"), "\(refused.output)")
    }
}

/// Spans as the receiver decoded them.
struct CollectedSpan {
    enum Value: Equatable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        case ints([Int64])
        case other

        /// `{"t": KIND, "v": VALUE}` as the receiver writes it.
        init(_ json: Any) {
            let tagged = json as? [String: Any] ?? [:]
            switch tagged["t"] as? String {
            case "string": self = (tagged["v"] as? String).map(Value.string) ?? .other
            case "int": self = (tagged["v"] as? NSNumber).map { .int($0.int64Value) } ?? .other
            case "double": self = (tagged["v"] as? NSNumber).map { .double($0.doubleValue) } ?? .other
            case "bool": self = (tagged["v"] as? NSNumber).map { .bool($0.boolValue) } ?? (tagged["v"] as? Bool).map(Value.bool) ?? .other
            case "array": self = .ints(((tagged["v"] as? [NSNumber]) ?? []).map(\.int64Value))
            default: self = .other
            }
        }

        var int: Int64? {
            if case .int(let number) = self { return number }
            return nil
        }
    }

    struct Event {
        var name: String
        var time: UInt64
    }

    var name: String
    var traceID: String
    var spanID: String
    var parentSpanID: String
    var start: UInt64
    var end: UInt64
    var attributes: [String: Value]
    var resource: [String: Value]
    var events: [Event]
    var links: [String]
    var status: Int

    var unfinished: Bool { attributes["opscope.operation.unfinished"] == .bool(true) }

    /// What two exports of one recording agree on (their trace and span ids differ).
    var summary: String {
        "\(name) \(start) \(end) \(links.count) \(status) \(events.map(\.name)) \(attributes["opscope.stuck.cause"].map { "\($0)" } ?? "")"
    }

    init?(line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        func values(_ any: Any?) -> [String: Value] {
            ((any as? [String: Any]) ?? [:]).mapValues(Value.init)
        }
        name = object["name"] as? String ?? ""
        traceID = object["traceId"] as? String ?? ""
        spanID = object["spanId"] as? String ?? ""
        parentSpanID = object["parentSpanId"] as? String ?? ""
        start = (object["start"] as? NSNumber)?.uint64Value ?? 0
        end = (object["end"] as? NSNumber)?.uint64Value ?? 0
        attributes = values(object["attributes"])
        resource = values(object["resource"])
        events = ((object["events"] as? [[String: Any]]) ?? []).map {
            Event(name: $0["name"] as? String ?? "", time: ($0["time"] as? NSNumber)?.uint64Value ?? 0)
        }
        links = ((object["links"] as? [[String: Any]]) ?? []).compactMap { $0["spanId"] as? String }
        status = (object["status"] as? [String: Any])?["code"] as? Int ?? 0
    }
}

/// Reading and checking what the receiver decoded.
enum Collected {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/otlp-receiver.py").path

    /// The spans of an OTLP JSON file, parsed strictly by the OpenTelemetry definitions.
    static func check(_ file: String) throws -> [CollectedSpan] {
        let result = ChildProcess.run(["python3", script, "check", file], timeout: 60)
        guard result.status == 0 else { throw Fleet.FleetError("\(file) does not parse as OTLP JSON: \(result.output)") }
        return result.output.split(separator: "\n").compactMap(CollectedSpan.init(line:))
    }

    /// The stuck demo's lessons, as spans: the cycle's two members link each other; the
    /// never-finishing operation and what waits on it are unfinished with an error status.
    static func expectStuckDemo(_ spans: [CollectedSpan], live: Bool) throws {
        let config = try #require(spans.first { $0.name == "load-config" })
        let plugins = try #require(spans.first { $0.name == "load-plugins" })
        for span in [config, plugins] {
            #expect(span.unfinished)
            #expect(span.status == 2)
            #expect(span.attributes["opscope.stuck.cause"] == .string("cycle"))
            #expect(span.attributes["opscope.operation.state"] == .string("pending"))
        }
        #expect(config.links == [plugins.spanID])
        #expect(plugins.links == [config.spanID])
        let hanging = try #require(spans.first { $0.name == "sync-account" })
        #expect(hanging.unfinished)
        #expect(hanging.status == 2)
        #expect(hanging.attributes["opscope.operation.state"] == .string("executing"))
        #expect(hanging.attributes["opscope.operation.asynchronous"] == .bool(true))
        #expect(hanging.events.contains { $0.name == "opscope.operation.started" })
        if live {
            #expect(hanging.attributes["opscope.stuck.cause"] == .string("neverFinishes"))
            let render = try #require(spans.first { $0.name == "render-feed" }, "what waits on it is stuck with it")
            #expect(render.links == [hanging.spanID])
            #expect(render.attributes["opscope.stuck.cause"] == .string("neverFinishes"))
        }
        let launch = try #require(spans.first { $0.name == "launch" })
        #expect(launch.attributes["opscope.stuck.cause"] == .string("notInAnyQueue"))
    }
}

/// `scripts/otlp-receiver.py serve` on a free loopback port, in a directory of its own.
///
/// Spawned and reaped here (not with Foundation's `Process`, which on Linux missed this child's
/// exit and waited forever).
final class Receiver {
    let directory: String
    let url: String
    private let pid: pid_t

    init() throws {
        directory = try Fleet.temporaryDirectory()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "\(directory)/receiver.out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = ["python3", Collected.script, "serve", directory]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, "python3", &actions, nil, &argv, environ)
        guard status == 0 else { throw Fleet.FleetError("python3 did not start: \(String(cString: strerror(status)))") }
        pid = child
        let directory = directory
        do {
            let port = try Fleet.await("the receiver's port") { try? String(contentsOfFile: "\(directory)/port", encoding: .utf8) }
            url = "http://127.0.0.1:\(port)"
        } catch {
            kill(child, SIGKILL)
            var ended: Int32 = 0
            waitpid(child, &ended, 0)
            throw error
        }
    }

    func spans() -> [CollectedSpan] {
        ((try? String(contentsOfFile: "\(directory)/spans.jsonl", encoding: .utf8)) ?? "").split(separator: "\n").compactMap(CollectedSpan.init(line:))
    }

    func metricNames() -> Set<String> {
        let text = (try? String(contentsOfFile: "\(directory)/metrics.jsonl", encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String
        })
    }

    func stop() {
        kill(pid, SIGKILL)
        var ended: Int32 = 0
        waitpid(pid, &ended, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
