/// Graphviz DOT: left to right, queues as clusters, states as fill colours and SVG classes,
/// stuck root causes with a thick red border and a second line saying why, cycle edges in
/// magenta and the edge that closes a cycle dashed.
enum DotWriter {
    static func write(_ graph: ExportedGraph) -> String {
        var lines: [String] = [
            "// OpScope dependency graph: an edge runs from an operation to the one that waits for it.",
            "digraph opscope {",
            "  rankdir=LR;",
            "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [color=\"#555555\"];",
        ]
        for group in graph.groups {
            lines.append("  subgraph cluster_q\(group.id.rawValue) {")
            lines.append("    label=\"\(ExportText.dot(group.title))\";")
            lines.append(group.suspended ? "    style=\"dashed\"; color=\"#d00000\";" : "    style=\"rounded\"; color=\"#888888\";")
            for node in group.nodes { lines.append("    " + statement(node)) }
            lines.append("  }")
        }
        for node in graph.loose { lines.append("  " + statement(node)) }
        for edge in graph.edges {
            var attributes: [String] = []
            if edge.inCycle { attributes += ["color=\"#9d4edd\"", "penwidth=2"] }
            if edge.closesCycle { attributes += ["style=dashed", "label=\"closes the cycle\"", "fontsize=9"] }
            let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
            lines.append("  op\(edge.from.rawValue) -> op\(edge.to.rawValue)\(suffix);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func statement(_ node: ExportedGraph.Node) -> String {
        let colors = node.style.colors
        var label = ExportText.dot(node.title)
        var attributes = ["class=\"\(node.style.rawValue)\"", "fillcolor=\"\(colors.fill)\"", "color=\"\(colors.stroke)\"",
                          "fontcolor=\"\(colors.text)\""]
        if let root = node.root {
            label += "\\nroot: " + root.exportWords
            attributes[0] = "class=\"\(node.style.rawValue) root\""
            attributes[2] = "color=\"#d00000\""
            attributes.append("penwidth=3")
        }
        return "op\(node.id.rawValue) [label=\"\(label)\", " + attributes.joined(separator: ", ") + "];"
    }
}
