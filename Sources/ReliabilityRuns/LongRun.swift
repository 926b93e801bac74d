import DashboardModel
import DashboardSession
import Foundation
import OpScopeAgent
import OpScopeRecording
import OperationBridge
import OperationEvents

/// The long run: operations through four observed queues (chains inside each batch, some
/// crossing queues, about 1% cancelled by the app) while three consumers read the same monitor
/// at once, as a person watching a program would have them: a dashboard session (on a test
/// terminal: only the screen is simulated), a recorder writing to a file, and an agent serving
/// a console attached over its socket (a second session, on a `RemoteSource`). Resident memory
/// is sampled as it goes and checked against a ceiling; at the end every operation must have
/// been released and every consumer must account for what it missed.
public struct LongRun: Sendable {
    /// Operations to submit.
    public var operations: Int
    /// Observed queues the operations go to (max concurrency 2, 4, 6, ...).
    public var queues = 4
    /// The most resident memory the run may reach, in megabytes. What holds memory here is
    /// bounded by configuration: each consumer's subscription buffer (131,072 events; the
    /// recorder's 262,144), each session's playback history (100,000 events), the agent's send
    /// buffer, the monitor's history (20,000 finished operations). With every consumer behind a
    /// flood of trivial operations they fill together; the three runs of RELIABILITY.md peaked at
    /// 590 to 628 MB that way.
    public var ceilingMegabytes = 768
    /// Where the recording goes; a file in the temporary directory when nil (removed after).
    public var recordingPath: String?
    /// Reads the recording back at the end (its events, its final model) and times it.
    public var readRecordingBack = true
    /// Which consumers read the monitor (all three by default; fewer to tell their costs apart).
    public var consumers: Set<LongRunConsumer> = Set(LongRunConsumer.allCases)

    /// A run of `operations`.
    public init(operations: Int) { self.operations = operations }

    /// Runs it; `progress` gets the operations submitted and the resident kilobytes each tenth.
    public func run(progress: ((Int, Int) -> Void)? = nil) throws -> LongRunResult {
        var result = LongRunResult(operations: operations, ceilingKilobytes: ceilingMegabytes * 1024)
        let started = Date()
        let monitor = OperationMonitor()
        let life = LifeCounter()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-longrun-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = recordingPath ?? directory.appendingPathComponent("run.jsonl").path

        // The consumers, started before the program's work.
        var recorderOptions = RecorderOptions()
        recorderOptions.program = "longrun"
        let recorder = consumers.contains(.recorder) ? try Recorder(source: monitor, path: path, options: recorderOptions) : nil
        var agentConfiguration = AgentConfiguration()
        agentConfiguration.socketPath = directory.appendingPathComponent("agent.sock").path
        agentConfiguration.program = "longrun"
        agentConfiguration.removeAtExit = true
        let agent = consumers.contains(.console) ? try AgentServer.start(monitor, configuration: agentConfiguration) : nil
        // As `opscope attach` connects: a console the agent drops for falling behind connects again.
        let remote = try agent.map { try RemoteSource(path: $0.socketPath, reconnects: true, client: "longrun console") }
        let dashboard = consumers.contains(.dashboard) ? SessionDriver(name: "dashboard", source: monitor) : nil
        let console = remote.map { SessionDriver(name: "attached console", source: $0) }
        dashboard?.start()
        console?.start()

        result.cancelledByApp = runWorkload(monitor: monitor, life: life) { submitted in
            result.memory.append(MemorySample(submitted: submitted, residentKilobytes: residentKilobytes(), peakKilobytes: peakResidentKilobytes()))
            progress?(submitted, residentKilobytes())
        }
        // The queues are gone: every operation must be released (each deinit counts).
        let deadline = Date().addingTimeInterval(30)
        while life.releasedCount < life.createdCount, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        result.created = life.createdCount
        result.released = life.releasedCount
        result.workSeconds = Date().timeIntervalSince(started)

        // Let the recorder and the agent's console catch up, then stop them in turn.
        recorder?.sync()
        let end = UInt64(monitor.acceptedEvents)
        result.dashboard = dashboard?.stop(at: end)
        result.console = console?.stop(at: end)
        result.consoleConnection = remote.map { "\($0.connection)" }
        recorder?.stop()
        result.agent = agent?.statistics
        remote?.close()
        agent?.stop()
        result.accepted = monitor.acceptedEvents
        result.monitorDropped = monitor.droppedEvents
        result.recorder = recorder.map {
            RecorderFigures(events: $0.eventsWritten, dropped: $0.droppedEvents, bytes: $0.bytesWritten, keyframes: $0.keyframesWritten,
                            failure: $0.failure)
        }
        result.peakKilobytes = peakResidentKilobytes()
        result.seconds = Date().timeIntervalSince(started)

        if readRecordingBack, recorder != nil {
            let opened = Date()
            let recording = try Recording.open(path: path, configuration: .report)
            let model = recording.finalModel
            var figures = ConsumerFigures(name: "recording read back")
            figures.eventsApplied = recording.eventCount
            figures.dropped = recording.droppedEvents
            figures.finished = model.queues.values.reduce(0) { $0 + $1.finished }
            figures.cancelled = model.queues.values.reduce(0) { $0 + $1.cancelled }
            figures.unfinished = model.operations.values.filter { $0.state != .finished }.count
            figures.retained = model.operations.count
            result.recordingReadBack = figures
            result.recordingOpenSeconds = Date().timeIntervalSince(opened)
        }
        return result
    }

    /// Submits the operations in batches of 2,000, at most four batches in flight; returns how
    /// many the app cancelled. `sample` is called after each tenth of the run.
    private func runWorkload(monitor: OperationMonitor, life: LifeCounter, sample: (Int) -> Void) -> Int {
        var cancelled = 0
        let queueList = (0..<queues).map {
            ObservedOperationQueue(monitor: monitor, name: "long-\($0)", maxConcurrentOperationCount: 2 + $0 * 2)
        }
        var random = SystemRandomNumberGenerator()
        var submitted = 0
        let batch = 2_000
        let step = max(batch, operations / 10)
        var nextSample = step
        sample(0)
        while submitted < operations {
            let count = min(batch, operations - submitted)
            var made = CountedOperation.chainedBatch(count: count, life: life, using: &random)
            // Only operations without dependencies are cancelled by the app: cancelling one that
            // waits and dropping it crashes Foundation on Linux (RELIABILITY.md).
            for operation in made where operation.dependencies.isEmpty && Int.random(in: 0..<100, using: &random) == 0 {
                operation.cancel()
                cancelled += 1
            }
            for (index, operation) in made.enumerated() { queueList[index % queueList.count].addOperation(operation) }
            made.removeAll()
            submitted += count
            while queueList.reduce(0, { $0 + $1.operationCount }) > batch * 4 { Thread.sleep(forTimeInterval: 0.001) }
            if submitted >= nextSample || submitted == operations {
                sample(submitted)
                nextSample += step
            }
        }
        for queue in queueList { queue.waitUntilAllOperationsAreFinished() }
        return cancelled
    }
}

/// A consumer of the long run's monitor.
public enum LongRunConsumer: String, CaseIterable, Sendable {
    /// A dashboard session on a test terminal.
    case dashboard
    /// A recorder writing to a file.
    case recorder
    /// An agent and a console session attached to it over its socket.
    case console
}
