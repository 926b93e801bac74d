/// A layered (Sugiyama-style) layout: every node gets a layer (its level: 1 + the largest layer
/// of its predecessors) and a position in its layer chosen to reduce edge crossings.
///
/// Real nodes keep their indices from the `LayoutGraph`; an edge spanning several layers passes
/// through dummy nodes, one per layer, with negative ids (`-1`, `-2`, ...), so inserting a real
/// node never renumbers anything. The layout is a value: computing it is a pure function of the
/// graph (and of a previous layout, for stability).
public struct LayeredLayout: Sendable {
    /// Tunables of the crossing reduction.
    public struct Options: Sendable, Equatable {
        /// Median sweeps (each one down and one up).
        public var sweeps = 4
        /// Passes of adjacent exchange after the sweeps.
        public var exchangePasses = 3

        /// The defaults.
        public init() {}
    }

    /// An edge of the original graph.
    public struct Edge: Hashable, Sendable {
        public let from: Int
        public let to: Int

        public init(_ from: Int, _ to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Per layer, node ids top to bottom (dummies negative).
    public private(set) var layers: [[Int]] = []
    /// Layer of each real node.
    public private(set) var layerOfReal: [Int] = []
    /// Edges drawn reversed to break cycles (in their original direction).
    public private(set) var reversedEdges: Set<Edge> = []
    /// Each edge's chain of nodes in drawing order: source, dummies, target.
    public private(set) var chains: [Edge: [Int]] = [:]
    /// Crossings after the last full layout, or updated by `recountCrossings()`.
    public private(set) var crossings = 0
    /// Insertions since the last full layout.
    public private(set) var editsSinceFullLayout = 0

    private var positionOfReal: [Int] = []
    private var layerOfDummy: [Int] = []
    private var positionOfDummy: [Int] = []
    /// Neighbours in the layer above / below, including dummies.
    private var upReal: [[Int]] = []
    private var downReal: [[Int]] = []
    private var upDummy: [Int] = []
    private var downDummy: [Int] = []

    /// An empty layout.
    public init() {}

    /// Number of real nodes.
    public var realCount: Int { layerOfReal.count }

    /// Number of dummy nodes.
    public var dummyCount: Int { layerOfDummy.count }

    /// True when incremental edits have accumulated enough that a full layout would likely draw
    /// fewer crossings; the caller decides when to recompute (off the render path).
    public var isDegraded: Bool { editsSinceFullLayout > max(16, realCount / 10) }

    /// The layer of any node.
    public func layer(of node: Int) -> Int { node >= 0 ? layerOfReal[node] : layerOfDummy[-node - 1] }

    /// The position of any node within its layer.
    public func position(of node: Int) -> Int { node >= 0 ? positionOfReal[node] : positionOfDummy[-node - 1] }

    /// Neighbours of a node in the layer above.
    public func upper(_ node: Int) -> [Int] { node >= 0 ? upReal[node] : [upDummy[-node - 1]] }

    /// Neighbours of a node in the layer below.
    public func lower(_ node: Int) -> [Int] {
        node >= 0 ? downReal[node] : [downDummy[-node - 1]]
    }

    // MARK: Full layout

    /// Lays out `graph`. With `previous`, real nodes start in their previous order (stability:
    /// a re-layout moves as little as the crossing reduction allows).
    public static func compute(_ graph: LayoutGraph, previous: LayeredLayout? = nil, options: Options = Options()) -> LayeredLayout {
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

    private mutating func link(_ upperNode: Int, _ lowerNode: Int) {
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

    private mutating func reindex(_ layer: Int) {
        for (position, node) in layers[layer].enumerated() {
            if node >= 0 { positionOfReal[node] = position } else { positionOfDummy[-node - 1] = position }
        }
    }

    // MARK: Crossing reduction

    /// Neighbour lists of every node (real and dummy) in flat arrays, so that the sweeps read
    /// them without allocating: node `n` is slot `n` (real) or `realCount - n - 1` (dummy).
    /// Positions are kept per slot too. Built once per crossing reduction; the adjacency does not
    /// change while nodes move within their layers.
    private struct Adjacency {
        var upStart: [Int32]
        var up: [Int32]
        var downStart: [Int32]
        var down: [Int32]
        var position: [Int32]
        let realCount: Int

        init(_ layout: LayeredLayout) {
            realCount = layout.realCount
            let total = layout.realCount + layout.dummyCount
            upStart = [Int32](repeating: 0, count: total + 1)
            downStart = [Int32](repeating: 0, count: total + 1)
            up = []
            down = []
            up.reserveCapacity(total)
            down.reserveCapacity(total)
            position = [Int32](repeating: 0, count: total)
            for slot in 0..<total {
                let node = slot < realCount ? slot : realCount - slot - 1
                upStart[slot] = Int32(up.count)
                downStart[slot] = Int32(down.count)
                if node >= 0 {
                    for other in layout.upReal[node] { up.append(Int32(Self.slot(other, realCount))) }
                    for other in layout.downReal[node] { down.append(Int32(Self.slot(other, realCount))) }
                } else {
                    up.append(Int32(Self.slot(layout.upDummy[-node - 1], realCount)))
                    down.append(Int32(Self.slot(layout.downDummy[-node - 1], realCount)))
                }
                position[slot] = Int32(layout.position(of: node))
            }
            upStart[total] = Int32(up.count)
            downStart[total] = Int32(down.count)
        }

        @inline(__always) static func slot(_ node: Int, _ realCount: Int) -> Int { node >= 0 ? node : realCount - node - 1 }
        @inline(__always) func slot(_ node: Int) -> Int { Self.slot(node, realCount) }

        /// Crossings between the edges of `first` placed left of `second` toward one side.
        func sideCost(_ first: Int, _ second: Int, upward: Bool) -> Int {
            let starts = upward ? upStart : downStart
            let list = upward ? up : down
            let a = Int(starts[first])..<Int(starts[first + 1])
            let b = Int(starts[second])..<Int(starts[second + 1])
            if a.isEmpty || b.isEmpty { return 0 }
            if a.count * b.count <= 4_096 {
                var crossings = 0
                for i in a {
                    let p = position[Int(list[i])]
                    for j in b where position[Int(list[j])] < p { crossings += 1 }
                }
                return crossings
            }
            // Hubs: sort both sides once and merge.
            let left = a.map { Int(position[Int(list[$0])]) }.sorted()
            let right = b.map { Int(position[Int(list[$0])]) }.sorted()
            return CrossingCounter.pairCrossings(left, right)
        }

        /// The median position of a slot's neighbours on one side, nil without neighbours.
        func median(_ slot: Int, upward: Bool) -> Double? {
            let starts = upward ? upStart : downStart
            let list = upward ? up : down
            let range = Int(starts[slot])..<Int(starts[slot + 1])
            switch range.count {
            case 0: return nil
            case 1: return Double(position[Int(list[range.lowerBound])])
            case 2: return Double(position[Int(list[range.lowerBound])] + position[Int(list[range.lowerBound + 1])]) / 2
            default: return LayeredLayout.median(range.map { Int(position[Int(list[$0])]) })
            }
        }

        /// Crossings between `layers[layer]` and the layer below.
        func crossings(_ upper: [Int], lowerWidth: Int) -> Int {
            var edges: [(upper: Int, lower: Int)] = []
            edges.reserveCapacity(upper.count)
            for node in upper {
                let slot = slot(node)
                let from = Int(position[slot])
                for i in Int(downStart[slot])..<Int(downStart[slot + 1]) { edges.append((from, Int(position[Int(down[i])]))) }
            }
            return CrossingCounter.count(edges, lowerWidth: lowerWidth)
        }

        mutating func reindex(_ nodes: [Int]) {
            for (index, node) in nodes.enumerated() { position[slot(node)] = Int32(index) }
        }
    }

    private mutating func reduceCrossings(_ options: Options) {
        var adjacency = Adjacency(self)
        func total(_ layers: [[Int]]) -> Int {
            var sum = 0
            for layer in layers.indices.dropLast() {
                sum += adjacency.crossings(layers[layer], lowerWidth: layers[layer + 1].count)
            }
            return sum
        }
        var current = layers
        layers = []
        var best = current
        var bestCrossings = total(current)
        for _ in 0..<options.sweeps where bestCrossings > 0 {
            for layer in current.indices.dropFirst() { Self.sortByMedian(&current[layer], &adjacency, upward: true) }
            for layer in current.indices.reversed().dropFirst() { Self.sortByMedian(&current[layer], &adjacency, upward: false) }
            let now = total(current)
            if now < bestCrossings {
                bestCrossings = now
                best = current
            }
        }
        current = best
        best = []
        for layer in current.indices { adjacency.reindex(current[layer]) }
        for _ in 0..<options.exchangePasses where bestCrossings > 0 {
            guard Self.exchangeAdjacent(&current, &adjacency) else { break }
            bestCrossings = total(current)
        }
        layers = current
        for layer in layers.indices { reindex(layer) }
        crossings = bestCrossings
        editsSinceFullLayout = 0
    }

    /// Orders a layer by the median position of each node's neighbours in the layer above
    /// (`upward`) or below; a node without such neighbours keeps its place.
    private static func sortByMedian(_ nodes: inout [Int], _ adjacency: inout Adjacency, upward: Bool) {
        var keyed: [(Double, Int32, Int)] = []
        keyed.reserveCapacity(nodes.count)
        for node in nodes {
            let slot = adjacency.slot(node)
            let position = adjacency.position[slot]
            keyed.append((adjacency.median(slot, upward: upward) ?? Double(position), position, node))
        }
        keyed.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        for index in keyed.indices { nodes[index] = keyed[index].2 }
        adjacency.reindex(nodes)
    }

    static func median(_ values: [Int]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// One pass of adjacent exchange; true if anything moved.
    private static func exchangeAdjacent(_ layers: inout [[Int]], _ adjacency: inout Adjacency) -> Bool {
        var improved = false
        for layer in layers.indices where layers[layer].count > 1 {
            var nodes = layers[layer]
            for index in 0..<(nodes.count - 1) {
                let first = adjacency.slot(nodes[index])
                let second = adjacency.slot(nodes[index + 1])
                let keep = adjacency.sideCost(first, second, upward: true) + adjacency.sideCost(first, second, upward: false)
                let swap = adjacency.sideCost(second, first, upward: true) + adjacency.sideCost(second, first, upward: false)
                if swap < keep {
                    nodes.swapAt(index, index + 1)
                    adjacency.position[first] = Int32(index + 1)
                    adjacency.position[second] = Int32(index)
                    improved = true
                }
            }
            layers[layer] = nodes
        }
        return improved
    }

    /// All crossings between adjacent layers.
    public func totalCrossings() -> Int {
        let adjacency = Adjacency(self)
        var total = 0
        for layer in layers.indices.dropLast() {
            total += adjacency.crossings(layers[layer], lowerWidth: layers[layer + 1].count)
        }
        return total
    }

    /// Recounts `crossings` (after incremental edits).
    public mutating func recountCrossings() {
        crossings = totalCrossings()
    }
}

extension LayeredLayout {
    // MARK: Incremental edits

    /// Inserts a new real node (index `realCount`) with edges from `predecessors` (existing real
    /// nodes): its layer is 1 + their largest layer, its place the median of theirs, and existing
    /// nodes keep their order. Returns the new node's index.
    @discardableResult
    public mutating func insertNode(predecessors: [Int]) -> Int {
        let node = realCount
        let layer = predecessors.map { layerOfReal[$0] + 1 }.max() ?? 0
        layerOfReal.append(layer)
        positionOfReal.append(0)
        upReal.append([])
        downReal.append([])
        while layers.count <= layer { layers.append([]) }
        // Dummies first, so the node's place is the median of its neighbours just above it.
        let partial = predecessors.map { dummies(from: $0, toLayer: layer) }
        let anchors = partial.map { Double(position(of: $0.last!)) }
        place(node, in: layer, key: anchors.isEmpty ? Double.infinity : Self.medianDouble(anchors))
        for (predecessor, chain) in zip(predecessors, partial) {
            link(chain.last!, node)
            chains[Edge(predecessor, node)] = chain + [node]
        }
        editsSinceFullLayout += 1
        return node
    }

    /// Inserts an edge between existing real nodes. An edge that would point backwards in the
    /// layering needs a new layering: returns false, and the caller recomputes the layout.
    public mutating func insertEdge(from: Int, to: Int) -> Bool {
        guard layerOfReal[from] < layerOfReal[to] else { return false }
        let chain = dummies(from: from, toLayer: layerOfReal[to])
        link(chain.last!, to)
        chains[Edge(from, to)] = chain + [to]
        editsSinceFullLayout += 1
        return true
    }

    /// The source and new dummies for an edge from `source` down to `layer` (not yet linked to
    /// its target), each dummy placed next to the node above it.
    private mutating func dummies(from source: Int, toLayer layer: Int) -> [Int] {
        var chain = [source]
        var previous = source
        let top = layerOfReal[source]
        if layer > top + 1 {
            for dummyLayer in (top + 1)..<layer {
                let dummy = -(layerOfDummy.count + 1)
                layerOfDummy.append(dummyLayer)
                positionOfDummy.append(0)
                upDummy.append(previous)
                downDummy.append(0)
                place(dummy, in: dummyLayer, key: Double(position(of: previous)))
                link(previous, dummy)
                chain.append(dummy)
                previous = dummy
            }
        }
        return chain
    }

    /// Inserts `node` into `layer` before the first node whose own key (median of its upper
    /// neighbours) is larger, shifting the rest down by one.
    private mutating func place(_ node: Int, in layer: Int, key: Double) {
        var index = layers[layer].count
        if key.isFinite {
            for (position, other) in layers[layer].enumerated() where upperKey(other, fallback: position) > key {
                index = position
                break
            }
        }
        layers[layer].insert(node, at: index)
        for position in index..<layers[layer].count {
            let moved = layers[layer][position]
            if moved >= 0 { positionOfReal[moved] = position } else { positionOfDummy[-moved - 1] = position }
        }
    }

    /// The median position of a node's upper neighbours, without allocating for the common
    /// cases (a dummy or a node with one or two dependencies).
    private func upperKey(_ node: Int, fallback: Int) -> Double {
        if node < 0 { return Double(position(of: upDummy[-node - 1])) }
        let neighbours = upReal[node]
        switch neighbours.count {
        case 0: return Double(fallback)
        case 1: return Double(position(of: neighbours[0]))
        case 2: return Double(position(of: neighbours[0]) + position(of: neighbours[1])) / 2
        default: return Self.median(neighbours.map(position(of:)))
        }
    }

    static func medianDouble(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
