import DashboardModel
import Foundation
import GraphExport
import OperationEvents
import Testing

@Suite("Export: Graphviz DOT")
struct DotExportTests {
    @Test("the stuck demo: queues as clusters, states as styles, root causes named, the cycle marked")
    func stuckDemo() {
        let text = GraphExport.dot(stuckModel())
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("digraph opscope {") && lines.contains("rankdir=LR;"))
        #expect(lines.contains("subgraph cluster_q1 {") && lines.contains("label=\"q1 work\";"))
        #expect(lines.contains("label=\"q2 paused (suspended)\";"))
        #expect(lines.contains { $0.hasPrefix("op1 [label=\"#1 sync-account\", class=\"executing\"") })
        #expect(lines.contains { $0.hasPrefix("op2 [label=\"#2 render-feed\", class=\"pending\"") })
        #expect(lines.contains { $0.hasPrefix("op8 [label=\"#8 thumbnail-1\\nroot: queue suspended\", class=\"ready root\"") })
        #expect(lines.contains { $0.hasPrefix("op11 [label=\"#11 refresh-1\", class=\"finished\"") })
        // The dependency never enqueued is outside every cluster, and marked as the root.
        let migrate = lines.firstIndex { $0.hasPrefix("op7 [label=\"#7 migrate-db\\nroot: in no queue\"") }
        let lastCluster = lines.lastIndex(of: "}").flatMap { end in lines[..<end].lastIndex(of: "}") }
        #expect(migrate != nil && lastCluster != nil && migrate! > lastCluster!, "op7 after the clusters")
        #expect(lines.contains("op7 -> op6;") && lines.contains("op1 -> op2;") && lines.contains("op2 -> op3;"))
        // Both edges of the cycle are magenta; the one that closes it is dashed and says so.
        let cycle = lines.filter { $0.hasPrefix("op4 -> op5") || $0.hasPrefix("op5 -> op4") }
        #expect(cycle.count == 2 && cycle.allSatisfy { $0.contains("color=\"#9d4edd\"") })
        #expect(cycle.filter { $0.contains("style=dashed, label=\"closes the cycle\"") }.count == 1)
        #expect(lines.filter { $0.contains("->") }.count == 5, "every edge once: 1→2 2→3 4⇄5 7→6")
    }

    @Test("finished operations can be left out, with their edges")
    func withoutFinished() {
        var options = GraphExportOptions()
        options.includeFinished = false
        let text = GraphExport.dot(stuckModel(), options: options)
        #expect(!text.contains("refresh-1") && text.contains("refresh-4"))
    }

    @Test("hostile names are escaped: quotes, backslashes, line breaks, entities, control characters")
    func escaping() {
        let text = GraphExport.dot(hostileModel())
        #expect(text.contains("op1 [label=\"#1 he said \\\"hi\\\"\""))
        #expect(text.contains("op3 [label=\"#3 back\\\\slash \\\\\\\" end\\\\\""))
        #expect(text.contains("op4 [label=\"#4 two\\nlines\""))
        #expect(text.contains("op5 [label=\"#5 tab here return\""))
        #expect(text.contains("op7 [label=\"#7 <b>bold</b> &amp; <br> &amp;amp;\""))
        #expect(text.contains("op13 [label=\"#13 bell null \""))
        #expect(text.contains("label=\"q1 queue \\\"one\\\" [x] #1 <q>\\nsecond line\";"))
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }

    @Test("graphviz parses the output (dot -Tsvg) and prints every name as it is",
          .enabled(if: dotPath != nil, "graphviz's dot is not installed here (apt-get install graphviz); CI installs it"))
    func graphvizParses() throws {
        for (name, model) in [("stuck", stuckModel()), ("hostile", hostileModel())] {
            let result = try runDot(["-Tsvg"], input: GraphExport.dot(model))
            #expect(result.status == 0, "dot -Tsvg failed on the \(name) graph: \(result.errors)")
            #expect(result.errors.isEmpty, "dot warned about the \(name) graph: \(result.errors)")
            #expect(result.output.contains("<svg"))
            if name == "stuck" {
                #expect(result.output.contains("class=\"node ready root\"") || result.output.contains("class=\"node ready root\n"))
            }
        }
        // Every line of every name comes out as written (after SVG's own escaping).
        let svg = try runDot(["-Tsvg"], input: GraphExport.dot(hostileModel())).output
        let texts = Set(svgTexts(svg))
        for (index, name) in hostileNames.enumerated() {
            let lines = ("#\(index + 1) " + readable(name)).split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines {
                // Graphviz drops leading and trailing spaces of a line.
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                #expect(texts.contains(trimmed), "\(name.debugDescription): no text element reads \(trimmed.debugDescription)")
            }
        }
        #expect(texts.contains("q1 queue \"one\" [x] #1 <q>") && texts.contains("second line"))
    }

    /// XML text with its entities (named and numeric; graphviz writes `--` as `&#45;&#45;`) decoded.
    private func xmlDecoded(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        let named = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
        while let character = rest.first {
            if character == "&", let end = rest.firstIndex(of: ";") {
                let name = rest[rest.index(after: rest.startIndex)..<end]
                if let value = named[String(name)] {
                    result += value
                } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
                    // Graphviz writes a non-breaking space for runs of spaces.
                    result.unicodeScalars.append(code == 160 ? " " : scalar)
                } else {
                    result += "&" + name + ";"
                }
                rest = rest[rest.index(after: end)...]
            } else {
                result.append(character)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// The text of every `<text>` element, XML entities decoded.
    private func svgTexts(_ svg: String) -> [String] {
        var result: [String] = []
        var rest = Substring(svg)
        while let open = rest.range(of: "<text") {
            guard let start = rest[open.upperBound...].firstIndex(of: ">"), let close = rest.range(of: "</text>", range: start..<rest.endIndex) else { break }
            let text = String(rest[rest.index(after: start)..<close.lowerBound])
            result.append(xmlDecoded(text).trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        return result
    }
}
