import DashboardModel
import DashboardSession
import Foundation
import GraphExport
import OperationEvents

extension OpScopeDashboard {
    /// The dependency graph of everything `source` has seen (its past, then the events so far),
    /// as Graphviz DOT or Mermaid text: queues as clusters, states as styles, stuck root causes
    /// named, dependency cycles marked.
    ///
    /// ```swift
    /// try OpScopeDashboard.graph(monitor, format: .mermaid).write(toFile: "graph.mmd", atomically: true, encoding: .utf8)
    /// ```
    public static func graph(_ source: any EventSource, format: GraphFormat, options: GraphExportOptions = GraphExportOptions(),
                             configuration: ModelConfiguration = ModelConfiguration()) -> String {
        GraphExport.text(model(of: source, for: 0, configuration: configuration), format: format, options: options)
    }

    /// Reduces the source's events for `seconds`, then returns the graph (headless: for
    /// `opscope report --format dot|mermaid`).
    public static func graph(_ source: any EventSource, format: GraphFormat, after seconds: Double,
                             options: GraphExportOptions = GraphExportOptions(),
                             configuration: ModelConfiguration = ModelConfiguration()) -> String {
        GraphExport.text(model(of: source, for: seconds, configuration: configuration), format: format, options: options)
    }

    /// The model of `source` after reducing its events for `seconds` (0: what it has now).
    package static func model(of source: any EventSource, for seconds: Double, configuration: ModelConfiguration) -> DashboardModel {
        var ingest = EventIngest(source: source, configuration: configuration, consumer: "graph")
        defer { ingest.close() }
        let deadline = Date().addingTimeInterval(max(0, seconds))
        while Date() < deadline {
            _ = ingest.ingest()
            DashboardThread.pause(min(0.05, max(0, deadline.timeIntervalSinceNow)))
        }
        _ = ingest.ingest(budget: .max)
        ingest.advance(to: source.now())
        return ingest.model
    }
}
