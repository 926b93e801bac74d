import EventCoding
import Foundation
import OpScopeRecording
import OpScopeTestSupport
import OperationEvents
import Testing

/// A directory of the test's own, removed when the value goes.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-recording-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A source that hands out batches the test prepared, one per `next`, and counts how often it
/// was asked to start afresh: for drops, gaps and keyframe starts.
final class BatchSource: EventSource, @unchecked Sendable {
    // Safety: `batches`, `resyncs` and `clock` are guarded by `lock`.
    private let lock = NSLock()
    private var batches: [EventBatch]
    private var resyncCount = 0
    private var clock: UInt64

    init(_ batches: [EventBatch], now: UInt64 = 1_000_000_000) {
        self.batches = batches
        clock = now
    }

    var sourceInfo: SourceInfo { SourceInfo(kind: .live, program: "batches") }
    var workTemplates: [WorkTemplateInfo] { [] }
    func now() -> UInt64 { lock.withLock { clock } }
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError> { .failure(CommandError(.unsupported, "no")) }
    func subscribe(_ request: SubscriptionRequest) -> any EventSubscription { Subscription(self) }
    var resyncs: Int { lock.withLock { resyncCount } }

    func append(_ batch: EventBatch) { lock.withLock { batches.append(batch) } }

    fileprivate func take() -> EventBatch {
        lock.withLock {
            guard !batches.isEmpty else { return EventBatch(events: [], droppedTotal: batches.last?.droppedTotal ?? lastDropped) }
            let batch = batches.removeFirst()
            lastDropped = batch.droppedTotal
            return batch
        }
    }

    private var lastDropped = 0

    fileprivate func resync() { lock.withLock { resyncCount += 1 } }

    private final class Subscription: EventSubscription, @unchecked Sendable {
        let consumer = "recorder"
        let source: BatchSource
        init(_ source: BatchSource) { self.source = source }
        func next(limit: Int) -> EventBatch { source.take() }
        func resynchronize() { source.resync() }
        func close() {}
    }
}

/// Every line of a recording file, decoded (a test fails on a bad line).
func lines(of path: String, sourceLocation: SourceLocation = #_sourceLocation) -> [StreamLine] {
    do {
        return try EventStreamReader(path: path).readAll().map(\.line)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return []
    }
}

/// Records `source` until the test has appended everything (`feed` runs while the recorder
/// reads), then stops; returns the recorder.
@discardableResult
func record(_ source: any EventSource, to path: String, options: RecorderOptions = RecorderOptions(),
            feed: (Recorder) -> Void = { _ in }) throws -> Recorder {
    let recorder = try Recorder(source: source, path: path, options: options)
    feed(recorder)
    recorder.sync()
    recorder.stop()
    return recorder
}

/// A longer program than the pipeline: `count` operations on three queues, up to four running
/// at once, some depending on one that finished before, some cancelled; the clock moves by
/// `step` per event.
func longScript(count: Int, step: UInt64 = 1_000_000, seed: UInt64 = 7) -> EventScript {
    var random = SeededRandom(seed: seed)
    var script = EventScript()
    script.queue(1, "net", max: 3)
    script.queue(2, "parse", max: 2)
    script.queue(3, "ui", max: 1)
    var running: [Int] = []
    var finished: [Int] = []
    for id in 1...count {
        let queue = Int.random(in: 1...3, using: &random)
        let dependencies = !finished.isEmpty && Bool.random(using: &random) ? [finished.randomElement(using: &random)!] : []
        script.add(id, queue: queue, "op-\(id)", after: dependencies, async: id % 7 == 0)
        if !dependencies.isEmpty { script.ready(id) }
        if id % 11 == 0 {
            script.cancel(id)
            script.finish(id, cancelled: true, after: step)
            finished.append(id)
            continue
        }
        script.start(id, after: step)
        running.append(id)
        if running.count >= 4 || Int.random(in: 0..<3, using: &random) == 0 {
            let index = Int.random(in: 0..<running.count, using: &random)
            let done = running.remove(at: index)
            script.finish(done, after: step * UInt64.random(in: 1...5, using: &random))
            finished.append(done)
        }
    }
    for id in running { script.finish(id, after: step) }
    return script
}
