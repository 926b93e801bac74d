import DashboardModel
import DashboardUI
import OperationEvents

/// The scaling curve of the front end's figures: the same measurements over 1k, 10k and 100k
/// live operations on 8 queues.
extension UIBenchmark {
    func scaling(_ screen: FrameComposer) {
        for size in sizes {
            var script = ModelScript()
            script.build(operations: size)
            let model = script.model
            var other = script
            other.start(Self.readyOperation(near: size / 2))
            var dashboard = Interaction()
            dashboard.state.selection = OperationID(size / 2)
            dashboard.keepSelectionValid(model)
            // Fewer repetitions at 100k: a frame there takes tens of milliseconds.
            let runs = size > 20_000 ? max(5, repetitions / 3) : repetitions
            let frame = Self.frameTimes(model, dashboard, screen, repetitions: runs)
            var graph = dashboard
            graph.state.focus = .graph
            graph.state.graph.layout = .all
            graph.map = screen.compose(model, graph, width: 200, height: 60).1
            let first = Self.graphFirstTimes(model, graph, screen, repetitions: runs)
            let steady = Self.steadyFrameTimes(model, graph, screen, repetitions: runs)
            let still = Self.typingTimes(model, nil, screen, repetitions: max(1, runs / 4))
            let changing = Self.typingTimes(model, other.model, screen, repetitions: max(1, runs / 4))
            func ms(_ times: [Timing]) -> String {
                String(format: "%.3f ms (cpu %.3f)", times.wallMedian * 1e3, times.cpuMedian * 1e3)
            }
            func worst(_ times: [Timing]) -> String { String(format: "%.3f ms", (times.map(\.wall).max() ?? 0) * 1e3) }
            print("  scaling, \(ModelBenchmark.grouped(size)) live operations: frame \(ms(frame)); every group (g): first \(ms(first)), "
                  + "steady \(ms(steady)); typing a filter: \(ms(still)) median, \(worst(still)) worst; "
                  + "the model changing between keys: \(ms(changing)) median, \(worst(changing)) worst")
        }
    }

    /// An operation of the script that is ready and not started, at or after `index`: no
    /// dependency (every third), not among the ones the script started.
    static func readyOperation(near index: Int) -> OperationID {
        var candidate = max(3, index - index % 3)
        while (candidate - 1) % 97 == 0 { candidate += 3 }
        return OperationID(candidate)
    }
}
