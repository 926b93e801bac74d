/// A Mermaid flowchart: left to right, queues as subgraphs, states as classes, stuck root
/// causes in the `root` class with a second line saying why, cycle edges thick and magenta
/// (`linkStyle`), the edge that closes a cycle dotted and labelled.
enum MermaidWriter {
    static func write(_ graph: ExportedGraph) -> String {
        var lines: [String] = [
            "%% OpScope dependency graph: an edge runs from an operation to the one that waits for it.",
            "flowchart LR",
        ]
        for style in NodeStyle.allCases {
            let colors = style.colors
            lines.append("  classDef \(style.rawValue) fill:\(colors.fill),stroke:\(colors.stroke),color:\(colors.text)")
        }
        lines.append("  classDef root stroke:#d00000,stroke-width:4px")
        for group in graph.groups {
            lines.append("  subgraph q\(group.id.rawValue)[\"\(ExportText.mermaid(group.title))\"]")
            for node in group.nodes { lines.append("    " + statement(node)) }
            lines.append("  end")
        }
        for node in graph.loose { lines.append("  " + statement(node)) }
        var cycleEdges: [Int] = []
        for (index, edge) in graph.edges.enumerated() {
            let arrow = edge.closesCycle ? "-.->|closes the cycle|" : (edge.inCycle ? "==>" : "-->")
            lines.append("  n\(edge.from.rawValue) \(arrow) n\(edge.to.rawValue)")
            if edge.inCycle { cycleEdges.append(index) }
        }
        if !cycleEdges.isEmpty {
            lines.append("  linkStyle \(cycleEdges.map(String.init).joined(separator: ",")) stroke:#9d4edd,stroke-width:2px")
        }
        // Classes last: a `class` statement must name nodes already declared.
        var byStyle: [NodeStyle: [String]] = [:]
        var roots: [String] = []
        for node in graph.allNodes {
            byStyle[node.style, default: []].append("n\(node.id.rawValue)")
            if node.root != nil { roots.append("n\(node.id.rawValue)") }
        }
        for style in NodeStyle.allCases {
            guard let ids = byStyle[style] else { continue }
            lines.append("  class \(ids.joined(separator: ",")) \(style.rawValue)")
        }
        if !roots.isEmpty { lines.append("  class \(roots.joined(separator: ",")) root") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func statement(_ node: ExportedGraph.Node) -> String {
        var label = ExportText.mermaid(node.title)
        if let root = node.root { label += "<br>root: " + ExportText.mermaid(root.exportWords) }
        return "n\(node.id.rawValue)[\"\(label)\"]"
    }
}
