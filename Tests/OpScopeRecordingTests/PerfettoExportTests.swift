import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// The export checked against the trace-event format (the JSON Object Format of Chrome's
/// "Trace Event Format" document, which Perfetto's importer reads): a `traceEvents` array;
/// every event with `ph`, `ts`, `pid`, `tid`; complete events with a non-negative `dur`, and
/// on one track nested or apart, never overlapping; `B`/`E` matched; flow starts and ends
/// paired by id; every track named.
@Suite("Export: Perfetto / Chrome trace-event JSON")
struct PerfettoExportTests {
    private let directory = TemporaryDirectory()

    private func export(_ script: EventScript) throws -> (json: [String: Any], summary: PerfettoExport.Summary, recording: Recording) {
        let path = directory.path("trace-\(UUID().uuidString.prefix(6)).jsonl")
        try record(ScriptedSource(script, info: SourceInfo(kind: .live, program: "traced \"program\"")), to: path)
        let recording = try Recording.open(path: path)
        var bytes: [UInt8] = []
        let summary = try PerfettoExport.export(recording) { bytes += $0 }
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return (try #require(object as? [String: Any]), summary, recording)
    }

    /// Every rule of the format the export relies on; returns the events.
    @discardableResult
    private func validate(_ json: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let events = try #require(json["traceEvents"] as? [[String: Any]], "a traceEvents array", sourceLocation: sourceLocation)
        var slices: [Int: [(start: Double, end: Double)]] = [:]
        var open: [Int: [String]] = [:]
        var flows: [String: (starts: Int, ends: Int)] = [:]
        var waits: [String: (begins: [Double], ends: [Double])] = [:]
        var namedTracks: Set<Int> = []
        var usedTracks: Set<Int> = []
        for event in events {
            let phase = try #require(event["ph"] as? String, "ph", sourceLocation: sourceLocation)
            let tid = try #require(event["tid"] as? Int, "tid in \(event)", sourceLocation: sourceLocation)
            #expect(event["pid"] is Int, "pid in \(event)", sourceLocation: sourceLocation)
            let ts = try #require((event["ts"] as? NSNumber)?.doubleValue, "ts in \(event)", sourceLocation: sourceLocation)
            #expect(ts >= 0, "ts in \(event)", sourceLocation: sourceLocation)
            #expect(event["name"] is String, "name in \(event)", sourceLocation: sourceLocation)
            switch phase {
            case "M":
                if event["name"] as? String == "thread_name" { namedTracks.insert(tid) }
                continue
            case "X":
                let duration = try #require((event["dur"] as? NSNumber)?.doubleValue, "dur", sourceLocation: sourceLocation)
                #expect(duration >= 0, sourceLocation: sourceLocation)
                slices[tid, default: []].append((ts, ts + duration))
            case "B": open[tid, default: []].append(event["name"] as? String ?? "")
            case "E": #expect(open[tid]?.popLast() != nil, "E without B on \(tid)", sourceLocation: sourceLocation)
            case "s", "f":
                let id = try #require(event["id"].map { "\($0)" }, "flow id", sourceLocation: sourceLocation)
                if phase == "s" { flows[id, default: (0, 0)].starts += 1 } else { flows[id, default: (0, 0)].ends += 1 }
            case "b", "e":
                // Async slices: a begin and an end per category and id, the end not before the begin.
                let key = "\(event["cat"] ?? "")/\(try #require(event["id"].map { "\($0)" }, "async id", sourceLocation: sourceLocation))"
                if phase == "b" { waits[key, default: ([], [])].begins.append(ts) } else { waits[key, default: ([], [])].ends.append(ts) }
            case "i":
                #expect(["t", "p", "g"].contains(event["s"] as? String ?? "t"), sourceLocation: sourceLocation)
            default:
                Issue.record("unexpected phase \(phase)", sourceLocation: sourceLocation)
            }
            usedTracks.insert(tid)
        }
        let unmatched = open.values.reduce(0) { $0 + $1.count }
        #expect(unmatched == 0, "unmatched B events", sourceLocation: sourceLocation)
        let unpaired = flows.values.filter { $0.starts != 1 || $0.ends != 1 }.count
        #expect(unpaired == 0, "flows paired", sourceLocation: sourceLocation)
        let unpairedWaits = waits.filter { $0.value.begins.count != 1 || $0.value.ends.count != 1 || $0.value.ends[0] < $0.value.begins[0] }
        #expect(unpairedWaits.isEmpty, "async slices paired: \(unpairedWaits.keys.sorted().prefix(5))", sourceLocation: sourceLocation)
        #expect(usedTracks.isSubset(of: namedTracks), "every track named", sourceLocation: sourceLocation)
        for (tid, list) in slices {
            // Sorted by start (longer first at equal starts), each slice either inside the one
            // before it or after it: a stack of enclosing slices.
            var stack: [Double] = []
            for slice in list.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
                while let top = stack.last, top <= slice.start { stack.removeLast() }
                if let top = stack.last {
                    #expect(slice.end <= top, "slices overlap on track \(tid)", sourceLocation: sourceLocation)
                }
                stack.append(slice.end)
            }
        }
        return events
    }

    @Test("the long program: valid, one slice per operation that ran, flows for dependencies, instants for cancels")
    func longProgram() throws {
        let script = longScript(count: 150)
        let (json, summary, _) = try export(script)
        let events = try validate(json)
        var ran: Set<Int> = []
        var cancelled = 0
        var dependenciesBetweenRuns = 0
        var state = StreamState(retention: StreamRetention(maximumFinished: 100_000))
        for event in script.events {
            state.apply(event)
            if case .started(let id) = event.change { ran.insert(id.rawValue) }
            if case .cancelled = event.change { cancelled += 1 }
        }
        for id in ran {
            dependenciesBetweenRuns += state[OperationID(id)]?.dependencies.filter { ran.contains($0.rawValue) }.count ?? 0
        }
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == ran.count && summary.slices == ran.count)
        #expect(Set(slices.compactMap { ($0["args"] as? [String: Any])?["operation"] as? Int }) == ran)
        #expect(summary.flows == dependenciesBetweenRuns)
        #expect(events.filter { ($0["name"] as? String)?.hasPrefix("cancelled #") == true }.count == cancelled)
        // Three queues, one of them with overlapping runs: more tracks than queues, each named after its queue.
        let names = events.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names.contains("q1 net") && names.contains("q2 parse") && names.contains("q3 ui"))
        #expect(names.contains { $0.hasPrefix("q1 net (lane") }, "concurrency shows as lanes")
        #expect(names.contains("warnings and lost events"))
    }

    @Test("the pipeline: runs still open at the end are closed there and marked; warnings are instants; names are escaped")
    func pipeline() throws {
        let (json, _, recording) = try export(pipelineScript())
        let events = try validate(json)
        let unfinished = events.filter { (($0["args"] as? [String: Any])?["unfinished"] as? Bool) == true }
        // #1 and #2 are executing when the recording ends (#11 ran and finished).
        #expect(Set(unfinished.compactMap { ($0["args"] as? [String: Any])?["operation"] as? Int }) == [1, 2])
        let warnings = events.filter { $0["tid"] as? Int == 1 && $0["ph"] as? String == "i" }
        #expect(warnings.count == recording.marks.count && !warnings.isEmpty)
        let process = events.first { $0["name"] as? String == "process_name" }
        #expect((process?["args"] as? [String: Any])?["name"] as? String == "traced \"program\"")
        #expect((json["otherData"] as? [String: Any])?["program"] as? String == "traced \"program\"")
    }

    @Test("waits are in the trace: each operation's add to its start, and work that never started to the recording's end")
    func waits() throws {
        let script = stuckScript()
        let (json, summary, _) = try export(script)
        let events = try validate(json)
        var state = StreamState(retention: StreamRetention(maximumFinished: 100_000))
        for event in script.events { state.apply(event) }
        var added = 0, neverStarted: Set<Int> = []
        state.operations.forEach { pointer in
            added += 1
            if pointer.pointee.startedAt == nil, pointer.pointee.finishedAt == nil { neverStarted.insert(Int(pointer.pointee.id.rawValue)) }
        }
        let begins = events.filter { $0["ph"] as? String == "b" && $0["cat"] as? String == "wait" }
        #expect(begins.count == added && summary.waits == added, "a wait per operation added: \(begins.count) of \(added)")
        let open = events.filter { $0["ph"] as? String == "e" && (($0["args"] as? [String: Any])?["neverStarted"] as? Bool) == true }
        let openIDs = Set(open.compactMap { ($0["name"] as? String)?.split(separator: " ").dropFirst().first.flatMap { Int($0.dropFirst()) } })
        #expect(!neverStarted.isEmpty && openIDs == neverStarted, "never started: \(neverStarted.sorted()), marked: \(openIDs.sorted())")
    }

    @Test("what ran before the recording started (the first keyframe's history) is in the trace too")
    func history() throws {
        var before = EventScript()
        before.queue(1, "old")
        before.add(1, queue: 1, "earlier")
        before.run(1)
        var history = StreamState()
        for event in before.events { history.apply(event) }
        var after = EventScript()
        after.time = before.time
        after.add(2, queue: 1, "later", after: [1])
        after.start(2)
        after.finish(2)
        var events = after.events
        for index in events.indices { events[index].sequence += UInt64(before.events.count) }
        let source = BatchSource([EventBatch(start: .keyframe(history), events: events, droppedTotal: 0)], now: before.time)
        let path = directory.path("history.jsonl")
        try record(source, to: path)
        var bytes: [UInt8] = []
        let summary = try PerfettoExport.export(try Recording.open(path: path)) { bytes += $0 }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        try validate(json)
        #expect(summary.slices == 2 && summary.flows == 1)
    }

    @Test("the checks catch what a broken trace does: overlapping slices, an unmatched B, a flow without its end, an unnamed track")
    func checksCatchBrokenTraces() throws {
        let named: [String: Any] = ["ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "ts": 0, "args": ["name": "q1"]]
        let broken: [[[String: Any]]] = [
            [named, ["ph": "X", "name": "a", "pid": 1, "tid": 2, "ts": 0, "dur": 10],
             ["ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": 5, "dur": 10]],
            [named, ["ph": "B", "name": "a", "pid": 1, "tid": 2, "ts": 0]],
            [named, ["ph": "s", "name": "d", "id": 1, "pid": 1, "tid": 2, "ts": 0]],
            [["ph": "X", "name": "a", "pid": 1, "tid": 3, "ts": 0, "dur": 1]],
        ]
        for events in broken {
            withKnownIssue { try validate(["traceEvents": events]) }
        }
        // Nested and apart is fine.
        try validate(["traceEvents": [named, ["ph": "X", "name": "a", "pid": 1, "tid": 2, "ts": 0, "dur": 10],
                                      ["ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": 2, "dur": 3],
                                      ["ph": "X", "name": "c", "pid": 1, "tid": 2, "ts": 10, "dur": 3]]])
    }
}
