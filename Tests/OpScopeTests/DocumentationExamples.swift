import Foundation
import OpScope

// The code of the OpScope documentation's articles (Sources/OpScope/OpScope.docc), block by
// block, so that the compiler holds every example to the real API.
// `DocumentationExampleTests` checks that each block of the articles is here, line for line,
// and runs the ones that need no terminal and write no file.

/// Stands for the program's own work in the examples.
private func resize() {}

/// Stands for asynchronous work that calls `done` when it ends.
private func send(_ done: @escaping @Sendable () -> Void) {
    DispatchQueue.global().async { done() }
}

/// "Observe your queues".
enum ObserveYourQueuesExamples {
    static func monitorAndQueues() {
        let monitor = OperationMonitor()
        let images = ObservedOperationQueue(monitor: monitor, name: "images", maxConcurrentOperationCount: 2)
        images.addOperation { resize() }               // every key change reported exactly
        monitor.track(OperationQueue.main)              // a queue you did not create: sampled
    }

    static func baseClasses(_ images: ObservedOperationQueue) {
        final class Thumbnail: ObservableOperation, @unchecked Sendable {
            override func main() {
                guard !isCancelled else { return }
                resize()
            }
        }

        final class Upload: ObservableAsyncOperation, @unchecked Sendable {
            override func execute() {
                send { [self] in finish() }             // finish() when the asynchronous work ends
            }
        }

        images.addOperation(Thumbnail())
        images.addOperation(Upload())
        images.addOperation(ObservableBlockOperation { resize() })
    }

    static func frameworkQueue(_ monitor: OperationMonitor) -> OperationQueue {
        final class FrameworkQueue: OperationQueue, @unchecked Sendable {
            let monitor: OperationMonitor
            init(monitor: OperationMonitor) {
                self.monitor = monitor
                super.init()
            }
            override func addOperation(_ operation: Operation) {
                monitor.willAdd(operation, to: self)    // before Foundation gets it
                super.addOperation(operation)
            }
        }
        return FrameworkQueue(monitor: monitor)
    }

    static func commands(_ monitor: OperationMonitor, _ images: ObservedOperationQueue) {
        switch monitor.perform(.setSuspended(queue: images.queueID, suspended: true)) {
        case .success(let receipt): print(receipt.message)
        case .failure(let refusal): print(refusal.message)   // nothing was changed
        }
    }

    static func catalog(_ monitor: OperationMonitor, _ images: ObservedOperationQueue) throws {
        try monitor.catalog.register("resize", summary: "resize one image (0.5 s)", queue: images) { index in
            BlockOperation { Thread.sleep(forTimeInterval: 0.5) }
        }
    }

    static func configuration() -> OperationMonitor {
        var configuration = OperationMonitor.Configuration()
        configuration.history = StreamRetention(maximumFinished: 100_000, maximumAge: nil, historyLimit: 12)
        configuration.samplingInterval = .milliseconds(20)
        let monitor = OperationMonitor(configuration: configuration)
        return monitor
    }
}

/// "Embed the dashboard".
enum EmbedTheDashboardExamples {
    static func program() throws {
        let monitor = OperationMonitor()
        let images = ObservedOperationQueue(monitor: monitor, name: "images", maxConcurrentOperationCount: 2)
        try monitor.catalog.register("resize", summary: "resize one image (0.5 s)", queue: images) { index in
            BlockOperation { Thread.sleep(forTimeInterval: 0.5) }
        }
        for _ in 0..<8 { images.addOperation { Thread.sleep(forTimeInterval: 0.5) } }

        if isatty(STDOUT_FILENO) == 1 {
            try OpScopeDashboard.run(monitor)                        // until q
        } else {
            let report = OpScopeDashboard.report(monitor)            // the state, in-process
            print(report.jsonString())
        }
    }

    static func fromAsyncCode(_ monitor: OperationMonitor) async throws {
        try await OpScopeDashboard.run(monitor)
    }

    static func options(_ monitor: OperationMonitor) throws {
        var options = SessionOptions()
        options.caption = "image pipeline"
        options.mouse = false
        options.framesPerSecond = 15
        try OpScopeDashboard.run(monitor, options: options)
    }

    static func testTerminal(_ monitor: OperationMonitor) -> (screen: String, ending: SessionEnding?) {
        let terminal = TestTerminal(width: 100, height: 30)
        var session = Session(source: monitor)
        _ = session.step(on: terminal)                  // keys, then events, then a frame
        print(terminal.text)
        terminal.send(.character("q"))
        let ending = session.step(on: terminal)         // .quit
        return (terminal.text, ending)
    }

    static func report(_ monitor: OperationMonitor) throws {
        let report = OpScopeDashboard.report(monitor)
        print(ReportText.render(report))
        try Data(report.json()).write(to: URL(fileURLWithPath: "report.json"))
    }

    static func observeAndGraph(_ monitor: OperationMonitor) throws {
        let later = OpScopeDashboard.observe(monitor, for: 2)
        let graph = OpScopeDashboard.graph(monitor, format: .mermaid)
        try graph.write(toFile: "graph.mmd", atomically: true, encoding: .utf8)
        _ = later
    }

    static func record(_ monitor: OperationMonitor) throws {
        let recorder = try OpScopeDashboard.record(monitor, to: URL(fileURLWithPath: "run.jsonl"))
        defer { recorder.stop() }                                  // writes the end line
        resize()
    }

    static func agent(_ monitor: OperationMonitor) throws {
        let agent = try OpScopeAgent.start(monitor, readOnly: true)
        defer { agent.stop() }
        resize()
    }
}

/// "Consume the event stream".
enum ConsumeTheEventStreamExamples {
    static func subscribe(_ monitor: OperationMonitor) {
        let subscription = monitor.subscribe(SubscriptionRequest(consumer: "logger"))
        defer { subscription.close() }
        var model = DashboardModel()
        for _ in 0..<100 {
            let batch = subscription.next(limit: 4_096)
            if model.apply(batch) { subscription.resynchronize() }   // the next batch starts with a keyframe
            for event in batch.events where event.change.kind == .finished {
                print("#\(event.change.operation!) finished (\(event.origin))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        print(model.warnings().map(\.message))
    }

    static func ingest(_ monitor: OperationMonitor) -> [Diagnosis] {
        var ingest = EventIngest(source: monitor, configuration: ModelConfiguration(), consumer: "watcher")
        defer { ingest.close() }
        _ = ingest.ingest()
        let stuck = ingest.model.report().diagnoses
        return stuck
    }

    static func read() throws {
        let reader = try EventStreamReader(path: "run.jsonl")
        print(reader.header.program)
        while let record = try reader.next() {
            switch record.line {
            case .event(let event): print(event.sequence, event.change.kind)
            case .keyframe(let keyframe): print(try keyframe.decodeState(as: StreamState.self).operations.count)
            case .header, .dropped, .end, .unknown: break
            }
        }
    }

    static func encode(_ event: MonitorEvent) -> [UInt8] {
        var line = StreamLine.event(event).encoded
        line.append(UInt8(ascii: "\n"))
        return line
    }

    static func recording() throws {
        let recording = try Recording.open(path: "run.jsonl")
        let moment = try recording.model(atSeconds: 7.5)
        print(moment.report().jsonString())
    }

    static func remote(_ socketPath: String) throws -> OpScopeReport {
        let remote = try RemoteSource(path: socketPath, reconnects: false)
        defer { remote.close() }
        let state = try OpScopeAttach.report(remote)
        return state
    }
}
