import Foundation
import OpScope
import Testing

/// The dependency graph from the embedding API, on a real monitor and real queues.
@Suite("Embedding API: the graph as DOT and Mermaid", .serialized, .timeLimit(.minutes(1)))
struct GraphExportAPITests {
    @Test("OpScopeDashboard.graph names the program's queues, operations and dependencies in both formats")
    func graphOfAMonitor() async {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "images \"hd\"")
        // Suspended, so that what is exported is still there, pending, when it is read.
        queue.isSuspended = true
        let fetch = BlockOperation {}
        fetch.name = "fetch"
        let resize = BlockOperation {}
        resize.name = "resize <2x>"
        resize.addDependency(fetch)
        queue.addOperation(fetch)
        queue.addOperation(resize)

        let dot = OpScopeDashboard.graph(monitor, format: .dot)
        #expect(dot.contains("digraph opscope {") && dot.contains("label=\"q1 images \\\"hd\\\" (suspended)\";"), "\(dot)")
        #expect(dot.contains("[label=\"#1 fetch\\nroot: queue suspended\"") && dot.contains("[label=\"#2 resize <2x>\""), "\(dot)")
        #expect(dot.contains("op1 -> op2;"))
        let mermaid = OpScopeDashboard.graph(monitor, format: .mermaid)
        #expect(mermaid.hasPrefix("%% OpScope") && mermaid.contains("\nflowchart LR\n"))
        #expect(mermaid.contains("n2[\"#35;2 resize #lt;2x#gt;\"]") && mermaid.contains("n1 --> n2"), "\(mermaid)")

        queue.isSuspended = false
        while queue.operationCount > 0 { try? await Task.sleep(for: .milliseconds(10)) }
    }
}
