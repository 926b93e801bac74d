import OpScopeAgent

/// Resident memory after some of the operations were submitted.
public struct MemorySample: Sendable {
    /// Operations submitted so far.
    public var submitted: Int
    /// VmRSS then.
    public var residentKilobytes: Int
    /// VmHWM then.
    public var peakKilobytes: Int
}

/// What the recorder wrote.
public struct RecorderFigures: Sendable {
    /// Events written.
    public var events = 0
    /// Events it lost (counted in the file).
    public var dropped = 0
    /// Bytes written.
    public var bytes = 0
    /// Keyframes written.
    public var keyframes = 0
    /// Why the recording stopped, if it failed.
    public var failure: String?
}

/// The figures of a long run, and what did not hold.
public struct LongRunResult: Sendable, CustomStringConvertible {
    /// Operations submitted.
    public var operations: Int
    /// The memory ceiling.
    public var ceilingKilobytes: Int
    /// Operations the app cancelled.
    public var cancelledByApp = 0
    /// Operations created.
    public var created = 0
    /// Of those, deinitialised by the end.
    public var released = 0
    /// Events the monitor accepted.
    public var accepted = 0
    /// Events the monitor dropped (its buffer full).
    public var monitorDropped = 0
    /// Seconds until every operation was released.
    public var workSeconds = 0.0
    /// Seconds until the consumers stopped.
    public var seconds = 0.0
    /// VmHWM when the consumers stopped (before the recording is read back).
    public var peakKilobytes = 0
    /// Resident memory each tenth of the run.
    public var memory: [MemorySample] = []
    /// What the dashboard saw.
    public var dashboard: ConsumerFigures?
    /// What the attached console saw.
    public var console: ConsumerFigures?
    /// The attached console's connection when it stopped.
    public var consoleConnection: String?
    /// What the recorder wrote.
    public var recorder: RecorderFigures?
    /// What the agent sent its console.
    public var agent: AgentStatistics?
    /// The recording read back at the end.
    public var recordingReadBack: ConsumerFigures?
    /// Seconds `Recording.open` took on it.
    public var recordingOpenSeconds = 0.0

    init(operations: Int, ceilingKilobytes: Int) {
        self.operations = operations
        self.ceilingKilobytes = ceilingKilobytes
    }

    /// What must hold: every operation released, memory under the ceiling, the recording
    /// written without a failure, and no consumer left with an operation it shows unfinished
    /// (a ghost state) or with finishes it lost without counting a loss.
    public var problems: [String] {
        var problems: [String] = []
        if created != operations { problems.append("created \(created), submitted \(operations)") }
        if released != created { problems.append("\(created - released) of \(created) operations never released") }
        if peakKilobytes > ceilingKilobytes { problems.append("peak RSS \(peakKilobytes / 1024) MB over the ceiling of \(ceilingKilobytes / 1024) MB") }
        if let failure = recorder?.failure { problems.append("the recording failed: \(failure)") }
        for figures in [dashboard, console, recordingReadBack].compactMap({ $0 }) {
            if !figures.caughtUp { problems.append("\(figures.name): did not reach the end of the stream within two minutes") }
            if figures.unfinished > 0 { problems.append("\(figures.name): \(figures.unfinished) operations still shown unfinished") }
            let lost = figures.dropped > 0 || figures.sequenceGaps > 0
            if !lost, figures.finished != operations {
                problems.append("\(figures.name): \(figures.finished) of \(operations) finished, with no loss counted")
            }
        }
        return problems
    }

    /// The figures, one consumer a line.
    public var description: String {
        var lines = [
            "operations \(operations) (\(cancelledByApp) cancelled by the app), work \(String(format: "%.1f", workSeconds)) s, all \(String(format: "%.1f", seconds)) s",
            "released \(released) of \(created) created",
            "monitor: \(accepted) events accepted, \(monitorDropped) dropped",
        ]
        lines += [dashboard, console].compactMap { $0?.description }
        if let recorder {
            lines.append("recorder: \(recorder.events) events written, \(recorder.dropped) dropped, \(recorder.keyframes) keyframes, "
                         + "\(recorder.bytes / (1 << 20)) MB" + (recorder.failure.map { ", failed: \($0)" } ?? ""))
        }
        if let agent {
            lines.append("agent: \(agent.eventsSent) events and \(agent.keyframesSent) keyframes sent, \(agent.clientsDropped) clients dropped, "
                         + "largest send buffer \(agent.largestSendBuffer / 1024) KB; the console's connection at the end: \(consoleConnection ?? "-")")
        }
        if let readBack = recordingReadBack {
            lines.append(readBack.description + String(format: " (opened in %.1f s)", recordingOpenSeconds))
        }
        lines.append("resident memory (MB) by operations submitted: "
                     + memory.map { "\($0.submitted / 1000)k: \($0.residentKilobytes / 1024)" }.joined(separator: ", "))
        lines.append("peak RSS \(peakKilobytes / 1024) MB (ceiling \(ceilingKilobytes / 1024) MB)")
        let problems = problems
        lines.append(problems.isEmpty ? "all checks held" : "PROBLEMS:\n  " + problems.joined(separator: "\n  "))
        return lines.joined(separator: "\n")
    }
}
