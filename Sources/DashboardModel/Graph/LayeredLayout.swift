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

    /// One edge's way through the layers: from `source` through `dummyCount` consecutive dummies
    /// (the first numbered `firstDummy`) to `target`. Kept as a few integers, not as an array
    /// per edge in a dictionary: a 10,000-node graph has some 15,000 edges.
    struct Chain: Sendable {
        var edge: Edge
        var source: Int
        var target: Int
        /// The first dummy's id (negative); 0 without dummies.
        var firstDummy: Int
        var dummyCount: Int

        /// Source, dummies, target, in drawing order.
        var nodes: [Int] {
            [source] + (0..<dummyCount).map { firstDummy - $0 } + [target]
        }
    }

    /// Per layer, node ids top to bottom (dummies negative).
    package internal(set) var layers: [[Int]] = []
    /// Layer of each real node.
    package internal(set) var layerOfReal: [Int] = []
    /// Edges drawn reversed to break cycles (in their original direction).
    package internal(set) var reversedEdges: Set<Edge> = []
    /// Crossings after the last full layout, or updated by `recountCrossings()`.
    package internal(set) var crossings = 0
    /// Insertions since the last full layout.
    package internal(set) var editsSinceFullLayout = 0

    /// Every edge's chain, in the order they were laid out (a later chain of the same edge
    /// replaces an earlier one, as an edge inserted again does).
    var chainList: [Chain] = []
    /// The index in `chainList` of the chain each dummy belongs to.
    var chainOfDummy: [Int32] = []
    var positionOfReal: [Int] = []
    var layerOfDummy: [Int] = []
    var positionOfDummy: [Int] = []
    /// Neighbours of real nodes in the layer above / below, including dummies.
    var upReal = NeighbourLists()
    var downReal = NeighbourLists()
    var upDummy: [Int] = []
    var downDummy: [Int] = []

    /// An empty layout.
    package init() {}

    /// Number of real nodes.
    package var realCount: Int { layerOfReal.count }

    /// Number of dummy nodes.
    package var dummyCount: Int { layerOfDummy.count }

    /// Each edge's chain of nodes in drawing order: source, dummies, target.
    package var chains: [Edge: [Int]] {
        var result: [Edge: [Int]] = [:]
        result.reserveCapacity(chainList.count)
        for chain in chainList { result[chain.edge] = chain.nodes }
        return result
    }

    /// The edge a dummy carries.
    package func edge(ofDummy dummy: Int) -> Edge { chainList[Int(chainOfDummy[-dummy - 1])].edge }

    /// True when incremental edits have accumulated enough that a full layout would likely draw
    /// fewer crossings; the caller decides when to recompute (off the render path).
    package var isDegraded: Bool { editsSinceFullLayout > max(16, realCount / 10) }

    /// The layer of any node.
    package func layer(of node: Int) -> Int { node >= 0 ? layerOfReal[node] : layerOfDummy[-node - 1] }

    /// The position of any node within its layer.
    package func position(of node: Int) -> Int { node >= 0 ? positionOfReal[node] : positionOfDummy[-node - 1] }

    /// Neighbours of a node in the layer above.
    package func upper(_ node: Int) -> [Int] { node >= 0 ? upReal.list(node) : [upDummy[-node - 1]] }

    /// Neighbours of a node in the layer below.
    package func lower(_ node: Int) -> [Int] {
        node >= 0 ? downReal.list(node) : [downDummy[-node - 1]]
    }

    /// Calls `body` with each neighbour of a node in the layer below (as `lower(_:)` lists
    /// them, without making the list).
    package func forEachLower(_ node: Int, _ body: (Int) -> Void) {
        if node >= 0 { downReal.forEach(node, body) } else { body(downDummy[-node - 1]) }
    }

    /// The number of neighbours of a node in the layer below.
    package func lowerCount(_ node: Int) -> Int {
        guard node >= 0 else { return 1 }
        var count = 0
        downReal.forEach(node) { _ in count += 1 }
        return count
    }

    /// Records an edge's chain (its `dummyCount` dummies numbered down from `firstDummy`).
    mutating func addChain(_ edge: Edge, source: Int, target: Int, firstDummy: Int, dummyCount: Int) {
        let index = Int32(chainList.count)
        chainList.append(Chain(edge: edge, source: source, target: target, firstDummy: firstDummy, dummyCount: dummyCount))
        if chainOfDummy.count < layerOfDummy.count {
            chainOfDummy.append(contentsOf: repeatElement(-1, count: layerOfDummy.count - chainOfDummy.count))
        }
        for step in 0..<dummyCount { chainOfDummy[-(firstDummy - step) - 1] = index }
    }

    // MARK: Full layout

    /// Lays out `graph`. With `previous`, real nodes start in their previous order (stability:
    /// a re-layout moves as little as the crossing reduction allows).
    package static func compute(_ graph: LayoutGraph, previous: LayeredLayout? = nil, options: Options = Options()) -> LayeredLayout {
        var layout = LayeredLayout()
        let successors = FlatGraph(graph)
        layout.build(successors)
        layout.initialOrder(successors, previous: previous)
        layout.reduceCrossings(options)
        return layout
    }

    /// A graph's successor lists in one array (`targets[start[n]..<start[n + 1]]`, in the
    /// graph's order): the passes below read them without touching a nested array per node.
    struct FlatGraph {
        var start: [Int32]
        var targets: [Int32]

        init(_ graph: LayoutGraph) {
            start = [Int32](repeating: 0, count: graph.nodeCount + 1)
            targets = []
            targets.reserveCapacity(graph.nodeCount * 2)
            for node in 0..<graph.nodeCount {
                start[node] = Int32(targets.count)
                for next in graph.successors[node] { targets.append(Int32(next)) }
            }
            start[graph.nodeCount] = Int32(targets.count)
        }

        var nodeCount: Int { start.count - 1 }

        func range(_ node: Int) -> Range<Int> { Int(start[node])..<Int(start[node + 1]) }
    }

    private mutating func build(_ graph: FlatGraph) {
        let count = graph.nodeCount
        reversedEdges = Self.backEdges(graph)
        // Longest-path layering over the graph with back edges reversed (Kahn order). The
        // layering's successor lists are built flat, by counting, in the order the edges come.
        var edges: [Edge] = []
        edges.reserveCapacity(graph.targets.count)
        var ends: [(Int32, Int32)] = []
        ends.reserveCapacity(graph.targets.count)
        var indegree = [Int](repeating: 0, count: count)
        var outStart = [Int32](repeating: 0, count: count + 1)
        let anyReversed = !reversedEdges.isEmpty
        for from in 0..<count {
            for index in graph.range(from) {
                let to = Int(graph.targets[index])
                guard to != from else { continue }
                let edge = Edge(from, to)
                let (a, b) = anyReversed && reversedEdges.contains(edge) ? (to, from) : (from, to)
                ends.append((Int32(a), Int32(b)))
                outStart[a + 1] += 1
                indegree[b] += 1
                edges.append(edge)
            }
        }
        for node in 0..<count { outStart[node + 1] += outStart[node] }
        var fill = outStart
        var out = [Int32](repeating: 0, count: ends.count)
        for (a, b) in ends {
            out[Int(fill[Int(a)])] = b
            fill[Int(a)] += 1
        }
        var layerOf = [Int](repeating: 0, count: count)
        var ready = (0..<count).filter { indegree[$0] == 0 }
        var head = 0
        while head < ready.count {
            let node = ready[head]
            head += 1
            for index in Int(outStart[node])..<Int(outStart[node + 1]) {
                let next = Int(out[index])
                layerOf[next] = max(layerOf[next], layerOf[node] + 1)
                indegree[next] -= 1
                if indegree[next] == 0 { ready.append(next) }
            }
        }
        layerOfReal = layerOf
        positionOfReal = Array(repeating: 0, count: count)
        // Each edge adds one entry above (its target's, or a dummy's) and one below.
        upReal = NeighbourLists(count: count, entries: edges.count)
        downReal = NeighbourLists(count: count, entries: edges.count)
        layers = Array(repeating: [], count: (layerOf.max() ?? -1) + 1)
        for node in 0..<count { layers[layerOf[node]].append(node) }
        chainList.reserveCapacity(edges.count)
        for (edge, (a, b)) in zip(edges, ends) { addChain(edge, source: Int(a), target: Int(b)) }
    }

    /// Edges that close a cycle in a depth-first search (reversed for layering, drawn as back edges).
    static func backEdges(_ graph: FlatGraph) -> Set<Edge> {
        var state = [UInt8](repeating: 0, count: graph.nodeCount) // 0 new, 1 on stack, 2 done
        var result: Set<Edge> = []
        var stack: [(node: Int, next: Int)] = []
        for root in 0..<graph.nodeCount where state[root] == 0 {
            stack.append((root, Int(graph.start[root])))
            state[root] = 1
            while let top = stack.last {
                if top.next < Int(graph.start[top.node + 1]) {
                    stack[stack.count - 1].next += 1
                    let next = Int(graph.targets[top.next])
                    if state[next] == 0 {
                        state[next] = 1
                        stack.append((next, Int(graph.start[next])))
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
    private mutating func addChain(_ edge: Edge, source: Int, target: Int) {
        var previous = source
        let top = layerOfReal[source]
        let bottom = layerOfReal[target]
        let firstDummy = -(layerOfDummy.count + 1)
        var dummies = 0
        if bottom > top + 1 {
            for layer in (top + 1)..<bottom {
                let dummy = -(layerOfDummy.count + 1)
                layerOfDummy.append(layer)
                positionOfDummy.append(layers[layer].count)
                layers[layer].append(dummy)
                upDummy.append(previous)
                downDummy.append(0)
                link(previous, dummy)
                previous = dummy
                dummies += 1
            }
        }
        link(previous, target)
        addChain(edge, source: source, target: target, firstDummy: dummies > 0 ? firstDummy : 0, dummyCount: dummies)
    }

    mutating func link(_ upperNode: Int, _ lowerNode: Int) {
        if upperNode >= 0 { downReal.append(lowerNode, to: upperNode) } else { downDummy[-upperNode - 1] = lowerNode }
        if lowerNode >= 0 { upReal.append(upperNode, to: lowerNode) } else { upDummy[-lowerNode - 1] = upperNode }
    }

    /// Depth-first order from the first layer (keeps related nodes together), or the previous
    /// layout's order for nodes it had.
    private mutating func initialOrder(_ graph: FlatGraph, previous: LayeredLayout?) {
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
        for root in (0..<realCount).reversed() where upReal.isEmpty(root) { stack.append(root) }
        var seen = [Bool](repeating: false, count: realCount)
        while let node = stack.popLast() {
            guard !seen[node] else { continue }
            seen[node] = true
            if rank[node] == Int.max {
                rank[node] = counter
                counter += 1
            }
            for index in graph.range(node).reversed() where !seen[Int(graph.targets[index])] { stack.append(Int(graph.targets[index])) }
        }
        // Dummies take their chain's source's rank, so they start next to their source. A
        // chain's dummies are numbered in order from its source down, so each dummy's upper
        // neighbour is ranked before it.
        var rankOfDummy = [Int](repeating: 0, count: dummyCount)
        for index in 0..<dummyCount {
            let upper = upDummy[index]
            rankOfDummy[index] = upper >= 0 ? rank[upper] : rankOfDummy[-upper - 1]
        }
        var keyed: [(Int, Int)] = []
        for layer in layers.indices {
            keyed.removeAll(keepingCapacity: true)
            for node in layers[layer] { keyed.append((node >= 0 ? rank[node] : rankOfDummy[-node - 1], node)) }
            // (rank, id) is a total order: any sort gives this one result.
            keyed.sort { $0 < $1 }
            for (index, entry) in keyed.enumerated() { layers[layer][index] = entry.1 }
            reindex(layer)
        }
    }

    mutating func reindex(_ layer: Int) {
        for (position, node) in layers[layer].enumerated() {
            if node >= 0 { positionOfReal[node] = position } else { positionOfDummy[-node - 1] = position }
        }
    }

    // MARK: Crossing reduction

    /// Orders every layer to reduce crossings (`CrossingReduction`) and keeps the best order found.
    mutating func reduceCrossings(_ options: Options) {
        var flat = CrossingReduction(self)
        var bestCrossings = flat.totalCrossings()
        flat.keepBest()
        for _ in 0..<options.sweeps where bestCrossings > 0 {
            for layer in (0..<flat.layerCount).dropFirst() { flat.sortByMedian(layer, upward: true) }
            for layer in (0..<flat.layerCount).reversed().dropFirst() { flat.sortByMedian(layer, upward: false) }
            let now = flat.totalCrossings()
            if now < bestCrossings {
                bestCrossings = now
                flat.keepBest()
            }
        }
        flat.restoreBest()
        for _ in 0..<options.exchangePasses where bestCrossings > 0 {
            let (change, moved) = flat.exchangeAdjacent()
            guard moved else { break }
            bestCrossings += change
        }
        for layer in layers.indices {
            let start = flat.layerStart[layer]
            for index in start..<flat.layerStart[layer + 1] { layers[layer][index - start] = flat.node(flat.order[index]) }
            reindex(layer)
        }
        crossings = bestCrossings
        editsSinceFullLayout = 0
    }

    static func median(_ values: [Int]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// All crossings between adjacent layers.
    package func totalCrossings() -> Int {
        CrossingReduction(self).totalCrossings()
    }

    /// Recounts `crossings` (after incremental edits).
    package mutating func recountCrossings() {
        crossings = totalCrossings()
    }

    // MARK: Incremental edits: new nodes and edges placed without a full layout

    /// Inserts a new real node (index `realCount`) with edges from `predecessors` (existing real
    /// nodes): its layer is 1 + their largest layer, its place the median of theirs, and existing
    /// nodes keep their order. Returns the new node's index.
    @discardableResult
    package mutating func insertNode(predecessors: [Int]) -> Int {
        let node = realCount
        let layer = predecessors.map { layerOfReal[$0] + 1 }.max() ?? 0
        layerOfReal.append(layer)
        positionOfReal.append(0)
        upReal.addList()
        downReal.addList()
        while layers.count <= layer { layers.append([]) }
        // Dummies first, so the node's place is the median of its neighbours just above it.
        let partial = predecessors.map { dummies(from: $0, toLayer: layer) }
        let anchors = partial.map { Double(position(of: $0.last!)) }
        place(node, in: layer, key: anchors.isEmpty ? Double.infinity : Self.medianDouble(anchors))
        for (predecessor, chain) in zip(predecessors, partial) {
            link(chain.last!, node)
            addChain(Edge(predecessor, node), source: predecessor, target: node, firstDummy: chain.count > 1 ? chain[1] : 0,
                     dummyCount: chain.count - 1)
        }
        editsSinceFullLayout += 1
        return node
    }

    /// Inserts an edge between existing real nodes. An edge that would point backwards in the
    /// layering needs a new layering: returns false, and the caller recomputes the layout.
    package mutating func insertEdge(from: Int, to: Int) -> Bool {
        guard layerOfReal[from] < layerOfReal[to] else { return false }
        let chain = dummies(from: from, toLayer: layerOfReal[to])
        link(chain.last!, to)
        addChain(Edge(from, to), source: from, target: to, firstDummy: chain.count > 1 ? chain[1] : 0, dummyCount: chain.count - 1)
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
        var count = 0
        var first = 0
        var second = 0
        upReal.forEach(node) { neighbour in
            if count == 0 { first = neighbour } else if count == 1 { second = neighbour }
            count += 1
        }
        switch count {
        case 0: return Double(fallback)
        case 1: return Double(position(of: first))
        case 2: return Double(position(of: first) + position(of: second)) / 2
        default: return Self.median(upReal.list(node).map(position(of:)))
        }
    }

    static func medianDouble(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
