import DashboardModel
import GraphExport
import OpScopeTestSupport
import OperationEvents
import Foundation
import Testing

@Suite("Export: Mermaid")
struct MermaidExportTests {
    @Test("the stuck demo: valid flowchart, queues as subgraphs, states as classes, roots, the cycle")
    func stuckDemo() {
        let text = GraphExport.mermaid(stuckModel())
        let result = MermaidChecker.check(text)
        #expect(result.errors.isEmpty, "\(result.errors.joined(separator: "\n"))\n\(text)")
        #expect(result.titles == ["q1": "q1 work", "q2": "q2 paused (suspended)"])
        #expect(result.labels["n1"] == "#1 sync-account" && result.parent["n1"] == "q1")
        #expect(result.labels["n7"] == "#7 migrate-db\nroot: in no queue" && result.parent["n7"] == nil)
        #expect(result.labels["n8"] == "#8 thumbnail-1\nroot: queue suspended" && result.parent["n8"] == "q2")
        #expect(Set(result.classes["executing"] ?? []) == ["n1", "n14"])
        #expect(Set(result.classes["cycle"] ?? []) == ["n4", "n5"])
        #expect(Set(result.classes["root"] ?? []) == ["n4", "n5", "n7", "n8", "n9", "n10"])
        #expect(Set(result.classes["finished"] ?? []) == ["n11", "n12", "n13"])
        let edges = result.edges.map { "\($0.0) \($0.1) \($0.2)" }
        #expect(Set(edges) == ["n1 --> n2", "n2 --> n3", "n7 --> n6", "n5 ==> n4", "n4 -.->|closes the cycle| n5"])
        #expect(text.contains("linkStyle "), "cycle edges are coloured")
    }

    @Test("a ready operation its queue has long had room for and not started is a root, as on the dashboard's graph")
    func readyNotStarted() {
        let (soon, model) = untoldGateScript()
        #expect(MermaidChecker.check(GraphExport.mermaid(soon)).classes["root"] == nil, "within the grace: next to start")
        let result = MermaidChecker.check(GraphExport.mermaid(model))
        #expect(result.labels["n1"] == "#1 refresh-token\nroot: not started", "\(result.labels)")
        #expect(result.classes["root"] == ["n1"])
    }

    @Test("hostile names are escaped and read back exactly")
    func escaping() {
        let text = GraphExport.mermaid(hostileModel())
        let result = MermaidChecker.check(text)
        #expect(result.errors.isEmpty, "\(result.errors.joined(separator: "\n"))\n\(text)")
        for (index, name) in hostileNames.enumerated() {
            #expect(result.labels["n\(index + 1)"] == "#\(index + 1) " + readable(name), "\(name.debugDescription)")
        }
        #expect(result.titles["q1"] == "q1 queue \"one\" [x] #1 <q>\nsecond line")
        #expect(result.edges.count == hostileNames.count - 1)
    }

    @Test("the checker catches what Mermaid would misread")
    func checkerRejects() {
        let broken = [
            "graph TD\n  a --> b": "the first statement",
            "flowchart LR\n  n1[\"say \"hi\"\"]": "raw \"",
            "flowchart LR\n  n1[\"#1 a\"]": "# outside an entity code",
            "flowchart LR\n  n1[\"a<script>\"]": "markup other than <br>",
            "flowchart LR\n  end[\"a\"]": "not a statement",
            "flowchart LR\n  subgraph q1[\"x\"]\n  n1[\"a\"]": "not closed",
            "flowchart LR\n  n1[\"a\"]\n  n1 --> n2": "undeclared node n2",
            "flowchart LR\n  n1[\"a\"]\n  class n1 nope": "a defined class",
            "flowchart LR\n  n1[\"a #bogus; b\"]": "unknown entity",
            "flowchart LR\n  n1[\"a\"]\n  n1 -->|x n1": "edge: ID ARROW",
        ]
        for (text, expected) in broken {
            let errors = MermaidChecker.check(text).errors
            #expect(errors.contains { $0.contains(expected) }, "\(text.debugDescription) should fail with '\(expected)', got \(errors)")
        }
        #expect(MermaidChecker.check("flowchart LR\n  n1[\"a #quot;b#quot; #35;1<br>c\"]").labels["n1"] == "a \"b\" #1\nc")
    }

    @Test("docs/graph.md's exported example is valid Mermaid: the stuck demo's queues, roots and cycle")
    func readmeExample() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/graph.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        let start = try #require(text.range(of: "```mermaid\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let result = MermaidChecker.check(String(text[start.upperBound..<end.lowerBound]))
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.titles["q1"] == "q1 work" && result.titles["q2"] == "q2 paused (suspended)")
        #expect(result.labels["n7"] == "#7 migrate-db\nroot: in no queue")
        #expect(Set(result.classes["cycle"] ?? []) == ["n4", "n5"] && result.edges.contains { $0.1 == "-.->|closes the cycle|" })
    }
}
