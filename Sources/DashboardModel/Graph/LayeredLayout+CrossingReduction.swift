/// Crossing reduction: median sweeps, then adjacent exchange, over flat neighbour arrays.
extension LayeredLayout {
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

    mutating func reduceCrossings(_ options: Options) {
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
    package func totalCrossings() -> Int {
        let adjacency = Adjacency(self)
        var total = 0
        for layer in layers.indices.dropLast() {
            total += adjacency.crossings(layers[layer], lowerWidth: layers[layer + 1].count)
        }
        return total
    }

    /// Recounts `crossings` (after incremental edits).
    package mutating func recountCrossings() {
        crossings = totalCrossings()
    }
}
