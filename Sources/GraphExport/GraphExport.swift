import DashboardModel

/// The text formats the dependency graph is exported to.
public enum GraphFormat: String, Sendable, CaseIterable {
    /// Graphviz DOT (`dot -Tsvg graph.dot > graph.svg`).
    case dot
    /// A Mermaid flowchart (renders in Markdown on GitHub and in most documentation sites).
    case mermaid
}

/// What an export includes.
public struct GraphExportOptions: Sendable, Equatable {
    /// Finished operations the model still retains are exported too (greyed); false leaves
    /// them out, and the edges that touch them.
    public var includeFinished = true

    /// The defaults: every retained operation.
    public init(includeFinished: Bool = true) {
        self.includeFinished = includeFinished
    }
}

/// The dependency graph of a `DashboardModel` as DOT or Mermaid text, for documentation and
/// bug reports: one node per operation (its state as a style, a stuck root cause marked and
/// named), queues as clusters (DOT) or subgraphs (Mermaid), an edge from each dependency to the
/// operation that waits for it, and the edges of a dependency cycle marked, the one that closes
/// it drawn dashed.
///
/// ```swift
/// let text = GraphExport.text(model, format: .mermaid)
/// ```
public enum GraphExport {
    /// The graph in `format`.
    public static func text(_ model: DashboardModel, format: GraphFormat, options: GraphExportOptions = GraphExportOptions()) -> String {
        let graph = ExportedGraph(model, options: options)
        switch format {
        case .dot: return DotWriter.write(graph)
        case .mermaid: return MermaidWriter.write(graph)
        }
    }

    /// The graph as Graphviz DOT.
    public static func dot(_ model: DashboardModel, options: GraphExportOptions = GraphExportOptions()) -> String {
        text(model, format: .dot, options: options)
    }

    /// The graph as a Mermaid flowchart.
    public static func mermaid(_ model: DashboardModel, options: GraphExportOptions = GraphExportOptions()) -> String {
        text(model, format: .mermaid, options: options)
    }
}
