import ArgumentParser
import DashboardModel
import Foundation
import OpScopeAgent
import OperationBridge
import OperationEvents

/// `opscope-bench agent`: what the agent costs the program. First an idle agent (no console):
/// the process's CPU time over `--idle-seconds` from /proc/self/stat, with and without the
/// agent. Then the bridge's throughput side by side: a plain queue, an observed queue with the
/// agent and no console, and the same with one console attached (a separate process that
/// reads, decodes and reduces the stream as a dashboard does, without drawing).
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Idle cost of the attach agent, and the bridge's overhead with a console attached.")

    @Option(help: "Seconds of each idle measurement.")
    var idleSeconds = 10.0

    @Option(help: "Rounds of the idle measurement (medians).")
    var idleRounds = 3

    @OptionGroup var runSizes: RunSizes

    @Option(help: "Microseconds of busy work per operation in the second part.")
    var work = 50

    @OptionGroup var shuffled: ShuffledRounds

    @Option(help: "Internal: run as the attached console of the socket at this path.")
    var console: String?

    func run() throws {
        if let console { return try AgentBenchmark.runConsole(path: console) }
        warnIfDebugBuild(use: "swift build -c release --product opscope-bench")
        let benchmark = AgentBenchmark(rounds: shuffled.rounds, seed: shuffled.seed)
        let idle = try benchmark.idle(seconds: idleSeconds, rounds: idleRounds)
        print("Idle program, process CPU over \(idleSeconds) s from /proc/self/stat (median of \(idleRounds)):")
        print(String(format: "  monitor alone %.3f s, monitor + agent %.3f s: agent %.3f%% of a core (target <= 1%%), agent threads: %d",
                     idle.without, idle.with, idle.agentShare * 100, idle.agentThreads))
        print(String(format: "  with one idle console attached %.3f s: %.3f%% of a core", idle.attached, idle.attachedShare * 100))
        let idleMet = idle.agentShare <= 0.01
        for (count, micros) in [(runSizes.operations, 0), (runSizes.workOperations, work)] {
            let result = try benchmark.overhead(operations: count, workMicroseconds: micros)
            print("\n\(count) operations, \(micros == 0 ? "trivial" : "\(micros) us of work each"), default concurrency, median of \(shuffled.rounds) rounds:")
            for mode in AgentBenchmark.Mode.allCases {
                let rate = Statistics.median(result.throughput[mode] ?? [])
                var line = "  " + mode.rawValue.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%9.0f ops/s", rate)
                if let ratios = result.ratios[mode] {
                    line += String(format: "  ratio to plain %.3f (%.2f..%.2f)", Statistics.median(ratios), ratios.min()!, ratios.max()!)
                }
                print(line)
            }
            print(String(format: "  with the console: %.0f events sent per run, %.0f dropped by the monitor's buffer (medians), %.2f us of agent-thread CPU per event sent, %d runs dropped the console",
                         Statistics.median(result.eventsSent), Statistics.median(result.monitorDropped),
                         Statistics.median(result.cpuPerEvent), result.consolesDropped))
        }
        print(idleMet ? "\nidle target met" : "\nidle target NOT MET")
        if !idleMet { throw ExitCode(1) }
    }
}

struct AgentBenchmark {
    var rounds: Int
    var seed: UInt64

    enum Mode: String, CaseIterable {
        case plain = "plain queue"
        case agentIdle = "observed, agent, no console"
        case console = "observed, agent, one console"
    }

    struct Overhead {
        var throughput: [Mode: [Double]] = [:]
        var ratios: [Mode: [Double]] = [:]
        var eventsSent: [Double] = []
        var cpuPerEvent: [Double] = []
        var consolesDropped = 0
        /// Events the monitor's ring dropped in the console runs (median).
        var monitorDropped: [Double] = []
    }

    /// Process CPU over `seconds` of a monitor with observed queues and nothing to do, without
    /// and with an agent (no console), alternated `rounds` times (at least 1); medians.
    func idle(seconds: Double, rounds idleRounds: Int) throws -> Idle {
        var without: [Double] = []
        var with: [Double] = []
        var attached: [Double] = []
        var agentThreads = 0
        for _ in 0..<max(1, idleRounds) {
            let monitor = OperationMonitor()
            let queue = ObservedOperationQueue(monitor: monitor, name: "idle", maxConcurrentOperationCount: 2)
            let start = Self.processCPU()
            Thread.sleep(forTimeInterval: seconds)
            without.append(Self.processCPU() - start)
            let agent = try AgentServer.start(monitor, configuration: Self.configuration())
            let agentStart = Self.processCPU()
            Thread.sleep(forTimeInterval: seconds)
            with.append(Self.processCPU() - agentStart)
            agentThreads = Self.threads(named: "opscope.agent")
            // One console attached, the program idle: the agent looks at its subscription
            // every pump interval.
            let console = try Self.startConsole(path: agent.socketPath)
            let deadline = Date(timeIntervalSinceNow: 30)
            while agent.statistics.keyframesSent == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let attachedStart = Self.processCPU()
            Thread.sleep(forTimeInterval: seconds)
            attached.append(Self.processCPU() - attachedStart)
            console.terminate()
            console.waitUntilExit()
            agent.stop()
            withExtendedLifetime(queue) {}
        }
        let (a, b, c) = (Statistics.median(without), Statistics.median(with), Statistics.median(attached))
        return Idle(without: a, with: b, attached: c, agentShare: max(0, b - a) / seconds,
                    attachedShare: max(0, c - a) / seconds, agentThreads: agentThreads)
    }

    struct Idle {
        var without, with, attached, agentShare, attachedShare: Double
        var agentThreads: Int
    }

    func overhead(operations: Int, workMicroseconds: Int) throws -> Overhead {
        var result = Overhead()
        var random = SplitMix64(seed: seed)
        for _ in 0..<rounds {
            var round: [Mode: Double] = [:]
            for mode in Mode.allCases.shuffled(using: &random) {
                round[mode] = try measure(mode, operations: operations, workMicroseconds: workMicroseconds, into: &result)
                result.throughput[mode, default: []].append(round[mode]!)
            }
            for mode in Mode.allCases where mode != .plain {
                result.ratios[mode, default: []].append(round[mode]! / round[.plain]!)
            }
        }
        return result
    }

    private func measure(_ mode: Mode, operations: Int, workMicroseconds: Int, into result: inout Overhead) throws -> Double {
        let monitor = OperationMonitor()
        let queue: OperationQueue = mode == .plain ? OperationQueue()
            : ObservedOperationQueue(monitor: monitor, name: "bench", maxConcurrentOperationCount: -1)
        var agent: AgentServer?
        var console: Process?
        if mode != .plain { agent = try AgentServer.start(monitor, configuration: Self.configuration()) }
        if mode == .console, let agent {
            console = try Self.startConsole(path: agent.socketPath)
            // Attached: greeted and sent its keyframe.
            let deadline = Date(timeIntervalSinceNow: 30)
            while agent.statistics.keyframesSent == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        let block: @Sendable () -> Void
        if workMicroseconds == 0 {
            block = {}
        } else {
            block = { spin(microseconds: workMicroseconds) }
        }
        let agentCPUBefore = Self.threadCPU(named: "opscope.agent")
        let start = monitor.now()
        for _ in 0..<operations { queue.addOperation(ObservableBlockOperation(block: block)) }
        queue.waitUntilAllOperationsAreFinished()
        let elapsed = Double(monitor.now() - start) / 1e9
        if mode == .console, let agent {
            // Let the agent send what the run produced before it is measured and stopped.
            let deadline = Date(timeIntervalSinceNow: 10)
            var last = -1
            while Date() < deadline, agent.statistics.eventsSent != last {
                last = agent.statistics.eventsSent
                Thread.sleep(forTimeInterval: 0.05)
            }
            let statistics = agent.statistics
            result.eventsSent.append(Double(statistics.eventsSent))
            let cpu = Self.threadCPU(named: "opscope.agent") - agentCPUBefore
            if statistics.eventsSent > 0 { result.cpuPerEvent.append(cpu / Double(statistics.eventsSent) * 1e6) }
            result.consolesDropped += statistics.clientsDropped > 0 ? 1 : 0
            result.monitorDropped.append(Double(monitor.droppedEvents))
        }
        console?.terminate()
        console?.waitUntilExit()
        agent?.stop()
        return Double(operations) / elapsed
    }

    private static func configuration() -> AgentConfiguration {
        var configuration = AgentConfiguration()
        configuration.socketPath = "/tmp/opscope-bench-\(getpid()).sock"
        configuration.removeAtExit = true
        return configuration
    }

    private static func startConsole(path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["agent", "--console", path]
        try process.run()
        return process
    }

    /// The console process: reads, decodes and reduces the stream until terminated.
    static func runConsole(path: String) throws {
        let remote = try RemoteSource(path: path, reconnects: false, client: "opscope-bench console")
        let subscription = remote.subscribe(SubscriptionRequest(consumer: "bench console"))
        var model = DashboardModel()
        while true {
            let batch = subscription.next(limit: 65_536)
            if batch.start == nil, batch.events.isEmpty {
                if case .ended = remote.connection { return }
                Thread.sleep(forTimeInterval: 0.005)
                continue
            }
            model.apply(batch)
        }
    }

    /// User + system time of the process, from /proc/self/stat (fields 14 and 15, in ticks).
    static func processCPU() -> Double {
        cpu(of: "/proc/self/stat")
    }

    /// The same for the first thread of this process with that name (0 if none).
    static func threadCPU(named name: String) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if comm == name { return cpu(of: "/proc/self/task/\(task)/stat") }
        }
        return 0
    }

    private static func cpu(of path: String) -> Double {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields after the name start at field 3: utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Threads of this process with that name.
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }
}
