import DashboardModel
import DashboardUI
import Testing

@Suite("Graph layout kept from frame to frame")
struct GraphLayoutMemoryTests {
    /// Positions (layer, place) of each key.
    private func places(_ layout: LayeredLayout, _ order: [Int], _ keys: [String]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for (node, graphIndex) in order.enumerated() {
            result[keys[graphIndex]] = [layout.layer(of: node), layout.position(of: node)]
        }
        return result
    }

    @Test("the same graph is laid out once; new nodes join without moving the others; a removal lays out again")
    func stability() {
        var memory = GraphLayoutMemory<String>()
        // a → b, a → c, b → d
        let keys = ["a", "b", "c", "d"]
        let graph = LayoutGraph(nodeCount: 4, edges: [(0, 1), (0, 2), (1, 3)])
        let (first, firstOrder) = memory.layout(graph, keys: keys)
        let before = places(first, firstOrder, keys)
        for _ in 0..<5 { _ = memory.layout(graph, keys: keys) }
        #expect(memory.fullLayouts == 1, "an unchanged graph is not laid out again")

        // The same graph with its nodes listed in another order, plus e after c and f after e.
        let grown = ["d", "c", "e", "b", "a", "f"]
        let index = Dictionary(uniqueKeysWithValues: grown.enumerated().map { ($1, $0) })
        let edges = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "e"), ("e", "f")].map { (index[$0.0]!, index[$0.1]!) }
        let (second, secondOrder) = memory.layout(LayoutGraph(nodeCount: 6, edges: edges), keys: grown)
        let after = places(second, secondOrder, grown)
        #expect(memory.fullLayouts == 1, "insertions are incremental")
        for key in keys { #expect(after[key]?[0] == before[key]?[0], "\(key) changed layer") }
        #expect(after["e"]?[0] == 2 && after["f"]?[0] == 3)
        #expect(secondOrder.count == 6)

        // d is gone: the structure changed, one full layout.
        let shrunk = ["a", "b", "c"]
        _ = memory.layout(LayoutGraph(nodeCount: 3, edges: [(0, 1), (0, 2)]), keys: shrunk)
        #expect(memory.fullLayouts == 2)
    }

    @Test("an edge that would point backwards, or a cycle among new nodes, falls back to a full layout")
    func fallbacks() {
        var memory = GraphLayoutMemory<String>()
        _ = memory.layout(LayoutGraph(nodeCount: 2, edges: [(0, 1)]), keys: ["a", "b"])
        // b → a closes a cycle.
        let (layout, order) = memory.layout(LayoutGraph(nodeCount: 2, edges: [(0, 1), (1, 0)]), keys: ["a", "b"])
        #expect(memory.fullLayouts == 2)
        #expect(order.count == 2 && layout.realCount == 2)
        _ = memory.layout(LayoutGraph(nodeCount: 4, edges: [(0, 1), (1, 0), (2, 3), (3, 2)]), keys: ["a", "b", "x", "y"])
        #expect(memory.fullLayouts == 3)
    }

    @Test("a full layout after a removal starts from the old picture: what stays keeps its order")
    func rebuildKeepsOrder() {
        var memory = GraphLayoutMemory<String>()
        // a → b, a → c, a → d, x → y: three siblings in one layer.
        let keys = ["a", "b", "c", "d", "x", "y"]
        let (first, firstOrder) = memory.layout(LayoutGraph(nodeCount: 6, edges: [(0, 1), (0, 2), (0, 3), (4, 5)]), keys: keys)
        let before = places(first, firstOrder, keys)
        // x and y are gone, and the rest arrive listed in the opposite order.
        let shrunk = ["d", "c", "b", "a"]
        let (second, secondOrder) = memory.layout(LayoutGraph(nodeCount: 4, edges: [(3, 0), (3, 1), (3, 2)]), keys: shrunk)
        #expect(memory.fullLayouts == 2)
        let after = places(second, secondOrder, shrunk)
        let siblings = ["b", "c", "d"]
        #expect(siblings.sorted { before[$0]![1] < before[$1]![1] } == siblings.sorted { after[$0]![1] < after[$1]![1] })
        #expect(after["a"]?[0] == 0 && siblings.allSatisfy { after[$0]?[0] == 1 })
    }
}
