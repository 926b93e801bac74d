import DashboardModel
import DashboardUI
import Foundation
import NcursesBackend
import OperationEvents
import TerminalKit

/// The front end's targets: composing a 200x60 frame with 10,000 live operations, the graph
/// pane's frames, typing a filter, and the bytes ncurses writes for a steady frame in which one
/// operation changed state; then the scaling curve of the frame, the graph's first frame and the
/// filter at 1k, 10k and 100k operations. Times are wall time with the thread's CPU time beside.
struct UIBenchmark {
    var repetitions = 31
    var parts = Self.allParts
    /// Operation counts of the scaling curve.
    var sizes = [1_000, 10_000, 100_000]

    static let allParts: Set<String> = ["frame", "graph", "typing", "bytes", "scaling"]

    func run() -> Int {
        var failures = 0
        print("OpScope front-end benchmark (release), medians of \(repetitions) repetitions; wall time (thread CPU time)")
        var script = ModelScript()
        script.build(operations: 10_000)
        let model = script.model
        var dashboard = Interaction()
        dashboard.state.selection = OperationID(5_000)
        dashboard.keepSelectionValid(model)
        let screen = FrameComposer(caption: "benchmark: 10,000 live operations on 8 queues")
        if parts.contains("frame") {
            let times = Self.frameTimes(model, dashboard, screen, repetitions: repetitions)
            let median = times.wallMedian * 1e3
            let live = model.operations.values.filter { $0.state != .finished }.count
            print(String(format: "  compose a 200x60 frame, %d live operations: %.3f ms median (cpu %.3f ms, p90 %.3f ms)  [<= 1 ms: %@]",
                         live, median, times.cpuMedian * 1e3, Statistics.quantile(times.map(\.wall), 0.9) * 1e3,
                         median <= 1 ? "met" : "NOT MET"))
            if median > 1 { failures += 1 }
            let steady = Self.steadyFrameTimes(model, dashboard, screen, repetitions: repetitions)
            print(String(format: "  the same frame with the rows of the frame before (model standing still): %.3f ms median (cpu %.3f ms)",
                         steady.wallMedian * 1e3, steady.cpuMedian * 1e3))
        }
        if parts.contains("graph") { failures += graphFrames(model, script, screen) }
        if parts.contains("graph-first") { graphFirstFrames(model, screen) }
        if parts.contains("typing") { failures += typing(model, script, screen) }
        if parts.contains("bytes") { failures += bytes(script, dashboard, screen) }
        if parts.contains("scaling") { scaling(screen) }
        print(failures == 0 ? "all targets met" : "\(failures) target(s) not met")
        return failures
    }

    /// Frames of one model and view, drawn again and again from the same view state: nothing is
    /// carried from one frame to the next (the table's rows are computed in every frame, as in
    /// the first frame after a change), the measurement of the issue's row since issue 13.
    static func frameTimes(_ model: DashboardModel, _ dashboard: Interaction, _ screen: FrameComposer, repetitions: Int) -> [Timing] {
        (0..<repetitions).map { _ in
            Timing.measure { _ = screen.compose(model, dashboard, width: 200, height: 60) }
        }
    }

    /// The same frame drawn as the session draws it with the model standing still: what the
    /// frame before remembered (the table's rows, the graph pane's drawings) carried on.
    static func steadyFrameTimes(_ model: DashboardModel, _ dashboard: Interaction, _ screen: FrameComposer, repetitions: Int) -> [Timing] {
        var dashboard = dashboard
        dashboard.map = screen.compose(model, dashboard, width: 200, height: 60).1
        return (0..<repetitions).map { _ in
            Timing.measure { dashboard.map = screen.compose(model, dashboard, width: 200, height: 60).1 }
        }
    }

    /// The bytes ncurses writes: the frame, then one ready operation starts (same clock, so
    /// durations hold still): one state change, nothing else moves. #4998 is ready (no
    /// dependency); #5000, which the first version of this measurement started, waits on #4998,
    /// so starting it made the model infer #4998's finish as well: two changes.
    func bytes(_ script: ModelScript, _ dashboard: Interaction, _ screen: FrameComposer) -> Int {
        var failures = 0
        let frame = screen.compose(script.model, dashboard, width: 200, height: 60).0
        var started = script
        started.start(OperationID(4_998))
        let next = screen.compose(started.model, dashboard, width: 200, height: 60).0
        // Then it finishes: with live work first, its row leaves for the bottom of the table
        // and the rows under it move up one (reported, no target: that move is the point).
        var finished = started
        finished.finish(OperationID(4_998))
        let last = screen.compose(finished.model, dashboard, width: 200, height: 60).0
        let cells = next.changes(since: frame).reduce(0) { $0 + $1.cells.count }
        let movedCells = last.changes(since: next).reduce(0) { $0 + $1.cells.count }
        do {
            let (first, steady) = try Self.bytesWritten(frames: [frame, next], width: 200, height: 60)
            print("  bytes written: first frame \(first), steady frame with one operation starting \(steady) (\(cells) cells changed)  [<= 1024: \(steady <= 1_024 ? "met" : "NOT MET")]")
            if steady > 1_024 { failures += 1 }
            let (_, moved) = try Self.bytesWritten(frames: [next, last], width: 200, height: 60)
            print("  bytes written: steady frame with one operation finishing (its row moves down) \(moved) (\(movedCells) cells changed)")
        } catch {
            print("  bytes written: could not measure (\(error))")
            failures += 1
        }
        return failures
    }

    /// The graph pane with the keys, at 200x60 over the 10,000 operations: the selection's group,
    /// every group (`g`), and every group compact (`z`). Each three ways: the first frame of the
    /// view (the pane remembers nothing; the table's rows are those of the frame before, as after
    /// a key), steady frames (the pane's memory carried from frame to frame as the session carries
    /// it, the model unchanged), and frames of a changing model (an operation starts or not between
    /// frames, so every frame sees a new model state and one group changes).
    func graphFrames(_ model: DashboardModel, _ script: ModelScript, _ screen: FrameComposer) -> Int {
        var other = script
        other.start(OperationID(4_998))
        let views: [(String, (inout Interaction) -> Void)] = [
            ("the selection's group", { $0.state.focus = .graph }),
            ("every group (g)", { $0.state.focus = .graph; $0.state.graph.layout = .all }),
            ("every group, compact (z)", { $0.state.focus = .graph; $0.state.graph.layout = .all; $0.state.graph.compact = true }),
        ]
        var failures = 0
        for (name, setUp) in views {
            var dashboard = Interaction()
            dashboard.state.selection = OperationID(5_000)
            dashboard.keepSelectionValid(model)
            setUp(&dashboard)
            dashboard.map = screen.compose(model, dashboard, width: 200, height: 60).1
            let first = Self.graphFirstTimes(model, dashboard, screen, repetitions: repetitions)
            var results: [String] = [String(format: "first %.3f ms (cpu %.3f ms)", first.wallMedian * 1e3, first.cpuMedian * 1e3)]
            var met = first.wallMedian * 1e3 <= 2
            for changing in [false, true] {
                var times: [Timing] = []
                for index in 0..<repetitions {
                    let shown = changing && index % 2 == 1 ? other.model : model
                    times.append(Timing.measure { dashboard.map = screen.compose(shown, dashboard, width: 200, height: 60).1 })
                }
                let median = times.wallMedian * 1e3
                results.append(String(format: "%@ %.3f ms (cpu %.3f ms)", changing ? "model changing" : "steady", median, times.cpuMedian * 1e3))
                if median > 2 { met = false }
            }
            if !met { failures += 1 }
            print("  graph pane with the keys, 200x60, \(name): " + results.joined(separator: ", ")
                  + (met ? "  [each <= 2 ms: met]" : "  [each <= 2 ms: NOT MET]"))
        }
        return failures
    }

    /// The first frame of `g` alone, over and over: what a profile of that frame records.
    func graphFirstFrames(_ model: DashboardModel, _ screen: FrameComposer) {
        var dashboard = Interaction()
        dashboard.state.selection = OperationID(5_000)
        dashboard.keepSelectionValid(model)
        dashboard.state.focus = .graph
        dashboard.state.graph.layout = .all
        dashboard.map = screen.compose(model, dashboard, width: 200, height: 60).1
        let times = Self.graphFirstTimes(model, dashboard, screen, repetitions: repetitions)
        print(String(format: "  every group (g), first frame alone: %.3f ms (cpu %.3f ms)", times.wallMedian * 1e3, times.cpuMedian * 1e3))
    }

    /// The first frame of a graph view: the pane remembers nothing (as right after `g`); the
    /// table's rows are those of the frame before, as after a key.
    static func graphFirstTimes(_ model: DashboardModel, _ dashboard: Interaction, _ screen: FrameComposer, repetitions: Int) -> [Timing] {
        (0..<repetitions).map { _ in
            var fresh = dashboard
            fresh.map.graph = GraphPaneMemory()
            return Timing.measure { _ = screen.compose(model, fresh, width: 200, height: 60) }
        }
    }

    /// A filter typed into the 10,000 operations, one key at a time: each key handled, then the
    /// frame the session would draw (the filter is applied by the frame). Twice: with the model
    /// standing still (typing further narrows the last rows) and with the model changing
    /// between keys (every key filters all operations again, the worst case of a busy program).
    func typing(_ model: DashboardModel, _ script: ModelScript, _ screen: FrameComposer) -> Int {
        var other = script
        other.start(OperationID(4_999))
        var failures = 0
        for changing in [false, true] {
            let times = Self.typingTimes(model, changing ? other.model : nil, screen, repetitions: max(1, repetitions / 4))
            let median = times.wallMedian * 1e3
            let worst = (times.map(\.wall).max() ?? 0) * 1e3
            print(String(format: "  typing a filter (%@), a key and its 200x60 frame: %.3f ms median (cpu %.3f ms), %.3f ms worst  [<= 50 ms: %@]",
                         changing ? "the model changing between keys" : "the model standing still", median, times.cpuMedian * 1e3, worst,
                         worst <= 50 ? "met" : "NOT MET"))
            if worst > 50 { failures += 1 }
        }
        return failures
    }

    /// Every key of `/op-12 !state:exec⏎` typed into `model`, `repetitions` times: each key
    /// handled, the selection kept valid and the frame drawn, as the session does. With `other`,
    /// every second key sees that model instead (the model changes between keys).
    static func typingTimes(_ model: DashboardModel, _ other: DashboardModel?, _ screen: FrameComposer, repetitions: Int) -> [Timing] {
        let keys: [Key] = [.character("/")] + "op-12 !state:exec".map { Key.character($0) } + [.enter]
        let selected = OperationID(model.operations.count / 2)
        var times: [Timing] = []
        for _ in 0..<repetitions {
            var dashboard = Interaction()
            dashboard.state.selection = selected
            dashboard.keepSelectionValid(model)
            dashboard.map = screen.compose(model, dashboard, width: 200, height: 60).1
            for (index, key) in keys.enumerated() {
                let shown = index % 2 == 1 ? other ?? model : model
                times.append(Timing.measure {
                    _ = dashboard.handle(key, model: shown)
                    dashboard.keepSelectionValid(shown)
                    dashboard.map = screen.compose(shown, dashboard, width: 200, height: 60).1
                })
            }
        }
        return times
    }

    /// Draws `frames` through ncurses into a pipe; returns the bytes of the first and of the last.
    static func bytesWritten(frames: [Buffer], width: Int, height: Int) throws -> (Int, Int) {
        var output: [Int32] = [0, 0]
        var input: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&input) == 0 else { throw CocoaError(.fileReadUnknown) }
        let counter = ByteCounter(fd: output[0])
        let terminal = try NcursesTerminal(term: "xterm-256color", output: output[1], input: input[0], width: width, height: height)
        var sizes: [Int] = []
        for frame in frames {
            let before = counter.settled()
            terminal.draw(frame)
            sizes.append(counter.settled() - before)
        }
        terminal.stop()
        return (sizes.first ?? 0, sizes.last ?? 0)
    }
}

/// Reads a pipe on its own thread and counts the bytes.
final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    init(fd: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { return }
                lock.lock()
                total += count
                lock.unlock()
            }
        }
    }

    /// The count once no byte arrived for 50 ms.
    func settled() -> Int {
        var last = -1
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            lock.lock()
            let now = total
            lock.unlock()
            if now == last { return now }
            last = now
        }
    }
}

/// A model of `operations` live operations on 8 queues (chains; some executing, the rest ready
/// or pending), all at one clock time.
struct ModelScript {
    private(set) var model = DashboardModel()
    private var sequence: UInt64 = 0
    private let time: UInt64 = 5_000_000_000

    private mutating func emit(_ change: MonitorEvent.Change) {
        model.apply(EventBatch(events: [MonitorEvent(sequence: sequence, time: time, change: change)], droppedTotal: 0))
        sequence += 1
    }

    mutating func build(operations: Int) {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = operations
        model = DashboardModel(configuration: configuration)
        var events: [MonitorEvent] = []
        func add(_ change: MonitorEvent.Change) {
            events.append(MonitorEvent(sequence: sequence, time: time, change: change))
            sequence += 1
        }
        for queue in 1...8 {
            add(.queueAppeared(QueueInfo(id: QueueID(queue), name: "queue-\(queue)", maxConcurrentOperationCount: 4, isSuspended: false)))
        }
        var random = SplitMix64(seed: 9)
        for index in 1...operations {
            let dependencies = index > 10 && index % 3 != 0 ? [OperationID(index - Int.random(in: 1...10, using: &random))] : []
            add(.operationAdded(OperationInfo(
                id: OperationID(index), queue: QueueID(index % 8 + 1), name: "op-\(index)", typeName: "BlockOperation",
                priority: .normal, effectivePriority: .normal, qualityOfService: QoSClass.laneOrder[index % 5],
                isAsynchronous: index % 7 == 0, isBarrier: false, dependencies: dependencies, observation: .instrumented,
                isReady: dependencies.isEmpty)))
        }
        // Every operation stays live: some executing, the rest ready or pending.
        for index in stride(from: 1, through: operations, by: 97) where index % 3 == 0 {
            add(.started(operation: OperationID(index)))
        }
        model.apply(EventBatch(events: events, droppedTotal: 0))
    }

    mutating func start(_ id: OperationID) { emit(.started(operation: id)) }
    mutating func finish(_ id: OperationID) { emit(.finished(operation: id, cancelled: false)) }
}

extension UIBenchmark: PartedBenchmark {
    /// `graph-first`: only the first frame of `g`, for profiling.
    static let extraParts: Set<String> = ["graph-first"]
    static let onlyHelp = "Only these parts (comma-separated: frame, graph, typing, bytes, scaling; graph-first: only the first frame of `g`, for profiling)."
}
