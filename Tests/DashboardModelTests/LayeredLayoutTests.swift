import DashboardModel
import OpScopeTestSupport
import Testing

@Suite("Model: layered layout")
struct LayeredLayoutTests {
    /// A graph that is drawn with a crossing when taken in id order: 0→3, 1→2.
    @Test("crossing reduction removes avoidable crossings")
    func reducesCrossings() {
        let graph = LayoutGraph(nodeCount: 4, edges: [(0, 3), (1, 2)])
        let layout = LayeredLayout.compute(graph)
        #expect(layout.totalCrossings() == 0)
        #expect(layout.crossings == 0)
        // Taken in id order this has 3 crossings; reversing one layer has none.
        let twisted = LayoutGraph(nodeCount: 6, edges: [(0, 5), (1, 4), (2, 3)])
        #expect(LayeredLayout.compute(twisted).totalCrossings() == 0)
    }

    @Test("levels: one more than the deepest dependency; long edges get one dummy per skipped layer")
    func layering() {
        let graph = LayoutGraph(nodeCount: 4, edges: [(0, 1), (1, 2), (2, 3), (0, 3)])
        let layout = LayeredLayout.compute(graph)
        #expect((0..<4).map(layout.layer(of:)) == [0, 1, 2, 3])
        #expect(layout.dummyCount == 2)
        #expect(layout.chains[LayeredLayout.Edge(0, 3)]?.count == 4)
    }

    @Test("a re-layout keeps the previous order where it costs no crossings")
    func stable() {
        let graph = LayoutGraph(nodeCount: 5, edges: [(0, 2), (0, 3), (0, 4), (1, 2)])
        let first = LayeredLayout.compute(graph)
        var grown = graph
        let extra = grown.addNode()
        grown.addEdge(1, extra)
        let second = LayeredLayout.compute(grown, previous: first)
        for layer in first.layers.indices {
            let before = first.layers[layer].filter { $0 >= 0 }
            let after = second.layers[layer].filter { $0 >= 0 && $0 < 5 }
            #expect(before == after, "layer \(layer) reordered: \(before) -> \(after)")
        }
    }

    @Test("incremental edits keep every existing node in place and report degradation")
    func incremental() {
        var graph = LayoutGraph(nodeCount: 0)
        for node in 0..<50 {
            _ = graph.addNode()
            if node > 0 { graph.addEdge(node / 2, node) }
        }
        var layout = LayeredLayout.compute(graph)
        let before = (0..<50).map { (layout.layer(of: $0), layout.position(of: $0)) }
        let node = layout.insertNode(predecessors: [3, 7])
        #expect(node == 50)
        #expect(layout.layer(of: node) == max(layout.layer(of: 3), layout.layer(of: 7)) + 1)
        for old in 0..<50 {
            #expect(layout.layer(of: old) == before[old].0)
        }
        // Order within each layer is kept (positions may shift by the inserted node only).
        for layer in layout.layers {
            let real = layer.filter { $0 >= 0 && $0 < 50 }
            #expect(real == real.sorted { before[$0].1 < before[$1].1 })
        }
        let downward = layout.insertEdge(from: 0, to: node)
        #expect(downward)
        let upward = layout.insertEdge(from: node, to: 0)
        #expect(!upward, "an upward edge asks for a full layout")
        #expect(!layout.isDegraded)
        for _ in 0..<20 { layout.insertNode(predecessors: [0]) }
        #expect(layout.isDegraded)
    }

    @Test("cycles of any size are laid out: back edges reversed, every node placed", arguments: [1, 2, 10_000])
    func cycles(size: Int) {
        var graph = LayoutGraph(nodeCount: size)
        for node in 0..<size { graph.addEdge(node, (node + 1) % size) }
        let layout = LayeredLayout.compute(graph)
        #expect(layout.realCount == size)
        #expect(layout.reversedEdges.count == 1, "one back edge breaks the cycle (a self-loop is its own)")
        #expect(layout.layers.reduce(0) { $0 + $1.filter { $0 >= 0 }.count } == size)
    }

    @Test("a 100,000-operation fan-in lays out")
    func wideFanIn() {
        var graph = LayoutGraph(nodeCount: 100_001)
        for node in 0..<100_000 { graph.addEdge(node, 100_000) }
        let layout = LayeredLayout.compute(graph)
        #expect(layout.layers.count == 2 && layout.layers[0].count == 100_000)
    }
}
