/// A layered (Sugiyama-style) layout: every node gets a layer (its level: 1 + the largest layer
/// of its predecessors) and a position in its layer chosen to reduce edge crossings.
///
/// Real nodes keep their indices from the `LayoutGraph`; an edge spanning several layers passes
/// through dummy nodes, one per layer, with negative ids (`-1`, `-2`, ...), so inserting a real
/// node never renumbers anything. The layout is a value: computing it is a pure function of the
/// graph (and of a previous layout, for stability).
public struct LayeredLayout: Sendable {
    /// Tunables of the crossing reduction.
    package struct Options: Sendable, Equatable {
        /// Median sweeps (each one down and one up).
        package var sweeps = 4
        /// Passes of adjacent exchange after the sweeps.
        package var exchangePasses = 3

        /// The defaults.
        package init() {}
    }

    /// An edge of the original graph.
    public struct Edge: Hashable, Sendable {
        /// The node the edge leaves (a dependency).
        package let from: Int
        /// The node the edge enters (its dependent).
        package let to: Int

        /// An edge.
        package init(_ from: Int, _ to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Per layer, node ids top to bottom (dummies negative).
    package internal(set) var layers: [[Int]] = []
    /// Layer of each real node.
    package internal(set) var layerOfReal: [Int] = []
    /// Edges drawn reversed to break cycles (in their original direction).
    package internal(set) var reversedEdges: Set<Edge> = []
    /// Each edge's chain of nodes in drawing order: source, dummies, target.
    package internal(set) var chains: [Edge: [Int]] = [:]
    /// Crossings after the last full layout, or updated by `recountCrossings()`.
    package internal(set) var crossings = 0
    /// Insertions since the last full layout.
    package internal(set) var editsSinceFullLayout = 0

    var positionOfReal: [Int] = []
    var layerOfDummy: [Int] = []
    var positionOfDummy: [Int] = []
    /// Neighbours in the layer above / below, including dummies.
    var upReal: [[Int]] = []
    var downReal: [[Int]] = []
    var upDummy: [Int] = []
    var downDummy: [Int] = []

    /// An empty layout.
    package init() {}

    /// Number of real nodes.
    package var realCount: Int { layerOfReal.count }

    /// Number of dummy nodes.
    package var dummyCount: Int { layerOfDummy.count }

    /// True when incremental edits have accumulated enough that a full layout would likely draw
    /// fewer crossings; the caller decides when to recompute (off the render path).
    package var isDegraded: Bool { editsSinceFullLayout > max(16, realCount / 10) }

    /// The layer of any node.
    package func layer(of node: Int) -> Int { node >= 0 ? layerOfReal[node] : layerOfDummy[-node - 1] }

    /// The position of any node within its layer.
    package func position(of node: Int) -> Int { node >= 0 ? positionOfReal[node] : positionOfDummy[-node - 1] }

    /// Neighbours of a node in the layer above.
    package func upper(_ node: Int) -> [Int] { node >= 0 ? upReal[node] : [upDummy[-node - 1]] }

    /// Neighbours of a node in the layer below.
    package func lower(_ node: Int) -> [Int] {
        node >= 0 ? downReal[node] : [downDummy[-node - 1]]
    }

    // MARK: Full layout

    /// Lays out `graph`. With `previous`, real nodes start in their previous order (stability:
    /// a re-layout moves as little as the crossing reduction allows).
    package static func compute(_ graph: LayoutGraph, previous: LayeredLayout? = nil, options: Options = Options()) -> LayeredLayout {
        var layout = LayeredLayout()
        layout.build(graph)
        layout.initialOrder(graph, previous: previous)
        layout.reduceCrossings(options)
        return layout
    }

    private mutating func build(_ graph: LayoutGraph) {
        let count = graph.nodeCount
        reversedEdges = Self.backEdges(graph)
        // Longest-path layering over the graph with back edges reversed (Kahn order).
        var predecessorsOf = [[Int]](repeating: [], count: count)
        var successorsOf = [[Int]](repeating: [], count: count)
        var edges: [Edge] = []
        edges.reserveCapacity(graph.edgeCount)
        for from in 0..<count {
            for to in graph.successors[from] where to != from {
                let edge = Edge(from, to)
                let (a, b) = reversedEdges.contains(edge) ? (to, from) : (from, to)
                successorsOf[a].append(b)
                predecessorsOf[b].append(a)
                edges.append(edge)
            }
        }
        var layerOf = [Int](repeating: 0, count: count)
        var indegree = predecessorsOf.map(\.count)
        var ready = (0..<count).filter { indegree[$0] == 0 }
        var head = 0
        while head < ready.count {
            let node = ready[head]
            head += 1
            for next in successorsOf[node] {
                layerOf[next] = max(layerOf[next], layerOf[node] + 1)
                indegree[next] -= 1
                if indegree[next] == 0 { ready.append(next) }
            }
        }
        layerOfReal = layerOf
        positionOfReal = Array(repeating: 0, count: count)
        upReal = Array(repeating: [], count: count)
        downReal = Array(repeating: [], count: count)
        layers = Array(repeating: [], count: (layerOf.max() ?? -1) + 1)
        for node in 0..<count { layers[layerOf[node]].append(node) }
        for edge in edges { addChain(edge) }
    }

    /// Edges that close a cycle in a depth-first search (reversed for layering, drawn as back edges).
    static func backEdges(_ graph: LayoutGraph) -> Set<Edge> {
        var state = [UInt8](repeating: 0, count: graph.nodeCount) // 0 new, 1 on stack, 2 done
        var result: Set<Edge> = []
        var stack: [(node: Int, next: Int)] = []
        for root in 0..<graph.nodeCount where state[root] == 0 {
            stack.append((root, 0))
            state[root] = 1
            while let top = stack.last {
                let successors = graph.successors[top.node]
                if top.next < successors.count {
                    stack[stack.count - 1].next += 1
                    let next = successors[top.next]
                    if state[next] == 0 {
                        state[next] = 1
                        stack.append((next, 0))
                    } else if state[next] == 1 {
                        result.insert(Edge(top.node, next))
                    }
                } else {
                    state[top.node] = 2
                    stack.removeLast()
                }
            }
        }
        return result
    }

    /// Adds an edge's chain (dummies in every layer it crosses), appended at the layers' ends.
    private mutating func addChain(_ edge: Edge) {
        let reversed = reversedEdges.contains(edge)
        let (source, target) = reversed ? (edge.to, edge.from) : (edge.from, edge.to)
        var chain = [source]
        var previous = source
        let top = layerOfReal[source]
        let bottom = layerOfReal[target]
        if bottom > top + 1 {
            for layer in (top + 1)..<bottom {
                let dummy = -(layerOfDummy.count + 1)
                layerOfDummy.append(layer)
                positionOfDummy.append(layers[layer].count)
                layers[layer].append(dummy)
                upDummy.append(previous)
                downDummy.append(0)
                link(previous, dummy)
                chain.append(dummy)
                previous = dummy
            }
        }
        link(previous, target)
        chain.append(target)
        chains[edge] = chain
    }

    mutating func link(_ upperNode: Int, _ lowerNode: Int) {
        if upperNode >= 0 { downReal[upperNode].append(lowerNode) } else { downDummy[-upperNode - 1] = lowerNode }
        if lowerNode >= 0 { upReal[lowerNode].append(upperNode) } else { upDummy[-lowerNode - 1] = upperNode }
    }

    /// Depth-first order from the first layer (keeps related nodes together), or the previous
    /// layout's order for nodes it had.
    private mutating func initialOrder(_ graph: LayoutGraph, previous: LayeredLayout?) {
        var rank = [Int](repeating: Int.max, count: realCount)
        var counter = 0
        if let previous {
            for layer in previous.layers {
                for node in layer where node >= 0 && node < realCount {
                    rank[node] = counter
                    counter += 1
                }
            }
        }
        var stack: [Int] = []
        for root in (0..<realCount).reversed() where upReal[root].isEmpty { stack.append(root) }
        var seen = [Bool](repeating: false, count: realCount)
        while let node = stack.popLast() {
            guard !seen[node] else { continue }
            seen[node] = true
            if rank[node] == Int.max {
                rank[node] = counter
                counter += 1
            }
            for next in graph.successors[node].reversed() where !seen[next] { stack.append(next) }
        }
        for layer in layers.indices {
            // Dummies take their upper neighbour's rank, so they start next to their source.
            // Sorted in a copy: the comparator reads `self`, which must not overlap the write.
            var nodes = layers[layer]
            nodes.sort { lhs, rhs in
                let a = lhs >= 0 ? rank[lhs] : rankOfChain(lhs, rank)
                let b = rhs >= 0 ? rank[rhs] : rankOfChain(rhs, rank)
                return (a, lhs) < (b, rhs)
            }
            layers[layer] = nodes
            reindex(layer)
        }
    }

    private func rankOfChain(_ dummy: Int, _ rank: [Int]) -> Int {
        var node = dummy
        while node < 0 { node = upDummy[-node - 1] }
        return rank[node]
    }

    mutating func reindex(_ layer: Int) {
        for (position, node) in layers[layer].enumerated() {
            if node >= 0 { positionOfReal[node] = position } else { positionOfDummy[-node - 1] = position }
        }
    }

}
